// SPDX-License-Identifier: GPL-2.0
/*
 * args.c - a fixture for argument and return value capture (issue #17,
 * testsuite/dyncg.user/args.exp).  Every function prints what it got,
 * and run() prints what each call returned, so the test compares the
 * trace with the program's own view:
 *   got FUNC ADDR W:HEX ...   the callee at ADDR got these arguments,
 *                             in register order, W bits wide each
 *                             (s: a string, printed as hex bytes)
 *   ret FUNC ADDR W:HEX       the call returned this (W 0: void)
 *   mem FUNC                  an argument passed in memory, no register
 *   hidden                    the address of a struct returned in
 *                             memory: in rdi at the call, in rax after
 * Optimized, so that tail() ends in a jump to s32().
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum colour { RED = 1, GREEN = 7, BLUE = 300 };

struct big {			/* more than 16 bytes: passed in memory */
	long a, b, c;
};

/* noipa: no constant or return value crosses a call at -O2 either */
#define NI __attribute__((noipa))
#define U(x) ((unsigned long long)(x))

static void hex(const char *s)
{
	printf(" s:");
	for (; *s; s++)
		printf("%02x", (unsigned char)*s);
}

NI int8_t s8(int8_t a) { printf("got s8 %p 8:%llx\n", (void *)s8, U((uint8_t)a)); return a - 1; }
NI uint8_t u8(uint8_t a) { printf("got u8 %p 8:%llx\n", (void *)u8, U(a)); return a + 1; }
NI int16_t s16(int16_t a) { printf("got s16 %p 16:%llx\n", (void *)s16, U((uint16_t)a)); return a * 2; }
NI uint16_t u16(uint16_t a) { printf("got u16 %p 16:%llx\n", (void *)u16, U(a)); return a / 2; }
NI int32_t s32(int32_t a) { printf("got s32 %p 32:%llx\n", (void *)s32, U((uint32_t)a)); return -a; }
NI uint32_t u32(uint32_t a) { printf("got u32 %p 32:%llx\n", (void *)u32, U(a)); return ~a; }
NI int64_t s64(int64_t a) { printf("got s64 %p 64:%llx\n", (void *)s64, U(a)); return a - 3; }
NI uint64_t u64(uint64_t a) { printf("got u64 %p 64:%llx\n", (void *)u64, U(a)); return a ^ 0xff; }
NI bool flag(bool a) { printf("got flag %p 8:%llx\n", (void *)flag, U(a)); return !a; }
NI enum colour colour(enum colour c) { printf("got colour %p 32:%llx\n", (void *)colour, U(c)); return c == RED ? BLUE : GREEN; }

NI const char *str(const char *s, size_t n)
{
	printf("got str %p", (void *)str);
	hex(s);
	printf(" 64:%llx\n", U(n));
	return s + n;
}

NI void *ptr(void *p, long off)
{
	printf("got ptr %p 64:%llx 64:%llx\n", (void *)ptr, U(p), U(off));
	return (char *)p + off;
}

NI long six(long a, int b, short c, char d, unsigned long e, long f)
{
	printf("got six %p 64:%llx 32:%llx 16:%llx 8:%llx 64:%llx 64:%llx\n",
	       (void *)six, U(a), U((uint32_t)b), U((uint16_t)c),
	       U((uint8_t)d), U(e), U(f));
	return a + b + c + d + e + f;
}

/* The struct takes no register: x is in rdi. */
NI int bigarg(struct big b, int x)
{
	printf("mem bigarg\n");
	printf("got bigarg %p 32:%llx\n", (void *)bigarg, U((uint32_t)x));
	return (int)(b.a + b.b + b.c) + x;
}

/*
 * A struct returned in memory: rdi holds where (the caller's choice,
 * which C does not show: "hidden"), v comes in rsi, and rax returns
 * the address that came in rdi.
 */
NI struct big bigret(long v)
{
	struct big b = { v, v + 1, v + 2 };

	printf("got bigret %p hidden 64:%llx\n", (void *)bigret, U(v));
	return b;
}

NI void nothing(int a)
{
	printf("got nothing %p 32:%llx\n", (void *)nothing, U((uint32_t)a));
}

/* Ends in a jump to s32(): a tail call, which gets s32's arguments. */
NI int32_t tail(int32_t a)
{
	printf("got tail %p 32:%llx\n", (void *)tail, U((uint32_t)a));
	return s32(a + 1000);
}

static volatile int sink;

#define RET(f, w, v) printf("ret %s %p %d:%llx\n", #f, (void *)f, w, \
			    U(v) & (w == 64 ? ~0ull : (1ull << w) - 1))

NI int run(int n, const char *tag)
{
	static char buf[] = "hello, world";
	struct big b = { 1, 2, 3 }, r;
	char *p;

	printf("got run %p 32:%llx", (void *)run, U((uint32_t)n));
	hex(tag);
	printf("\n");
	RET(s8, 8, s8(-5));
	RET(u8, 8, u8(250));
	RET(s16, 16, s16(-1234));
	RET(u16, 16, u16(60000));
	RET(s32, 32, s32(-100000));
	RET(u32, 32, u32(4000000000u));
	RET(s64, 64, s64(-5000000000ll));
	RET(u64, 64, u64(0xfedcba9876543210ull));
	RET(flag, 8, flag(n > 100));
	RET(colour, 32, colour(RED));
	RET(str, 64, str(buf, 7));
	p = ptr(buf, 3);
	RET(ptr, 64, p);
	RET(six, 64, six(-1, -2, -3, 'd', 5, 0x123456789abcll));
	RET(bigarg, 32, bigarg(b, 42));
	r = bigret(77);
	sink = r.c;
	printf("ret bigret %p hidden\n", (void *)bigret);
	nothing(9);
	printf("ret nothing %p 0:0\n", (void *)nothing);
	RET(tail, 32, tail(5));
	return n + 1;
}

int main(int argc, char **argv)
{
	int r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	r = run(argc, argc > 1 ? argv[1] : "none");
	printf("ret run %p 32:%llx\n", (void *)run, U((uint32_t)r));
	return 0;
}
