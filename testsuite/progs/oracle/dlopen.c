// SPDX-License-Identifier: GPL-2.0
/* dlopen() inside the traced window, then a call through dlsym(). */
#include <dlfcn.h>
#include <stdio.h>
#include "fixture.h"

static const char *plugin_path;

static NOINLINE int local(int x) { return x - 1; }

NOINLINE int work(int x)
{
	void *h = dlopen(plugin_path, RTLD_NOW);
	int (*entry)(int);
	int r;

	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return -1000;
	}
	entry = (int (*)(int))dlsym(h, "plugin_entry");
	r = entry ? entry(local(x)) : -2000;
	dlclose(h);
	return r;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: dlopen PLUGIN.so\n");
		return 2;
	}
	plugin_path = argv[1];
	printf("dlopen %d %d\n", work(2), work(3));
	return 0;
}
