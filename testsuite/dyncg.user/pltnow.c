// SPDX-License-Identifier: GPL-2.0
/*
 * pltnow.c - built by plt.exp with -Wl,-z,now: the PLT entries jump
 * through .got (there is no .got.plt), so only the stubs' own jumps say
 * which relocation names them.  work() calls strlen() and puts() once
 * each, through the PLT.
 */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) int work(const char *s)
{
	return (int)strlen(s) + puts(s);
}

int main(void)
{
	return work("pltnow") > 100;
}
