// SPDX-License-Identifier: GPL-2.0
/*
 * libsyms.c - hands libc and ld.so function addresses to probed
 * functions, for libsyms.exp.
 *
 * call_libc() gets qsort's run-time address (a PIE loads it from the GOT,
 * so it is the address inside libc, not a PLT stub) and calls it;
 * note_ldso() gets __tls_get_addr's (exported by ld.so).  The program
 * prints each address with the load base of its object and the path the
 * kernel maps it from (/proc/self/maps), so that the test can name the
 * function from the host's own files (nm -D) and check the guest's layout,
 * and it counts the comparator calls that qsort makes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*sorter)(void *, size_t, size_t,
		       int (*)(const void *, const void *));

extern void *__tls_get_addr(void *);

static int ncmp;

__attribute__((noinline)) static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	ncmp++;
	return (x > y) - (x < y);
}

__attribute__((noinline)) void call_libc(sorter fn, int *v, size_t n)
{
	fn(v, n, sizeof(*v), cmp_int);
}

__attribute__((noinline)) void note_ldso(void *fn)
{
	__asm__ volatile("" : : "r"(fn) : "memory");
}

/* The traced window: one call into libc, with callbacks back out. */
__attribute__((noinline)) int work(int *v, size_t n)
{
	call_libc(qsort, v, n);
	return v[0];
}

/* "ADDR BASE PATH" of a function: dladdr's load base, the kernel's path. */
static void describe(const char *what, void *fn)
{
	unsigned long lo, hi, a = (unsigned long)fn;
	char line[512], path[400];
	Dl_info info;
	FILE *f;

	if (!dladdr(fn, &info)) {
		printf("libsyms: %s: dladdr failed\n", what);
		return;
	}
	path[0] = 0;
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %399s", &lo, &hi, path) == 3 &&
		    a >= lo && a < hi)
			break;
	if (f)
		fclose(f);
	printf("libsyms: %s addr=%#lx base=%#lx path=%s\n", what, a,
	       (unsigned long)info.dli_fbase, path);
}

int main(void)
{
	int v[] = { 5, 3, 9, 1, 7, 2, 8, 6, 4, 0 };
	size_t n = sizeof(v) / sizeof(v[0]);
	int min;

	describe("libc", (void *)qsort);
	describe("ldso", (void *)__tls_get_addr);
	note_ldso((void *)__tls_get_addr);
	min = work(v, n);
	printf("libsyms: min=%d cmp_calls=%d\n", min, ncmp);
	return 0;
}
