// SPDX-License-Identifier: GPL-2.0
/*
 * fptr_dispatch.c - a command table dispatched through function pointers.
 *
 * handle_request() looks each command up in a table and calls its handler
 * through a pointer: no static call graph shows which handlers run.
 * Traced with fptr_dispatch.stp, see that file.
 *
 * Build: gcc -O1 -g -o fptr_dispatch fptr_dispatch.c
 */
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*handler)(int arg);
};

static __attribute__((noinline)) int do_get(int arg) { return arg + 1; }
static __attribute__((noinline)) int do_put(int arg) { return arg * 2; }
static __attribute__((noinline)) int do_del(int arg) { return -arg; }

static const struct command table[] = {
	{ "get", do_get }, { "put", do_put }, { "del", do_del },
};

static __attribute__((noinline)) const struct command *lookup(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

__attribute__((noinline)) int handle_request(const char *name, int arg)
{
	const struct command *c = lookup(name);

	return c ? c->handler(arg) : 0;
}

int main(void)
{
	int sum = handle_request("put", 20) + handle_request("del", 2);

	printf("fptr_dispatch: %d\n", sum);
	return 0;
}
