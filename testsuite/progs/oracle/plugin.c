// SPDX-License-Identifier: GPL-2.0
/* A plugin for the dlopen fixture; called through dlsym(). */
#include "fixture.h"

static NOINLINE int plugin_helper(int x) { return x * 11; }

NOINLINE int plugin_entry(int x)
{
	return plugin_helper(x) + 1;
}
