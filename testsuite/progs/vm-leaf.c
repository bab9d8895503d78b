/* vm-leaf.c - uprobe target for the QEMU test bed smoke test.
 *
 * Calls leaf() a number of times that depends on argv (default 5) and
 * prints how many calls it made, so the test can compare that with the
 * number of hits counted by a process("...").function("leaf") probe.
 * Build with -O0 -g: stap needs the debuginfo to find leaf(), and leaf()
 * must stay a real, out-of-line function.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) void leaf(unsigned long i)
{
	sink += i;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 5;
	long calls = 0;

	for (long i = 0; i < n; i++) {
		leaf(i);
		calls++;
	}
	printf("vm-leaf: calls=%ld\n", calls);
	return 0;
}
