// SPDX-License-Identifier: GPL-2.0
/*
 * test-hop.c - hop mode's planner (runtime/hop.c) on hand-built code:
 * which insns a host must arm at a stop, and the insn counts after.
 *
 * Assembled once with GNU as; the listing is `objdump -d` of it, linked
 * at 0x401000 (the offsets below are from 0x401000).  The expected
 * sets were worked out by hand from the listing.
 *
 * 00 f:  31 c0             xor %eax,%eax
 * 02     85 ff             test %edi,%edi         (loop head)
 * 04     74 05             je 0b
 * 06     83 c0 01          add $1,%eax
 * 09     eb 03             jmp 0e
 * 0b     83 e8 01          sub $1,%eax
 * 0e     ff cf             dec %edi
 * 10     75 f0             jne 02
 * 12     e8 09 00 00 00    call 20 <g>
 * 17     c3                ret
 * 20 g:  85 ff             test %edi,%edi
 * 22     0f 85 fa 00 00 00 jne 122                (leaves g)
 * 28     f3 a4             rep movsb
 * 2a     c3                ret
 * 30 h:  90                nop
 * 31     83 ff 01          cmp $1,%edi
 * 34     74 fa             je 30 <h>              (to the entry)
 * 36     ff e0             jmp *%rax
 * 40 k:  90                nop
 * 41     90                nop
 * 42     72 02             jb 46
 * 44     eb da             jmp 20 <g>             (tail call)
 * 46     0f 0b             ud2
 * 48     0f ff ff          ud0 %edi,%edi
 * 4b..4f nopl (in k's bounds; the code ends at 0x90, unreadable after)
 * 50..5f zeros (not code: nothing reaches them)
 * 60 m:  85 ff             test %edi,%edi
 * 62     74 05             je 69
 * 64     e8 f7 ff ff ff    call 60 <m>
 * 69     83 ff 01          cmp $1,%edi
 * 6c     74 0b             je 79
 * 6e     83 ff 02          cmp $2,%edi
 * 71     74 0b             je 7e
 * 73     83 ff 03          cmp $3,%edi
 * 76     74 0b             je 83
 * 78     c3                ret
 * 79     e8 e2 ff ff ff    call 60 <m>
 * 7e     e8 dd ff ff ff    call 60 <m>
 * 83     e8 d8 ff ff ff    call 60 <m>
 * 88     c3                ret
 * Function bounds: f [00,18) g [20,2b) h [30,38) k [40,50) m [60,89).
 */
#include <stdio.h>
#include <string.h>
#include "dcg_hop.h"

#define B	0x401000ULL
static const unsigned char code[0x90] = {
	0x31, 0xc0, 0x85, 0xff, 0x74, 0x05, 0x83, 0xc0, 0x01, 0xeb, 0x03, 0x83, 0xe8, 0x01, 0xff, 0xcf,
	0x75, 0xf0, 0xe8, 0x09, 0x00, 0x00, 0x00, 0xc3, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x85, 0xff, 0x0f, 0x85, 0xfa, 0x00, 0x00, 0x00, 0xf3, 0xa4, 0xc3, 0x0f, 0x1f, 0x44, 0x00, 0x00,
	0x90, 0x83, 0xff, 0x01, 0x74, 0xfa, 0xff, 0xe0, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x90, 0x90, 0x72, 0x02, 0xeb, 0xda, 0x0f, 0x0b, 0x0f, 0xff, 0xff, 0x0f, 0x1f, 0x44, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x85, 0xff, 0x74, 0x05, 0xe8, 0xf7, 0xff, 0xff, 0xff, 0x83, 0xff, 0x01, 0x74, 0x0b, 0x83, 0xff,
	0x02, 0x74, 0x0b, 0x83, 0xff, 0x03, 0x74, 0x0b, 0xc3, 0xe8, 0xe2, 0xff, 0xff, 0xff, 0xe8, 0xdd,
	0xff, 0xff, 0xff, 0xe8, 0xd8, 0xff, 0xff, 0xff, 0xc3, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static int no_bounds;
static int failures;

static int rd(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	if (addr < B || addr >= B + sizeof(code))
		return 0;
	if (addr + len > B + sizeof(code))
		len = B + sizeof(code) - addr;
	memcpy(buf, code + (addr - B), len);
	return len;
}

static int bounds(void *ctx, dcg_u64 addr, dcg_u64 *s, dcg_u64 *e)
{
	static const dcg_u64 f[][2] = {
		{ 0x00, 0x18 }, { 0x20, 0x2b }, { 0x30, 0x38 }, { 0x40, 0x50 },
		{ 0x60, 0x89 },
	};
	unsigned int i;

	if (no_bounds)
		return -1;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (addr >= B + f[i][0] && addr < B + f[i][1]) {
			*s = B + f[i][0];
			*e = B + f[i][1];
			return 0;
		}
	}
	return -1;
}

static struct dcg_rec_event last;
static int nev;

static void emit(void *ctx, const struct dcg_rec_event *ev)
{
	last = *ev;
	nev++;
}

static const struct dcg_host_ops ops = {
	.read = rd, .func_bounds = bounds, .emit = emit,
};

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
	if (!ok)
		failures++;
}

/* Plan at B+@ip with @nregs; expect @kind and the offsets in @want. */
static unsigned int plan_flags;

static void plan(const char *what, unsigned int ip, unsigned int nregs,
		 int kind, int n, const unsigned int *want)
{
	struct dcg_hop_plan p;
	int i, j, ok;

	memset(&p, 0xaa, sizeof(p));
	dcg_hop_plan(B + ip, nregs, plan_flags, &ops, &p);
	ok = p.kind == kind && p.n == n;
	for (i = 0; ok && i < n; i++) {
		for (j = 0; j < p.n; j++)
			if (p.addr[j] == B + want[i])
				break;
		ok = j < p.n;
	}
	if (!ok) {
		printf("INFO: %s: kind %d n %d:", what, p.kind, p.n);
		for (j = 0; j < p.n && j < DCG_HOP_MAX; j++)
			printf(" %#llx", (unsigned long long)p.addr[j]);
		printf("\n");
	}
	check(ok, what);
}

static void count(const char *what, unsigned int from, unsigned int to,
		  unsigned int want, int want_exact)
{
	int exact = -1;
	unsigned int n = dcg_hop_count(B + from, B + to, &ops, &exact);

	if (n != want || exact != want_exact)
		printf("INFO: %s: %u exact %d\n", what, n, exact);
	check(n == want && exact == want_exact, what);
}

/* f runs its loop natively, calls g: one CALL, counted. */
static void engine(void)
{
	struct dcg_frame frames[8];
	struct dcg_thread t;
	dcg_u64 sp = 0x7ffe0000;

	dcg_thread_init(&t, DCG_MODE_STEP, frames, 8);
	dcg_thread_begin(&t, B, sp, 0x400100, 1, &ops);
	nev = 0;
	/* straight from f+2 to the call: 8 insns exactly... */
	dcg_thread_hop(&t, B + 0x02, sp, &ops);
	check(t.insns == 1, "engine: hop on the straight line counts exactly");
	/* ...then through the loop: the lead (test, je) only */
	check(dcg_thread_hop(&t, B + 0x12, sp, &ops) == 0,
	      "engine: hop through a jump is marked inexact");
	check(t.insns == 3 && nev == 0, "engine: no event, lead counted");
	dcg_thread_stop(&t, B + 0x20, sp - 8, 2, &ops);
	check(nev == 1 && last.kind == DCG_EV_CALL && last.from == B + 0x12 &&
	      last.to == B + 0x20 && last.depth == 2 && last.insns == 4,
	      "engine: stepped call after a hop is a CALL");
}

/*
 * dcg_near_branch(): each expected value is worked out from the
 * encoding by hand (Intel SDM vol. 2: E8/E9 rel32 from the next insn,
 * FF /2 and /4 with ModRM/SIB, C2 iw), not from the code under test.
 */
#define NB_SP	0x7ffe0100ULL

/* Data memory: a return address at NB_SP, and three pointers. */
static int nb_mem(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	static const struct { dcg_u64 at, v; } m[] = {
		{ NB_SP, 0x401234 },		/* ret's target */
		{ 0x1006 + 0x100, 0x7f0000002000ULL },	/* GOT slot */
		{ 0x600000 + 8, 0x403000 },	/* vtable slot */
		{ 3 * 8 + 0x500000, 0x404000 },	/* jump table entry */
		{ 0x700000, 0xffff800000000000ULL },	/* kernel address */
	};
	unsigned int i;

	(void)ctx;
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i].at == addr && len == 8) {
			__builtin_memcpy(buf, &m[i].v, 8);
			return 8;
		}
	return 0;
}

static void nb(const char *what, const unsigned char *b, unsigned int n,
	       int ok, dcg_u64 ip, dcg_u64 sp, int pushed, dcg_u64 push)
{
	dcg_u64 gpr[16] = { 0 };
	struct dcg_near_branch out;
	char msg[160];
	int r;

	gpr[0] = 0x600000;		/* rax */
	gpr[2] = 3;			/* rdx */
	gpr[11] = 0x405000;		/* r11 */
	r = dcg_near_branch(b, n, 0x1000, NB_SP, gpr, nb_mem, NULL, &out);
	snprintf(msg, sizeof(msg), "near branch: %s", what);
	if (!ok) {
		check(r == 0, msg);
		return;
	}
	check(r == 1 && out.ip == ip && out.sp == sp &&
	      out.pushed == pushed && (!pushed || out.push == push), msg);
}

static void near_branches(void)
{
	static const unsigned char call[] = { 0xe8, 0x10, 0x00, 0x00, 0x00 };
	static const unsigned char jmp8[] = { 0xeb, 0xfe };
	static const unsigned char jmp32[] = { 0xe9, 0x00, 0xf0, 0xff, 0xff };
	static const unsigned char ret[] = { 0xc3 };
	static const unsigned char bnd_ret[] = { 0xf2, 0xc3 };
	static const unsigned char ret16[] = { 0xc2, 0x10, 0x00 };
	static const unsigned char call_rax[] = { 0xff, 0xd0 };
	static const unsigned char jmp_r11[] = { 0x41, 0xff, 0xe3 };
	static const unsigned char jmp_got[] = { 0xff, 0x25, 0x00, 0x01, 0x00, 0x00 };
	static const unsigned char call_vt[] = { 0xff, 0x50, 0x08 };
	static const unsigned char jmp_tab[] = { 0xff, 0x24, 0xd5, 0x00, 0x00, 0x50, 0x00 };
	static const unsigned char notrack[] = { 0x3e, 0xff, 0xe0 };
	static const unsigned char o16[] = { 0x66, 0xe8, 0x10, 0x00 };
	static const unsigned char fs_call[] = { 0x64, 0xff, 0x10 };
	static const unsigned char syscall[] = { 0x0f, 0x05 };
	static const unsigned char jcc[] = { 0x74, 0x02 };
	static const unsigned char call_bad[] = { 0xff, 0x10 };	/* *(%rax): 0x600000 unmapped */
	static const unsigned char to_kernel[] = { 0xff, 0x24, 0x25, 0x00, 0x00, 0x70, 0x00 };

	nb("call rel32", call, sizeof(call), 1, 0x1015, NB_SP - 8, 1, 0x1005);
	nb("jmp rel8 to itself", jmp8, sizeof(jmp8), 1, 0x1000, NB_SP, 0, 0);
	nb("jmp rel32 back", jmp32, sizeof(jmp32), 1, 0x5, NB_SP, 0, 0);
	nb("ret", ret, sizeof(ret), 1, 0x401234, NB_SP + 8, 0, 0);
	nb("bnd ret", bnd_ret, sizeof(bnd_ret), 1, 0x401234, NB_SP + 8, 0, 0);
	nb("ret imm16", ret16, sizeof(ret16), 1, 0x401234, NB_SP + 8 + 16, 0, 0);
	nb("call *%rax", call_rax, sizeof(call_rax), 1, 0x600000, NB_SP - 8, 1,
	   0x1002);
	nb("jmp *%r11 (REX.B)", jmp_r11, sizeof(jmp_r11), 1, 0x405000, NB_SP, 0,
	   0);
	nb("jmp *0x100(%rip) (a PLT)", jmp_got, sizeof(jmp_got), 1,
	   0x7f0000002000ULL, NB_SP, 0, 0);
	nb("call *0x8(%rax)", call_vt, sizeof(call_vt), 1, 0x403000, NB_SP - 8,
	   1, 0x1003);
	nb("jmp *0x500000(,%rdx,8)", jmp_tab, sizeof(jmp_tab), 1, 0x404000,
	   NB_SP, 0, 0);
	nb("notrack jmp *%rax", notrack, sizeof(notrack), 1, 0x600000, NB_SP, 0,
	   0);
	nb("operand-size call: stepped", o16, sizeof(o16), 0, 0, 0, 0, 0);
	nb("fs: call: stepped", fs_call, sizeof(fs_call), 0, 0, 0, 0, 0);
	nb("syscall: stepped", syscall, sizeof(syscall), 0, 0, 0, 0, 0);
	nb("jcc: stepped", jcc, sizeof(jcc), 0, 0, 0, 0, 0);
	nb("unreadable pointer: stepped", call_bad, sizeof(call_bad), 0, 0, 0,
	   0, 0);
	nb("kernel target: stepped", to_kernel, sizeof(to_kernel), 0, 0, 0, 0,
	   0);
	nb("cut short: stepped", call, 3, 0, 0, 0, 0, 0);
}

int main(void)
{
	static const unsigned int f_set[] = { 0x12 };
	static const unsigned int g_set[] = { 0x22 };
	static const unsigned int g_ret[] = { 0x2a };
	static const unsigned int k_next[] = { 0x42 };
	static const unsigned int end_set[] = { 0x50 };
	/*
	 * by hand: the call at 64; past je 79 and je 7e (targets not
	 * walked: 79, 7e) the walk stands at 73 with 4 addresses; je 83
	 * and the ret make 5
	 */
	static const unsigned int m_front[] = { 0x64, 0x79, 0x7e, 0x73 };
	static const unsigned int m_next[] = { 0x62 };
	/* by hand, two registers: the call at 64 and the target 69 */
	static const unsigned int m_front2[] = { 0x69, 0x64 };
	static const unsigned int h_set[] = { 0x34 };
	static const unsigned int k_set[] = { 0x44, 0x46 };
	static const unsigned int f_next[] = { 0x04 };

	plan("loop with jcc/jmp inside f: the call only", 0x00, 4,
	     DCG_HOP_SET, 1, f_set);
	plan("from the loop head", 0x0e, 4, DCG_HOP_SET, 1, f_set);
	plan("no debug register: step", 0x00, 0, DCG_HOP_STEP, 0, NULL);
	plan("stop on the call itself: step", 0x12, 4, DCG_HOP_STEP, 0, NULL);
	plan("stop on the ret: step", 0x17, 4, DCG_HOP_STEP, 0, NULL);
	/* the rep movsb is reached only past the armed jcc */
	plan("jcc out of the function", 0x20, 4, DCG_HOP_SET, 1, g_set);
	plan("jcc to the entry is a transfer", 0x30, 4, DCG_HOP_SET, 1, h_set);
	plan("jmp to another function, ud2", 0x40, 4, DCG_HOP_SET, 2, k_set);
	plan("set too big for one register: next transfer", 0x40, 1,
	     DCG_HOP_NEXT, 1, k_next);
	plan("leaving the function by falling through is armed", 0x4b, 4,
	     DCG_HOP_SET, 1, end_set);
	plan("set too big: the frontier (a call, jump targets not walked, "
	     "the walk's position)", 0x60, 4, DCG_HOP_SET, 4, m_front);
	plan("set too big even for the frontier: next transfer", 0x60, 1,
	     DCG_HOP_NEXT, 1, m_next);
	plan("a frontier in two registers", 0x60, 2, DCG_HOP_SET, 2, m_front2);
	/* rep movsb runs natively (counted once): armed is the ret after it */
	plan("rep movsb at the stop runs natively", 0x28, 4, DCG_HOP_SET, 1,
	     g_ret);
	no_bounds = 1;
	plan("no function bounds: next transfer", 0x00, 4,
	     DCG_HOP_NEXT, 1, f_next);
	no_bounds = 0;
	plan_flags = DCG_HOP_STRAIGHT;
	plan("straight only: next transfer", 0x00, 4, DCG_HOP_NEXT, 1, f_next);
	plan_flags = 0;
	count("count: straight line", 0x00, 0x04, 2, 1);
	count("count: same place", 0x12, 0x12, 0, 1);
	count("count: through a jcc (lead and branch)", 0x00, 0x0b, 3, 0);
	count("count: unreadable code (three add %al,(%rax))", 0x8a, 0x99, 3, 0);
	engine();
	near_branches();
	return failures ? 1 : 0;
}
