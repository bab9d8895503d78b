// SPDX-License-Identifier: GPL-2.0
/*
 * The first call to lib_function() goes through a lazily bound PLT
 * slot (linked with -z lazy): PLT stub, the dynamic linker's resolver,
 * then a jump to the function.  The second call is bound.
 */
#include <stdio.h>
#include "fixture.h"

int lib_function(int x);

static NOINLINE int local(int x) { return x + 1; }

NOINLINE int work(int x)
{
	return lib_function(local(x)) + lib_function(x);
}

int main(void)
{
	printf("plt %d\n", work(1));
	return 0;
}
