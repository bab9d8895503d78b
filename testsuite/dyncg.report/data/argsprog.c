// SPDX-License-Identifier: GPL-2.0
/*
 * argsprog - functions that take and return each kind of value, for
 * args.exp (issue #17): integers of each width and sign, pointers and
 * strings, an enum, a bool, a struct passed in memory, a small struct
 * and a double that take no integer register of their own, a void
 * return.  Each prints what it got, as dcg-report should show it; main
 * prints what each returned.  Built with -g; the test places it at a
 * made-up address and writes the registers the SysV ABI would hold.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

enum color { RED, GREEN = 5, BLUE = -3 };

struct big { long a, b, c; };		/* 24 bytes: passed in memory */
struct pair { int x, y; };		/* 8 bytes: one register */
struct dd { double x, y; };		/* 16 bytes, in xmm registers */
union num { int i; float f; };		/* 4 bytes: one register */
typedef unsigned short port_t;
struct flags { long id; unsigned ready : 1, mode : 3; };	/* 2 registers */

#define NOINLINE __attribute__((noinline, noclone))

NOINLINE long f_signed(signed char a, short b, int c, long d)
{
	printf("f_signed(a=%d, b=%d, c=%d, d=%ld)\n", a, b, c, d);
	return a + b + c + d;
}

NOINLINE unsigned long f_unsigned(unsigned char a, unsigned short b,
				  unsigned int c, unsigned long d)
{
	printf("f_unsigned(a=%u, b=%u, c=%u, d=%lu)\n", a, b, c, d);
	return d + a;
}

NOINLINE const char *f_ptr(void *p, const char *s, const char *t,
			   const char *u, void *n)
{
	printf("f_ptr(p=%p, s=\"%s\", t=\"%s\", u=%p, n=%p)\n", p, s, t,
	       (void *)u, n);
	return s;
}

NOINLINE bool f_enum(enum color c, bool b, enum color other)
{
	printf("f_enum(c=%s, b=%s, other=%d)\n", c == BLUE ? "BLUE" : "?",
	       b ? "true" : "false", other);
	return c == RED;
}

NOINLINE int f_struct(int before, struct big b, int after)
{
	printf("f_struct(before=%d, b={...}, after=%d)\n", before, after);
	return before + after + (int)(b.a - b.a);
}

NOINLINE int f_small(struct pair s, double d, int after)
{
	printf("f_small(s={...}, d=<fp>, after=%d)\n", after);
	return s.x - s.y - (int)d + after - after;
}

/* returned in memory: the caller's buffer is in rdi, n in rsi */
NOINLINE struct big f_retbig(int n, struct dd v, long m)
{
	struct big b = { n, m, (long)v.x };

	printf("f_retbig(n=%d, v={...}, m=%ld)\n", n, m);
	return b;
}

/* returned in xmm0 and xmm1: k is in rdi */
NOINLINE struct dd f_retdd(int k)
{
	struct dd d = { k, -k };

	printf("f_retdd(k=%d)\n", k);
	return d;
}

NOINLINE int f_char(char c, unsigned char u)
{
	printf("f_char(c='%c', u=%u)\n", c, u);
	return c + u;
}

NOINLINE int f_typedef(port_t p, const int k)
{
	printf("f_typedef(p=%u, k=%d)\n", p, k);
	return p + k;
}

NOINLINE int f_var(int n, ...)
{
	va_list ap;
	int i, sum = 0;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		sum += va_arg(ap, int);
	va_end(ap);
	printf("f_var(n=%d, ...)\n", n);
	return sum;
}

NOINLINE int f_union(union num x, int after)
{
	printf("f_union(x={...}, after=%d)\n", after);
	return x.i + after;
}

NOINLINE enum color f_color(int k)
{
	printf("f_color(k=%d)\n", k);
	return k ? GREEN : RED;
}

NOINLINE int f_bits(struct flags f, int after)
{
	printf("f_bits(f={...}, after=%d)\n", after);
	return (int)f.id + f.mode + after;
}

NOINLINE void f_void(int x)
{
	printf("f_void(x=%d)\n", x);
}

int main(void)
{
	static char buf[] = "0123456789abcdef0123456789abcdef";
	struct big b = { 1, 2, 3 };
	struct pair p = { 3, 5 };
	struct dd v = { 1.5, 2.5 };
	struct big r;
	struct dd e;
	union num u = { .i = 77 };
	struct flags fl = { 100, 1, 5 };

	printf("f_signed = %ld\n", f_signed(-5, -300, -70000, -5000000000L));
	printf("f_unsigned = %lu\n",
	       f_unsigned(250, 65000, 4000000000u, 18000000000000000000ul));
	f_ptr(buf, "hi\tthere", buf, NULL, NULL);
	printf("f_enum = %s\n", f_enum(BLUE, true, 7) ? "true" : "false");
	printf("f_struct = %d\n", f_struct(1, b, 2));
	printf("f_small = %d\n", f_small(p, 0.5, 9));
	r = f_retbig(4, v, -1);
	e = f_retdd(7);
	printf("f_retbig = {...}\n");
	printf("f_retdd = {...}\n");
	printf("f_char = %d\n", f_char('A', 200));
	printf("f_typedef = %d\n", f_typedef(8080, -1));
	printf("f_var = %d\n", f_var(2, 10, 20));
	printf("f_union = %d\n", f_union(u, 5));
	printf("f_color = %s\n", f_color(1) == GREEN ? "GREEN" : "?");
	printf("f_bits = %d\n", f_bits(fl, 6));
	f_void(42);
	return (int)(r.a + e.x) - 11;	/* 0 */
}
