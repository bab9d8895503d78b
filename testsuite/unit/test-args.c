// SPDX-License-Identifier: GPL-2.0
/*
 * test-args.c - runtime/args.c: which events take the stop's registers,
 * and the block dcg_ev_regs_append() builds, against a fake memory with
 * an unmapped hole (testsuite/dyncg.unit/args.exp).
 */
#include <stdio.h>
#include <string.h>
#include "dcg_core.h"

#define MEM_BASE	0x10000ull
#define MEM_SIZE	0x2000u		/* a second page that is not there */

static unsigned char mem[MEM_SIZE];
static unsigned long reads;
static int failed;

/* Memory [MEM_BASE, MEM_BASE + 0x1000) is mapped, the rest is not. */
static int fake_read(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	dcg_u64 end = MEM_BASE + 0x1000;
	unsigned int n;

	reads++;
	if (addr < MEM_BASE || addr >= end)
		return 0;
	n = end - addr < len ? end - addr : len;
	memcpy(buf, mem + (addr - MEM_BASE), n);
	return n;
}

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
	if (!ok)
		failed = 1;
}

union rec {
	struct dcg_rec_event e;
	dcg_u64 a[DCG_REC_MAX_SIZE / 8 + 8];
};

static void event(union rec *r, unsigned int kind, unsigned int flags,
		  dcg_u64 to)
{
	memset(r, 0xaa, sizeof(*r));	/* the block's bytes: not zero */
	dcg_rec_event_fill(&r->e, 0, kind, flags, 0, 0, to);
}

static const struct dcg_ev_args *block(const union rec *r)
{
	return (const struct dcg_ev_args *)(&r->e + 1);
}

static dcg_u64 reg(const union rec *r, unsigned int i)
{
	dcg_u64 v;

	memcpy(&v, (const char *)(block(r) + 1) + 8 * i, 8);
	return v;
}

static const struct dcg_ev_str *str0(const union rec *r)
{
	return (const void *)((const char *)(block(r) + 1) +
			      8 * block(r)->nregs);
}

static struct dcg_regs regs = {
	.ip = 0x401000,
	.arg = { MEM_BASE + 0x100, 42, MEM_BASE + 0xffc, 0x7, 0x8, 0x9 },
	.ret = { 0xfffffffffffffff2ull, 0x1234 },
};

static struct dcg_args_cfg cfg = {
	.nargs = 3, .nrets = 2, .str_mask = 0x3f, .str_len = 64,
	.str_min = MEM_BASE, .str_max = 1ull << 47,
};

static void test_kinds(void)
{
	union rec r;

	event(&r, DCG_EV_CALL, 0, regs.ip);
	check(dcg_ev_regs_kind(&r.e, regs.ip) == DCG_EV_REGS_ARGS,
	      "a CALL to the stop's ip takes the arguments");
	event(&r, DCG_EV_TAILCALL, DCG_EVF_INDIRECT, regs.ip);
	check(dcg_ev_regs_kind(&r.e, regs.ip) == DCG_EV_REGS_ARGS,
	      "a TAILCALL to the stop's ip takes the arguments");
	event(&r, DCG_EV_CALL, DCG_EVF_ROOT, regs.ip);
	check(dcg_ev_regs_kind(&r.e, regs.ip) == DCG_EV_REGS_ARGS,
	      "a ROOT CALL takes the arguments");
	event(&r, DCG_EV_CALL, 0, regs.ip - 0x40);
	check(dcg_ev_regs_kind(&r.e, regs.ip) == DCG_EV_REGS_NONE,
	      "a CALL rebuilt on resume (to is not the stop) takes none");
	event(&r, DCG_EV_RET, DCG_EVF_UNMATCHED, regs.ip);
	check(dcg_ev_regs_kind(&r.e, regs.ip) == DCG_EV_REGS_RET,
	      "a real RET takes the return registers");
	event(&r, DCG_EV_RET, DCG_EVF_SYNTHETIC, regs.ip);
	check(dcg_ev_regs_kind(&r.e, regs.ip) == DCG_EV_REGS_NONE,
	      "a SYNTHETIC RET takes none");
	event(&r, DCG_EV_RET, DCG_EVF_END, regs.ip);
	check(dcg_ev_regs_kind(&r.e, regs.ip) == DCG_EV_REGS_NONE,
	      "an END RET takes none");
	event(&r, DCG_EV_ASYNC, 0, regs.ip);
	check(dcg_ev_regs_kind(&r.e, regs.ip) == DCG_EV_REGS_NONE,
	      "an ASYNC takes none");
	event(&r, DCG_EV_ASYNC, 0, regs.ip);
	check(dcg_ev_regs_append(&r.e, sizeof(r), &cfg, &regs, fake_read,
				 NULL) == sizeof(r.e) &&
	      r.e.r.size == sizeof(r.e), "an ASYNC stays 56 bytes");
}

static void test_rets(void)
{
	union rec r;
	unsigned int n;

	event(&r, DCG_EV_RET, 0, regs.ip);
	reads = 0;
	n = dcg_ev_regs_append(&r.e, sizeof(r), &cfg, &regs, fake_read, NULL);
	check(n == 56 + 8 + 16 && r.e.r.size == n && block(&r)->nregs == 2 &&
	      block(&r)->nstr == 0 && reg(&r, 0) == regs.ret[0] &&
	      reg(&r, 1) == regs.ret[1] && !reads,
	      "RET: rax, rdx, 80 bytes, no string read");
}

static void test_strings(void)
{
	const struct dcg_ev_str *s;
	struct dcg_args_cfg c = cfg;
	union rec r;
	unsigned int n;

	memset(mem, 0, sizeof(mem));
	strcpy((char *)mem + 0x100, "hello");
	memcpy(mem + 0xffc, "abcd", 4);		/* runs into the hole */
	event(&r, DCG_EV_CALL, 0, regs.ip);
	n = dcg_ev_regs_append(&r.e, sizeof(r), &c, &regs, fake_read, NULL);
	s = str0(&r);
	check(block(&r)->nregs == 3 && reg(&r, 0) == regs.arg[0] &&
	      reg(&r, 1) == 42 && reg(&r, 2) == regs.arg[2],
	      "CALL: rdi rsi rdx in order");
	check(block(&r)->nstr == 2, "two strings: 42 is no pointer");
	check(s->argno == 0 && s->len == 5 && !s->flags &&
	      !memcmp(s + 1, "hello", 5) && !((char *)(s + 1))[5],
	      "the string without its NUL, padded with zeros");
	s = (const void *)((const char *)(s + 1) + 8);
	check(s->argno == 2 && s->len == 4 && s->flags == DCG_STR_FAULT &&
	      !memcmp(s + 1, "abcd", 4),
	      "a string that runs into unmapped memory: its bytes, FAULT");
	check(n == r.e.r.size && n % 8 == 0 &&
	      n == 56 + 8 + 24 + 16 + 16, "size covers the block, a multiple of 8");

	memset(mem + 0x100, 'x', 100);
	c.str_len = 10;
	c.str_mask = 1;
	event(&r, DCG_EV_CALL, 0, regs.ip);
	n = dcg_ev_regs_append(&r.e, sizeof(r), &c, &regs, fake_read, NULL);
	s = str0(&r);
	check(block(&r)->nstr == 1 && s->len == 10 &&
	      s->flags == DCG_STR_TRUNC && n == 56 + 8 + 24 + 8 + 16,
	      "a string longer than the limit: TRUNC, only the arguments named");

	c.str_len = 64;
	c.str_mask = 0x3f;
	regs.arg[0] = MEM_BASE + 0x1800;	/* in the hole */
	event(&r, DCG_EV_CALL, 0, regs.ip);
	dcg_ev_regs_append(&r.e, sizeof(r), &c, &regs, fake_read, NULL);
	s = str0(&r);
	check(s->argno == 0 && s->len == 0 && s->flags == DCG_STR_FAULT,
	      "a pointer to nothing: length 0, FAULT");
	regs.arg[0] = MEM_BASE + 0x100;
}

/* A record never outgrows @cap nor DCG_REC_MAX_SIZE. */
static void test_bounds(void)
{
	struct dcg_args_cfg c = cfg;
	struct dcg_regs big = regs;
	union rec r;
	unsigned int n, i, cap;
	int ok = 1;

	memset(mem, 'y', 0x1000);
	for (i = 0; i < DCG_ARGS_MAX; i++)
		big.arg[i] = MEM_BASE;
	c.nargs = DCG_ARGS_MAX;
	c.str_len = 0xffff;
	for (cap = 56; cap <= sizeof(r); cap += 4) {
		event(&r, DCG_EV_CALL, 0, big.ip);
		n = dcg_ev_regs_append(&r.e, cap, &c, &big, fake_read, NULL);
		if (n > cap || n > DCG_REC_MAX_SIZE || n % 8 || n != r.e.r.size)
			ok = 0;
		/* bytes past the record are untouched */
		if (n < sizeof(r) && ((unsigned char *)&r)[n] != 0xaa)
			ok = 0;
	}
	check(ok, "records fit the room given and DCG_REC_MAX_SIZE, any room");
	event(&r, DCG_EV_CALL, 0, big.ip);
	n = dcg_ev_regs_append(&r.e, sizeof(r), &c, &big, fake_read, NULL);
	check(n == DCG_REC_MAX_SIZE, "six long strings fill the record exactly");
	c.nargs = 0;
	event(&r, DCG_EV_CALL, 0, big.ip);
	check(dcg_ev_regs_append(&r.e, sizeof(r), &c, &big, fake_read, NULL) ==
	      56, "--args 0: no block");
}

int main(void)
{
	test_kinds();
	test_rets();
	test_strings();
	test_bounds();
	return failed;
}
