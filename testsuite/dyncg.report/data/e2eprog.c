/* e2eprog.c - traced for real by e2e.exp: sortit() calls qsort()
 * through the PLT, and libc calls cmp() back through a pointer.  The
 * program counts the calls of cmp() itself and prints the count, which
 * dcg-report's hot view must reproduce, and what sortit() returned,
 * which the trace view's return line must show. */
#include <stdio.h>
#include <stdlib.h>

static int ncmp;

static int cmp(const void *a, const void *b)
{
	ncmp++;
	return *(const int *)a - *(const int *)b;
}

int __attribute__((noinline)) sortit(int *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	return v[0];
}

int main(void)
{
	int v[] = { 5, 3, 9, 1, 7, 2, 8 };

	int first = sortit(v, 7);

	printf("cmp %d\nsortit %d\n", ncmp, first);
	return 0;
}
