// SPDX-License-Identifier: GPL-2.0
/* A shared library reached through a lazily bound PLT slot. */
#include "fixture.h"

static NOINLINE int lib_helper(int x) { return x + 40; }

NOINLINE int lib_function(int x)
{
	return lib_helper(x) * 2;
}
