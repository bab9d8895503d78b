/* diffprog.c - traced twice by diff.exp, as "diffprog 3" and
 * "diffprog 6".  run(n) calls step(i) for i = 0..n-1; step() calls
 * leaf() every time and odd() when i is odd; run() calls big() once
 * when n > 4.  So from 3 to 6: run 1 -> 1, step 3 -> 6, leaf 3 -> 6,
 * odd 1 -> 3 (i = 1; i = 1, 3, 5), big 0 -> 1 (new); the edges the
 * same, run -> big new. */
#include <stdlib.h>

static volatile int sink;

static void __attribute__((noinline, noclone)) leaf(int i)
{
	sink += i;
}

static void __attribute__((noinline, noclone)) odd(int i)
{
	sink -= i;
}

static void __attribute__((noinline, noclone)) big(int n)
{
	sink *= n;
}

static void __attribute__((noinline, noclone)) step(int i)
{
	leaf(i);
	if (i & 1)
		odd(i);
	sink++;
}

void __attribute__((noinline, noclone)) run(int n)
{
	int i;

	for (i = 0; i < n; i++)
		step(i);
	if (n > 4)
		big(n);
	sink++;
}

int main(int argc, char **argv)
{
	run(argc > 1 ? atoi(argv[1]) : 3);
	return 0;
}
