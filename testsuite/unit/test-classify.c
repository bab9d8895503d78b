// SPDX-License-Identifier: GPL-2.0
/*
 * test-classify.c - the classifier, shadow stack and engine on
 * hand-built code, in step mode and in block mode.
 *
 * The code below was assembled once with GNU as from the listing in the
 * comment; the addresses come from `objdump -d` of that object.  Each
 * scenario is the sequence of stops a CPU would produce running it
 * (every insn in step mode; the ones marked taken in block mode), and
 * the events it must give, worked out by hand from the listing.
 *
 * 401000 f1:  55              push %rbp
 * 401001      e8 0a 00 00 00  call 401010 <g1>
 * 401006      5d              pop %rbp
 * 401007      c3              ret
 * 401010 g1:  90              nop
 * 401011      c3              ret
 * 401020 f2:  e8 00 00 00 00  call 401025          (get-pc)
 * 401025      58              pop %rax
 * 401026      c3              ret
 * 401030 f3:  53              push %rbx
 * 401031      48 8d 05 03..   lea 40103b(%rip),%rax
 * 401038      50              push %rax
 * 401039      c3              ret                  (push+ret: a jump)
 * 40103b      5b              pop %rbx
 * 40103c      c3              ret
 * 401040 f4:  48 8d 05 09..   lea 401050(%rip),%rax
 * 401047      50              push %rax
 * 401048      c3              ret                  (push+ret at frame sp)
 * 401050 h4:  c3              ret
 * 401060 f5:  6a 01           push $1
 * 401062      6a 02           push $2
 * 401064      e8 07 00 00 00  call 401070 <g5>
 * 401069      c3              ret
 * 401070 g5:  c2 10 00        ret $16
 * 401080 f6:  e8 03 00 00 00  call 401088 <g6>
 * 401085      c3              ret
 * 401088 g6:  f2 c3           bnd ret
 * 401090 f7:  48 8d 05 04..   lea 40109b(%rip),%rax
 * 401097      3e ff e0        notrack jmp *%rax
 * 40109b      c3              ret
 * 4010a0 f8:  48 8d 05 03..   lea 4010aa(%rip),%rax
 * 4010a7      ff e0           jmp *%rax
 * 4010aa      c3              ret
 * 4010b0 hlow: c3             ret
 * 4010b8 hlow2: 5b            pop %rbx
 * 4010b9      c3              ret
 * 4010c0 f9:  55              push %rbp
 * 4010c1      e8 4a ff ff ff  call 401010 <g1>
 * 4010c6      5d              pop %rbp
 * 4010c7      eb e7           jmp 4010b0 <hlow>    (tail call)
 * 4010d0 f10: 55              push %rbp
 * 4010d1      48 89 e5        mov %rsp,%rbp
 * 4010d4      48 8d 05 d5..   lea 4010b0(%rip),%rax
 * 4010db      5d              pop %rbp
 * 4010dc      ff e0           jmp *%rax            (tail call)
 * 4010e0 f12: 53              push %rbx
 * 4010e1      eb d5           jmp 4010b8 <hlow2>   (frame still up)
 * 4010e8 f13: 85 ff           test %edi,%edi
 * 4010ea      75 c4           jne 4010b0 <hlow>    (conditional tail call)
 * 4010ec      c3              ret
 * 401100 ljf: 55              push %rbp
 * 401101      e8 0a 00 00 00  call 401110 <lja>
 * 401106      90              nop
 * 401107      5d              pop %rbp             (longjmp lands here)
 * 401108      c3              ret
 * 401110 lja: e8 03 00 00 00  call 401118 <ljb>
 * 401115      c3              ret
 * 401118 ljb: e8 03 00 00 00  call 401120 <ljc>
 * 40111d      c3              ret
 * 401120 ljc: 48 89 f4        mov %rsi,%rsp
 * 401123      ff e2           jmp *%rdx
 * 401140 sgf: 55              push %rbp
 * 401141      ff d0           call *%rax
 * 401143      5d              pop %rbp
 * 401144      c3              ret
 * 401148 sgh: e8 c3 fe ff ff  call 401010 <g1>     (signal handler)
 * 40114d      c3              ret
 * 401150 sgrr: b8 0f 00 00 00 mov $0xf,%eax        (restorer)
 * 401155      0f 05           syscall
 * 401158 sgh2: b8 0f 00 00 00 mov $0xf,%eax        (handler calling sigreturn)
 * 40115d      0f 05           syscall
 * 401180 rc:  85 ff           test %edi,%edi
 * 401182      74 07           je 40118b
 * 401184      ff cf           dec %edi
 * 401186      e8 f5 ff ff ff  call 401180 <rc>
 * 40118b      c3              ret
 * 401190 rep1: f3 a4          rep movsb
 * 401192      c3              ret
 * 401198 rtf: e8 03 00 00 00  call 4011a0 <thk>
 * 40119d      c3              ret
 * 4011a0 thk: e8 07 00 00 00  call 4011ac          (retpoline)
 * 4011a5      f3 90           pause
 * 4011a7      0f ae e8        lfence
 * 4011aa      eb f9           jmp 4011a5
 * 4011ac      48 89 04 24     mov %rax,(%rsp)
 * 4011b0      c3              ret
 * 4011c0 bad: 06              (bad)
 * 4011d0 rs:  85 ff           test %edi,%edi
 * 4011d2      74 08           je 4011dc
 * 4011d4      ff cf           dec %edi
 * 4011d6      e8 f5 ff ff ff  call 4011d0 <rs>
 * 4011db      c3              ret
 * 4011dc      48 83 c4 08     add $8,%rsp          (drop the return address)
 * 4011e0      c3              ret                  (returns for the caller)
 * 4011e8 bk:  ff c9           dec %ecx
 * 4011ea      74 09           je 4011f5
 * 4011ec      48 8d 05 f5..   lea 4011e8(%rip),%rax
 * 4011f3      ff e0           jmp *%rax            (loop through a register)
 * 4011f5      c3              ret
 * 4011fe tail: e8 00          call, cut short by the end of the region
 * Everything else is int3 (cc).
 */
#include <stdio.h>
#include <string.h>
#include "dcg_core.h"

#define CODE_BASE	0x401000ULL
static const unsigned char code[512] = {
	/* 0x401000 */ 0x55, 0xe8, 0x0a, 0x00, 0x00, 0x00, 0x5d, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401010 */ 0x90, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401020 */ 0xe8, 0x00, 0x00, 0x00, 0x00, 0x58, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401030 */ 0x53, 0x48, 0x8d, 0x05, 0x03, 0x00, 0x00, 0x00, 0x50, 0xc3, 0xcc, 0x5b, 0xc3, 0xcc, 0xcc, 0xcc,
	/* 0x401040 */ 0x48, 0x8d, 0x05, 0x09, 0x00, 0x00, 0x00, 0x50, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401050 */ 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401060 */ 0x6a, 0x01, 0x6a, 0x02, 0xe8, 0x07, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401070 */ 0xc2, 0x10, 0x00, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401080 */ 0xe8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc, 0xf2, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401090 */ 0x48, 0x8d, 0x05, 0x04, 0x00, 0x00, 0x00, 0x3e, 0xff, 0xe0, 0xcc, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4010a0 */ 0x48, 0x8d, 0x05, 0x03, 0x00, 0x00, 0x00, 0xff, 0xe0, 0xcc, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4010b0 */ 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0x5b, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4010c0 */ 0x55, 0xe8, 0x4a, 0xff, 0xff, 0xff, 0x5d, 0xeb, 0xe7, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4010d0 */ 0x55, 0x48, 0x89, 0xe5, 0x48, 0x8d, 0x05, 0xd5, 0xff, 0xff, 0xff, 0x5d, 0xff, 0xe0, 0xcc, 0xcc,
	/* 0x4010e0 */ 0x53, 0xeb, 0xd5, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0x85, 0xff, 0x75, 0xc4, 0xc3, 0xcc, 0xcc, 0xcc,
	/* 0x4010f0 */ 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401100 */ 0x55, 0xe8, 0x0a, 0x00, 0x00, 0x00, 0x90, 0x5d, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401110 */ 0xe8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc, 0xe8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc,
	/* 0x401120 */ 0x48, 0x89, 0xf4, 0xff, 0xe2, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401130 */ 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401140 */ 0x55, 0xff, 0xd0, 0x5d, 0xc3, 0xcc, 0xcc, 0xcc, 0xe8, 0xc3, 0xfe, 0xff, 0xff, 0xc3, 0xcc, 0xcc,
	/* 0x401150 */ 0xb8, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xcc, 0xb8, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xcc,
	/* 0x401160 */ 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401170 */ 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401180 */ 0x85, 0xff, 0x74, 0x07, 0xff, 0xcf, 0xe8, 0xf5, 0xff, 0xff, 0xff, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401190 */ 0xf3, 0xa4, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xe8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc,
	/* 0x4011a0 */ 0xe8, 0x07, 0x00, 0x00, 0x00, 0xf3, 0x90, 0x0f, 0xae, 0xe8, 0xeb, 0xf9, 0x48, 0x89, 0x04, 0x24,
	/* 0x4011b0 */ 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4011c0 */ 0x06, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4011d0 */ 0x85, 0xff, 0x74, 0x08, 0xff, 0xcf, 0xe8, 0xf5, 0xff, 0xff, 0xff, 0xc3, 0x48, 0x83, 0xc4, 0x08,
	/* 0x4011e0 */ 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xff, 0xc9, 0x74, 0x09, 0x48, 0x8d, 0x05, 0xf5,
	/* 0x4011f0 */ 0xff, 0xff, 0xff, 0xff, 0xe0, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xe8, 0x00,
};

/* A run of nops, longer than the block walk may go. */
#define NOPS_BASE	0x500000ULL
#define NOPS_SIZE	(DCG_WALK_MAX_BYTES + 64)
static unsigned char nops[NOPS_SIZE];

#define STK_BASE	0x7fff0000ULL
#define STK_SIZE	0x2000
static unsigned char stack[STK_SIZE];

#define S0	(STK_BASE + 0x1800)	/* rsp at the entry of the root */
#define HS	(S0 - 0x408)		/* rsp at a signal handler's entry */
#define R0	0x402000ULL		/* the root's return address */

static int failures;

static int region_read(dcg_u64 addr, void *buf, unsigned int len,
		       dcg_u64 base, const unsigned char *mem, dcg_u64 size)
{
	dcg_u64 n;

	if (addr < base || addr >= base + size)
		return -1;
	n = base + size - addr;
	if (n > len)
		n = len;
	memcpy(buf, mem + (addr - base), n);
	return (int)n;
}

static int fake_read(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	int n;

	n = region_read(addr, buf, len, CODE_BASE, code, sizeof(code));
	if (n < 0)
		n = region_read(addr, buf, len, NOPS_BASE, nops, NOPS_SIZE);
	if (n < 0)
		n = region_read(addr, buf, len, STK_BASE, stack, STK_SIZE);
	return n < 0 ? 0 : n;
}

static void stack_write(dcg_u64 addr, dcg_u64 val)
{
	int i;

	if (addr < STK_BASE || addr + 8 > STK_BASE + STK_SIZE) {
		printf("FAIL: test bug: stack write at %#llx\n",
		       (unsigned long long)addr);
		failures++;
		return;
	}
	for (i = 0; i < 8; i++)
		stack[addr - STK_BASE + i] = (unsigned char)(val >> (8 * i));
}

/* Function bounds from the listing above. */
static const struct { dcg_u64 start, end; } funcs[] = {
	{ 0x401000, 0x401008 }, { 0x401010, 0x401012 }, { 0x401020, 0x401027 },
	{ 0x401030, 0x40103d }, { 0x401040, 0x401049 }, { 0x401050, 0x401051 },
	{ 0x401060, 0x40106a }, { 0x401070, 0x401073 }, { 0x401080, 0x401086 },
	{ 0x401088, 0x40108a }, { 0x401090, 0x40109c }, { 0x4010a0, 0x4010ab },
	{ 0x4010b0, 0x4010b1 }, { 0x4010b8, 0x4010ba }, { 0x4010c0, 0x4010c9 },
	{ 0x4010d0, 0x4010de }, { 0x4010e0, 0x4010e3 }, { 0x4010e8, 0x4010ed },
	{ 0x401100, 0x401109 }, { 0x401110, 0x401116 }, { 0x401118, 0x40111e },
	{ 0x401120, 0x401125 }, { 0x401140, 0x401145 }, { 0x401148, 0x40114e },
	{ 0x401150, 0x401157 }, { 0x401158, 0x40115f }, { 0x401180, 0x40118c },
	{ 0x401190, 0x401193 }, { 0x401198, 0x40119e }, { 0x4011a0, 0x4011b1 },
	{ 0x4011d0, 0x4011e1 }, { 0x4011e8, 0x4011f6 },
};

static int fake_bounds(void *ctx, dcg_u64 addr, dcg_u64 *start, dcg_u64 *end)
{
	unsigned int i;

	for (i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
		if (addr >= funcs[i].start && addr < funcs[i].end) {
			*start = funcs[i].start;
			*end = funcs[i].end;
			return 0;
		}
	}
	return -1;
}

#define MAX_EVENTS 64
static struct dcg_rec_event events[MAX_EVENTS];
static int nevents;

static void record(void *ctx, const struct dcg_rec_event *ev)
{
	if (nevents < MAX_EVENTS)
		events[nevents] = *ev;
	nevents++;
}

static const struct dcg_host_ops ops_plain = {
	.read = fake_read, .emit = record,
};
static const struct dcg_host_ops ops_bounds = {
	.read = fake_read, .func_bounds = fake_bounds, .emit = record,
};

/*
 * One step of a scenario: a stop (ip != 0), a stack write (waddr != 0)
 * done before it, or both.  Block mode sees only the taken stops.
 */
struct step {
	dcg_u64 waddr, wval;
	dcg_u64 ip, sp;
	int taken;
};

#define WR(a, v)	{ (a), (v), 0, 0, 0 }
#define ST(i, s)	{ 0, 0, (i), (s), 0 }	/* falls through: step only */
#define TK(i, s)	{ 0, 0, (i), (s), 1 }	/* taken branch or async */
#define WTK(a, v, i, s)	{ (a), (v), (i), (s), 1 }

/* An expected event; bfrom/bto/bsp, when set, are block mode's. */
struct want {
	int kind, flags;
	dcg_u64 from, to, sp;
	unsigned int depth;
	dcg_u64 bfrom, bto, bsp;
};

#define E(k, f, fr, t, s, d)		{ k, f, fr, t, s, d, 0, 0, 0 }
#define EB(k, f, fr, t, s, d, bf, bt)	{ k, f, fr, t, s, d, bf, bt, 0 }
#define EBS(k, f, fr, t, s, d, bf, bt, bs) { k, f, fr, t, s, d, bf, bt, bs }

#define CALL	DCG_EV_CALL
#define RET	DCG_EV_RET
#define TAIL	DCG_EV_TAILCALL
#define ASYNC	DCG_EV_ASYNC
#define SYN	DCG_EVF_SYNTHETIC
#define IND	DCG_EVF_INDIRECT
#define OVF	DCG_EVF_OVERFLOW

struct scenario {
	const char *name;
	dcg_u64 entry, sp, ret_addr;	/* dcg_thread_begin() */
	int here;			/* dcg_thread_begin_here() instead */
	int bounds;			/* host provides func_bounds */
	int end;			/* call dcg_thread_end() afterwards */
	unsigned int cap, max_depth;
	const struct step *steps;
	int nsteps;
	const struct want *want;
	int nwant;
};

static const char *mode_name(unsigned int mode)
{
	if (mode == DCG_MODE_STEP)
		return "step";
	return mode == DCG_MODE_BLOCK ? "block" : "emulated block";
}

static int check_event(const struct scenario *sc, unsigned int mode, int i,
		       const struct dcg_rec_event *ev, const struct want *w)
{
	dcg_u64 from = w->from, to = w->to, sp = w->sp;

	if (mode != DCG_MODE_STEP && w->bfrom)
		from = w->bfrom;
	if (mode != DCG_MODE_STEP && w->bto)
		to = w->bto;
	if (mode != DCG_MODE_STEP && w->bsp)
		sp = w->bsp;
	if (ev->r.type == DCG_REC_EVENT && ev->r.size == sizeof(*ev) &&
	    ev->kind == w->kind && ev->flags == w->flags && ev->from == from &&
	    ev->to == to && ev->sp == sp && ev->depth == w->depth)
		return 1;
	printf("INFO: %s/%s: event %d: got kind %u flags %#x from %#llx to %#llx sp %#llx depth %u (type %u size %u)\n",
	       sc->name, mode_name(mode), i, ev->kind, ev->flags,
	       (unsigned long long)ev->from, (unsigned long long)ev->to,
	       (unsigned long long)ev->sp, ev->depth, ev->r.type, ev->r.size);
	printf("INFO: %s/%s: event %d: want kind %d flags %#x from %#llx to %#llx sp %#llx depth %u\n",
	       sc->name, mode_name(mode), i, w->kind, w->flags,
	       (unsigned long long)from, (unsigned long long)to,
	       (unsigned long long)sp, w->depth);
	return 0;
}

static void result(int ok, const char *fmt, const char *a, const char *b)
{
	printf("%s: ", ok ? "PASS" : "FAIL");
	printf(fmt, a, b);
	printf("\n");
	if (!ok)
		failures++;
}

#define MAX_FRAMES 16
static struct dcg_frame frames[MAX_FRAMES];
static struct dcg_thread thread;

/* Run a scenario's steps in @mode into events[]; returns the thread. */
static struct dcg_thread *run(const struct scenario *sc, unsigned int mode)
{
	const struct dcg_host_ops *ops = sc->bounds ? &ops_bounds : &ops_plain;
	struct dcg_thread *t = &thread;
	dcg_u64 ts = 1;
	int i;

	memset(stack, 0, sizeof(stack));
	nevents = 0;
	dcg_thread_init(t, mode, frames, sc->cap ? sc->cap : MAX_FRAMES);
	t->max_depth = sc->max_depth;
	if (sc->here) {
		dcg_thread_begin_here(t, sc->entry, sc->sp, ts);
	} else {
		stack_write(sc->sp, sc->ret_addr);
		dcg_thread_begin(t, sc->entry, sc->sp, sc->ret_addr, ts, ops);
	}
	for (i = 0; i < sc->nsteps; i++) {
		const struct step *s = &sc->steps[i];

		if (s->waddr)
			stack_write(s->waddr, s->wval);
		if (!s->ip || (mode != DCG_MODE_STEP && !s->taken))
			continue;
		dcg_thread_stop(t, s->ip, s->sp, ++ts, ops);
	}
	if (sc->end)
		dcg_thread_end(t, ++ts, ops);
	return t;
}

static void run_scenario(const struct scenario *sc, unsigned int mode)
{
	struct dcg_thread *t = run(sc, mode);
	int i, ok = nevents == sc->nwant;

	if (!ok)
		printf("INFO: %s/%s: %d events, want %d\n", sc->name,
		       mode_name(mode), nevents, sc->nwant);
	for (i = 0; i < nevents && i < sc->nwant && i < MAX_EVENTS; i++)
		ok &= check_event(sc, mode, i, &events[i], &sc->want[i]);
	if (t->stats.events != (dcg_u64)nevents) {
		printf("INFO: stats.events %llu, emitted %d\n",
		       (unsigned long long)t->stats.events, nevents);
		ok = 0;
	}
	result(ok, "%s: %s mode events", sc->name, mode_name(mode));
}

#define N(a) (int)(sizeof(a) / sizeof((a)[0]))
#define SCEN(nm, e, ...) \
	{ .name = #nm, .entry = e, .sp = S0, .ret_addr = R0, \
	  .steps = nm##_steps, .nsteps = N(nm##_steps), \
	  .want = nm##_want, .nwant = N(nm##_want), __VA_ARGS__ }

/* call, ret */
static const struct step callret_steps[] = {
	ST(0x401001, S0 - 8),
	WTK(S0 - 16, 0x401006, 0x401010, S0 - 16),
	ST(0x401011, S0 - 16),
	TK(0x401006, S0 - 8),
	ST(0x401007, S0),
	TK(R0, S0 + 8),
};
static const struct want callret_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401000, S0, 1),
	E(CALL, 0, 0x401001, 0x401010, S0 - 16, 2),
	E(RET, 0, 0x401011, 0x401006, S0 - 8, 1),
	E(RET, 0, 0x401007, R0, S0 + 8, 0),
};

/* call to the next insn, then pop: no call */
static const struct step getpc_steps[] = {
	WTK(S0 - 8, 0x401025, 0x401025, S0 - 8),
	ST(0x401026, S0),
	TK(R0, S0 + 8),
};
static const struct want getpc_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401020, S0, 1),
	E(RET, 0, 0x401026, R0, S0 + 8, 0),
};

/* push addr; ret inside the function: a jump, not a return */
static const struct step pushret_steps[] = {
	ST(0x401031, S0 - 8),
	ST(0x401038, S0 - 8),
	WR(S0 - 16, 0x40103b),
	ST(0x401039, S0 - 16),
	TK(0x40103b, S0 - 8),
	ST(0x40103c, S0),
	TK(R0, S0 + 8),
};
static const struct want pushret_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401030, S0, 1),
	E(RET, 0, 0x40103c, R0, S0 + 8, 0),
};

/* push addr; ret with the frame torn down, to another function */
static const struct step pushret_tail_steps[] = {
	ST(0x401047, S0),
	WR(S0 - 8, 0x401050),
	ST(0x401048, S0 - 8),
	TK(0x401050, S0),
	TK(R0, S0 + 8),
};
static const struct want pushret_tail_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401040, S0, 1),
	E(TAIL, IND, 0x401048, 0x401050, S0, 1),
	E(RET, 0, 0x401050, R0, S0 + 8, 0),
};

/* ret $16 pops 24 bytes */
static const struct step retimm_steps[] = {
	ST(0x401062, S0 - 8),
	ST(0x401064, S0 - 16),
	WTK(S0 - 24, 0x401069, 0x401070, S0 - 24),
	TK(0x401069, S0),
	TK(R0, S0 + 8),
};
static const struct want retimm_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401060, S0, 1),
	E(CALL, 0, 0x401064, 0x401070, S0 - 24, 2),
	E(RET, 0, 0x401070, 0x401069, S0, 1),
	E(RET, 0, 0x401069, R0, S0 + 8, 0),
};

/* bnd ret */
static const struct step bndret_steps[] = {
	WTK(S0 - 8, 0x401085, 0x401088, S0 - 8),
	TK(0x401085, S0),
	TK(R0, S0 + 8),
};
static const struct want bndret_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401080, S0, 1),
	E(CALL, 0, 0x401080, 0x401088, S0 - 8, 2),
	E(RET, 0, 0x401088, 0x401085, S0, 1),
	E(RET, 0, 0x401085, R0, S0 + 8, 0),
};

/* notrack jmp * at frame sp, no symbols: a switch, not a tail call */
static const struct step notrack_steps[] = {
	ST(0x401097, S0),
	TK(0x40109b, S0),
	TK(R0, S0 + 8),
};
static const struct want notrack_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401090, S0, 1),
	E(RET, 0, 0x40109b, R0, S0 + 8, 0),
};

/* jmp * inside the function at frame sp, with symbols: no tail call */
static const struct step jmpind_steps[] = {
	ST(0x4010a7, S0),
	TK(0x4010aa, S0),
	TK(R0, S0 + 8),
};
static const struct want jmpind_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010a0, S0, 1),
	E(RET, 0, 0x4010aa, R0, S0 + 8, 0),
};

/*
 * The same without symbols: a forward jmp * at frame sp is taken for a
 * tail call (the documented cost of having no function bounds).
 */
#define jmpind_nosym_steps jmpind_steps
static const struct want jmpind_nosym_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010a0, S0, 1),
	E(TAIL, IND, 0x4010a7, 0x4010aa, S0, 1),
	E(RET, 0, 0x4010aa, R0, S0 + 8, 0),
};

/* call g1, then jmp to a function below: a direct tail call */
static const struct step tail_steps[] = {
	ST(0x4010c1, S0 - 8),
	WTK(S0 - 16, 0x4010c6, 0x401010, S0 - 16),
	ST(0x401011, S0 - 16),
	TK(0x4010c6, S0 - 8),
	ST(0x4010c7, S0),
	TK(0x4010b0, S0),
	TK(R0, S0 + 8),
};
static const struct want tail_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010c0, S0, 1),
	E(CALL, 0, 0x4010c1, 0x401010, S0 - 16, 2),
	E(RET, 0, 0x401011, 0x4010c6, S0 - 8, 1),
	E(TAIL, 0, 0x4010c7, 0x4010b0, S0, 1),
	E(RET, 0, 0x4010b0, R0, S0 + 8, 0),
};

/* leave the frame, then jmp *%rax */
static const struct step tail_ind_steps[] = {
	ST(0x4010d1, S0 - 8),
	ST(0x4010d4, S0 - 8),
	ST(0x4010db, S0 - 8),
	ST(0x4010dc, S0),
	TK(0x4010b0, S0),
	TK(R0, S0 + 8),
};
static const struct want tail_ind_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010d0, S0, 1),
	E(TAIL, IND, 0x4010dc, 0x4010b0, S0, 1),
	E(RET, 0, 0x4010b0, R0, S0 + 8, 0),
};

/* jmp out of the function with the frame still up: not a tail call */
static const struct step jmp_out_steps[] = {
	ST(0x4010e1, S0 - 8),
	TK(0x4010b8, S0 - 8),
	ST(0x4010b9, S0),
	TK(R0, S0 + 8),
};
static const struct want jmp_out_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010e0, S0, 1),
	E(RET, 0, 0x4010b9, R0, S0 + 8, 0),
};

/* jne to another function at frame sp: a conditional tail call */
static const struct step tail_jcc_steps[] = {
	ST(0x4010ea, S0),
	TK(0x4010b0, S0),
	TK(R0, S0 + 8),
};
static const struct want tail_jcc_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010e8, S0, 1),
	E(TAIL, 0, 0x4010ea, 0x4010b0, S0, 1),
	E(RET, 0, 0x4010b0, R0, S0 + 8, 0),
};

/*
 * longjmp: three frames down, rsp goes back up to ljf's and a jmp *
 * lands in ljf.  Step mode sees rsp move at the mov; block mode only
 * after the jmp.
 */
static const struct step longjmp_steps[] = {
	ST(0x401101, S0 - 8),
	WTK(S0 - 16, 0x401106, 0x401110, S0 - 16),
	WTK(S0 - 24, 0x401115, 0x401118, S0 - 24),
	WTK(S0 - 32, 0x40111d, 0x401120, S0 - 32),
	ST(0x401123, S0 - 8),
	TK(0x401107, S0 - 8),
	ST(0x401108, S0),
	TK(R0, S0 + 8),
};
static const struct want longjmp_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401100, S0, 1),
	E(CALL, 0, 0x401101, 0x401110, S0 - 16, 2),
	E(CALL, 0, 0x401110, 0x401118, S0 - 24, 3),
	E(CALL, 0, 0x401118, 0x401120, S0 - 32, 4),
	EB(RET, SYN, 0x401120, 0x401123, S0 - 8, 3, 0x401123, 0x401107),
	EB(RET, SYN, 0x401120, 0x401123, S0 - 8, 2, 0x401123, 0x401107),
	EB(RET, SYN, 0x401120, 0x401123, S0 - 8, 1, 0x401123, 0x401107),
	E(RET, 0, 0x401108, R0, S0 + 8, 0),
};

/*
 * A signal arrives at the stop before `call *%rax` (which has not run):
 * the handler is entered with a signal frame below, the restorer's
 * address at [sp].  It calls g1, returns to the restorer, whose
 * sigreturn puts the thread back at the call, which then runs.
 */
static const struct step signal_steps[] = {
	ST(0x401141, S0 - 8),
	WTK(HS, 0x401150, 0x401148, HS),
	WTK(HS - 8, 0x40114d, 0x401010, HS - 8),
	ST(0x401011, HS - 8),
	TK(0x40114d, HS),
	TK(0x401150, HS + 8),
	ST(0x401155, HS + 8),
	TK(0x401141, S0 - 8),
	WTK(S0 - 16, 0x401143, 0x401010, S0 - 16),
	ST(0x401011, S0 - 16),
	TK(0x401143, S0 - 8),
	ST(0x401144, S0),
	TK(R0, S0 + 8),
};
static const struct want signal_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401140, S0, 1),
	EB(ASYNC, 0, 0x401141, 0x401148, HS, 2, 0x401140, 0),
	E(CALL, 0, 0x401148, 0x401010, HS - 8, 3),
	E(RET, 0, 0x401011, 0x40114d, HS, 2),
	E(RET, 0, 0x40114d, 0x401150, HS + 8, 1),
	E(CALL, IND, 0x401141, 0x401010, S0 - 16, 2),
	E(RET, 0, 0x401011, 0x401143, S0 - 8, 1),
	E(RET, 0, 0x401144, R0, S0 + 8, 0),
};

/* The handler calls sigreturn itself: the resync pops it; then end() */
static const struct step sigreturn_steps[] = {
	ST(0x401141, S0 - 8),
	WTK(HS, 0x401150, 0x401158, HS),
	ST(0x40115d, HS),
	TK(0x401141, S0 - 8),
};
static const struct want sigreturn_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401140, S0, 1),
	EB(ASYNC, 0, 0x401141, 0x401158, HS, 2, 0x401140, 0),
	E(RET, SYN, 0x40115d, 0x401141, S0 - 8, 1),
	E(RET, DCG_EVF_END, 0x401141, R0, S0 - 8, 0),
};

/* rc(2): rc -> rc -> rc, the same return address three times */
#define RC_LEVEL(sp, next) \
	ST(0x401182, sp), ST(0x401184, sp), ST(0x401186, sp), \
	WTK((sp) - 8, 0x40118b, 0x401180, (sp) - 8)
static const struct step recursion_steps[] = {
	RC_LEVEL(S0, 1),
	RC_LEVEL(S0 - 8, 2),
	ST(0x401182, S0 - 16),
	TK(0x40118b, S0 - 16),
	TK(0x40118b, S0 - 8),
	TK(0x40118b, S0),
	TK(R0, S0 + 8),
};
static const struct want recursion_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401180, S0, 1),
	E(CALL, 0, 0x401186, 0x401180, S0 - 8, 2),
	E(CALL, 0, 0x401186, 0x401180, S0 - 16, 3),
	E(RET, 0, 0x40118b, 0x40118b, S0 - 8, 2),
	E(RET, 0, 0x40118b, 0x40118b, S0, 1),
	E(RET, 0, 0x40118b, R0, S0 + 8, 0),
};

/* rc(5) with room for 3 frames: depths 4..6 overflow, returns balance */
static const struct step overflow_steps[] = {
	RC_LEVEL(S0, 1), RC_LEVEL(S0 - 8, 2), RC_LEVEL(S0 - 16, 3),
	RC_LEVEL(S0 - 24, 4), RC_LEVEL(S0 - 32, 5),
	ST(0x401182, S0 - 40),
	TK(0x40118b, S0 - 40),
	TK(0x40118b, S0 - 32), TK(0x40118b, S0 - 24), TK(0x40118b, S0 - 16),
	TK(0x40118b, S0 - 8), TK(0x40118b, S0),
	TK(R0, S0 + 8),
};
static const struct want overflow_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401180, S0, 1),
	E(CALL, 0, 0x401186, 0x401180, S0 - 8, 2),
	E(CALL, 0, 0x401186, 0x401180, S0 - 16, 3),
	E(CALL, OVF, 0x401186, 0x401180, S0 - 24, 4),
	E(CALL, OVF, 0x401186, 0x401180, S0 - 32, 5),
	E(CALL, OVF, 0x401186, 0x401180, S0 - 40, 6),
	E(RET, OVF, 0x40118b, 0x40118b, S0 - 32, 5),
	E(RET, OVF, 0x40118b, 0x40118b, S0 - 24, 4),
	E(RET, OVF, 0x40118b, 0x40118b, S0 - 16, 3),
	E(RET, 0, 0x40118b, 0x40118b, S0 - 8, 2),
	E(RET, 0, 0x40118b, 0x40118b, S0, 1),
	E(RET, 0, 0x40118b, R0, S0 + 8, 0),
};

/* rc(3) with max_depth 2, the host still stepping the skipped subtree */
static const struct step skip_steps[] = {
	RC_LEVEL(S0, 1), RC_LEVEL(S0 - 8, 2), RC_LEVEL(S0 - 16, 3),
	ST(0x401182, S0 - 24),
	TK(0x40118b, S0 - 24),
	TK(0x40118b, S0 - 16),
	TK(0x40118b, S0 - 8),
	TK(0x40118b, S0),
	TK(R0, S0 + 8),
};
static const struct want skip_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401180, S0, 1),
	E(CALL, 0, 0x401186, 0x401180, S0 - 8, 2),
	E(CALL, DCG_EVF_SKIPPED, 0x401186, 0x401180, S0 - 16, 3),
	E(RET, 0, 0x40118b, 0x40118b, S0 - 8, 2),
	E(RET, 0, 0x40118b, 0x40118b, S0, 1),
	E(RET, 0, 0x40118b, R0, S0 + 8, 0),
};

/* The same with a host that skips: next stop is back at the return */
static const struct step skip_host_steps[] = {
	RC_LEVEL(S0, 1), RC_LEVEL(S0 - 8, 2),
	TK(0x40118b, S0 - 8),
	TK(0x40118b, S0),
	TK(R0, S0 + 8),
};
static const struct want skip_host_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401180, S0, 1),
	E(CALL, 0, 0x401186, 0x401180, S0 - 8, 2),
	E(CALL, DCG_EVF_SKIPPED, 0x401186, 0x401180, S0 - 16, 3),
	E(RET, 0, 0x401180, 0x40118b, S0 - 8, 2),
	E(RET, 0, 0x40118b, 0x40118b, S0, 1),
	E(RET, 0, 0x40118b, R0, S0 + 8, 0),
};

/*
 * Window opened inside g1: its ret goes above the window (UNMATCHED),
 * then f6 runs from its entry, calls g6 and returns above again.
 */
static const struct step here_steps[] = {
	WR(S0, 0x401080),
	ST(0x401011, S0),
	TK(0x401080, S0 + 8),
	WR(S0 + 8, 0x402100),
	WTK(S0, 0x401085, 0x401088, S0),
	TK(0x401085, S0 + 8),
	TK(0x402100, S0 + 16),
};
static const struct want here_want[] = {
	E(RET, DCG_EVF_UNMATCHED, 0x401011, 0x401080, S0 + 8, 0),
	E(CALL, 0, 0x401080, 0x401088, S0, 1),
	E(RET, 0, 0x401088, 0x401085, S0 + 8, 0),
	E(RET, DCG_EVF_UNMATCHED, 0x401085, 0x402100, S0 + 16, 0),
};

/*
 * A retpoline: call thk; thk calls its own label, overwrites the return
 * address with %rax (hlow) and rets to it with thk's frame torn down.
 * With symbols: the inner call is no call, the ret a tail call.
 */
static const struct step retpoline_steps[] = {
	WTK(S0 - 8, 0x40119d, 0x4011a0, S0 - 8),
	WTK(S0 - 16, 0x4011a5, 0x4011ac, S0 - 16),
	WR(S0 - 16, 0x4010b0),
	ST(0x4011b0, S0 - 16),
	TK(0x4010b0, S0 - 8),
	TK(0x40119d, S0),
	TK(R0, S0 + 8),
};
static const struct want retpoline_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401198, S0, 1),
	E(CALL, 0, 0x401198, 0x4011a0, S0 - 8, 2),
	E(TAIL, IND, 0x4011b0, 0x4010b0, S0 - 8, 2),
	E(RET, 0, 0x4010b0, 0x40119d, S0, 1),
	E(RET, 0, 0x40119d, R0, S0 + 8, 0),
};

/* Without symbols the inner call is a call, and its ret a return */
#define retpoline_nosym_steps retpoline_steps
static const struct want retpoline_nosym_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401198, S0, 1),
	E(CALL, 0, 0x401198, 0x4011a0, S0 - 8, 2),
	E(CALL, 0, 0x4011a0, 0x4011ac, S0 - 16, 3),
	E(RET, 0, 0x4011b0, 0x4010b0, S0 - 8, 2),
	E(RET, 0, 0x4010b0, 0x40119d, S0, 1),
	E(RET, 0, 0x40119d, R0, S0 + 8, 0),
};

/*
 * rs(2): the innermost activation drops its own return address and its
 * ret pops the slot of the frame above: that frame returns, the
 * innermost is popped as synthetic (in step mode as soon as rsp moves).
 */
static const struct step ret_past_steps[] = {
	ST(0x4011d2, S0), ST(0x4011d4, S0), ST(0x4011d6, S0),
	WTK(S0 - 8, 0x4011db, 0x4011d0, S0 - 8),
	ST(0x4011d2, S0 - 8), ST(0x4011d4, S0 - 8), ST(0x4011d6, S0 - 8),
	WTK(S0 - 16, 0x4011db, 0x4011d0, S0 - 16),
	ST(0x4011d2, S0 - 16),
	TK(0x4011dc, S0 - 16),
	ST(0x4011e0, S0 - 8),
	TK(0x4011db, S0),
	TK(R0, S0 + 8),
};
static const struct want ret_past_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4011d0, S0, 1),
	E(CALL, 0, 0x4011d6, 0x4011d0, S0 - 8, 2),
	E(CALL, 0, 0x4011d6, 0x4011d0, S0 - 16, 3),
	EBS(RET, SYN, 0x4011dc, 0x4011e0, S0 - 8, 2, 0x4011e0, 0x4011db, S0),
	E(RET, 0, 0x4011e0, 0x4011db, S0, 1),
	E(RET, 0, 0x4011db, R0, S0 + 8, 0),
};

/*
 * A signal interrupts the syscall in sgh2 (as if a read() got EINTR):
 * the handler runs on a frame far below, returns to the restorer, and
 * sigreturn resumes after the syscall.  Then end().
 */
static const struct step sys_signal_steps[] = {
	ST(0x40115d, S0),
	WTK(HS, 0x401150, 0x401148, HS),
	WTK(HS - 8, 0x40114d, 0x401010, HS - 8),
	ST(0x401011, HS - 8),
	TK(0x40114d, HS),
	TK(0x401150, HS + 8),
	ST(0x401155, HS + 8),
	TK(0x40115f, S0),
};
static const struct want sys_signal_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401158, S0, 1),
	EB(ASYNC, 0, 0x40115d, 0x401148, HS, 2, 0x401158, 0),
	E(CALL, 0, 0x401148, 0x401010, HS - 8, 3),
	E(RET, 0, 0x401011, 0x40114d, HS, 2),
	E(RET, 0, 0x40114d, 0x401150, HS + 8, 1),
	E(RET, DCG_EVF_END, 0x40115f, R0, S0, 0),
};

/* jmp * back to the entry at frame sp, no symbols: a loop */
static const struct step loop_ind_steps[] = {
	ST(0x4011ea, S0), ST(0x4011ec, S0), ST(0x4011f3, S0),
	TK(0x4011e8, S0),
	ST(0x4011ea, S0),
	TK(0x4011f5, S0),
	TK(R0, S0 + 8),
};
static const struct want loop_ind_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4011e8, S0, 1),
	E(RET, 0, 0x4011f5, R0, S0 + 8, 0),
};

/* jmp * at frame sp, but [sp] no longer holds the return address */
static const struct step slot_changed_steps[] = {
	ST(0x4010d1, S0 - 8),
	ST(0x4010d4, S0 - 8),
	ST(0x4010db, S0 - 8),
	ST(0x4010dc, S0),
	WR(S0, 0x401234),
	TK(0x4010b0, S0),
	TK(0x401234, S0 + 8),
};
static const struct want slot_changed_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010d0, S0, 1),
	E(RET, 0, 0x4010b0, 0x401234, S0 + 8, 0),
};

/*
 * A signal arrives just before a ret (block mode: the walk ends at that
 * ret, which did not run); the handler calls sigreturn itself.
 */
static const struct step signal_at_ret_steps[] = {
	ST(0x401011, S0),
	WTK(HS, 0x401150, 0x401158, HS),
	ST(0x40115d, HS),
	TK(0x401011, S0),
	TK(R0, S0 + 8),
};
static const struct want signal_at_ret_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401010, S0, 1),
	EB(ASYNC, 0, 0x401011, 0x401158, HS, 2, 0x401010, 0),
	E(RET, SYN, 0x40115d, 0x401011, S0, 1),
	E(RET, 0, 0x401011, R0, S0 + 8, 0),
};

static const struct scenario scenarios[] = {
	SCEN(callret, 0x401000),
	SCEN(getpc, 0x401020),
	SCEN(pushret, 0x401030),
	SCEN(pushret_tail, 0x401040),
	SCEN(retimm, 0x401060),
	SCEN(bndret, 0x401080),
	SCEN(notrack, 0x401090),
	SCEN(jmpind, 0x4010a0, .bounds = 1),
	SCEN(jmpind_nosym, 0x4010a0),
	SCEN(tail, 0x4010c0),
	SCEN(tail_ind, 0x4010d0),
	SCEN(jmp_out, 0x4010e0, .bounds = 1),
	SCEN(tail_jcc, 0x4010e8, .bounds = 1),
	SCEN(longjmp, 0x401100),
	SCEN(signal, 0x401140),
	SCEN(sigreturn, 0x401140, .end = 1),
	SCEN(recursion, 0x401180),
	SCEN(overflow, 0x401180, .cap = 3),
	SCEN(skip, 0x401180, .max_depth = 2),
	SCEN(skip_host, 0x401180, .max_depth = 2),
	SCEN(here, 0x401010, .here = 1),
	SCEN(retpoline, 0x401198, .bounds = 1),
	SCEN(retpoline_nosym, 0x401198),
	SCEN(ret_past, 0x4011d0),
	SCEN(sys_signal, 0x401158, .end = 1),
	SCEN(loop_ind, 0x4011e8),
	SCEN(slot_changed, 0x4010d0),
	SCEN(signal_at_ret, 0x401010),
};

static const struct scenario *scenario(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	printf("FAIL: test bug: no scenario %s\n", name);
	return &scenarios[0];
}

static void check(int ok, const char *what)
{
	result(ok, "%s%s", what, "");
}

/* Stats and side results that the event lists do not show. */
static void test_counters(void)
{
	const struct scenario *sc;
	struct dcg_thread *t;
	unsigned int m;

	for (m = DCG_MODE_STEP; m <= DCG_MODE_BLOCK; m++) {
		sc = scenario("overflow");
		t = run(sc, m);
		result(t->shadow.overflow == 3 && t->shadow.depth == 0,
		       "%s: %s mode: 3 pushes overflowed, depth back to 0",
		       sc->name, mode_name(m));
		sc = scenario("signal");
		t = run(sc, m);
		result(t->stats.resyncs == 0 && t->stats.decode_errors == 0,
		       "%s: %s mode: no resync, no decode error",
		       sc->name, mode_name(m));
		sc = scenario("longjmp");
		t = run(sc, m);
		result(t->stats.resyncs == 3, "%s: %s mode: 3 resyncs counted",
		       sc->name, mode_name(m));
		sc = scenario("here");
		t = run(sc, m);
		result(t->stats.unmatched == 2, "%s: %s mode: 2 unmatched",
		       sc->name, mode_name(m));
	}
}

/* The host learns from dcg_thread_skipping() where to break. */
static void test_skipping(void)
{
	const struct scenario *sc = scenario("skip_host");
	struct scenario cut = *sc;
	const struct dcg_frame *f;
	struct dcg_thread *t;

	cut.nsteps = 8;		/* up to the skipped call */
	t = run(&cut, DCG_MODE_STEP);
	f = dcg_thread_skipping(t);
	check(f && f->ret_addr == 0x40118b && f->sp == S0 - 16 &&
	      t->shadow.depth == 3,
	      "skip: dcg_thread_skipping() gives the return address and slot");
	cut.nsteps = 7;
	t = run(&cut, DCG_MODE_STEP);
	check(dcg_thread_skipping(t) == NULL,
	      "skip: dcg_thread_skipping() is NULL above max_depth");
}

/* Stops whose code cannot be read or decoded: counted, no event. */
static void test_bad_code(void)
{
	static const struct {
		dcg_u64 ip, next;
		int read_error;
		const char *what;
	} cases[] = {
		{ 0x300000, 0x300002, 1, "unmapped code" },
		{ 0x4011fe, 0x401203, 1, "insn cut by the end of the mapping" },
		{ 0x4011c0, 0x4011c1, 0, "invalid opcode" },
	};
	char name[128];
	unsigned int i, m;

	for (m = DCG_MODE_STEP; m <= DCG_MODE_BLOCK; m++) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct dcg_thread *t = &thread;
			int n;

			nevents = 0;
			dcg_thread_init(t, m, frames, MAX_FRAMES);
			dcg_thread_begin_here(t, cases[i].ip, S0, 1);
			n = dcg_thread_stop(t, cases[i].next, S0, 2,
					    &ops_plain);
			snprintf(name, sizeof(name), "%s: %%s mode, %s",
				 cases[i].what, "counted, no event");
			result(n == 0 && nevents == 0 &&
			       t->stats.decode_errors == 1 &&
			       (t->stats.read_errors != 0) ==
			       cases[i].read_error,
			       name, mode_name(m), "");
		}
	}
}

static int classify(unsigned int mode, dcg_u64 prev, dcg_u64 ip,
		    struct dcg_transfer *x)
{
	return dcg_classify(mode, prev, ip, &ops_plain, x);
}

/* dcg_classify() on its own. */
static void test_classify(void)
{
	struct dcg_transfer x;
	int r;

	r = classify(DCG_MODE_STEP, 0x401001, 0x401010, &x);
	check(r == 0 && x.kind == DCG_EV_CALL && x.branch == DCG_BR_CALL &&
	      x.from == 0x401001 && x.to == 0x401010 && x.insn.len == 5,
	      "classify: step: call rel32");
	r = classify(DCG_MODE_STEP, 0x401020, 0x401025, &x);
	check(r == 0 && x.kind == 0 && x.branch == DCG_BR_CALL,
	      "classify: step: call to the next insn is no call");
	r = classify(DCG_MODE_STEP, 0x401010, 0x401050, &x);
	check(r == 0 && x.kind == DCG_EV_ASYNC && x.from == 0x401010,
	      "classify: step: nop landing elsewhere is async");
	r = classify(DCG_MODE_STEP, 0x401190, 0x401190, &x);
	check(r == 0 && x.kind == 0, "classify: step: rep movsb iteration");
	r = classify(DCG_MODE_STEP, 0x401070, 0x401069, &x);
	check(r == 0 && x.kind == DCG_EV_RET && x.insn.ret_imm == 16,
	      "classify: step: ret imm16");
	r = classify(DCG_MODE_STEP, 0x401182, 0x401184, &x);
	check(r == 0 && x.kind == 0 && x.branch == DCG_BR_JCC,
	      "classify: step: jcc not taken");
	r = classify(DCG_MODE_STEP, 0x401182, 0x401186, &x);
	check(r == 0 && x.kind == DCG_EV_ASYNC,
	      "classify: step: jcc to neither target nor next is async");
	r = classify(DCG_MODE_BLOCK, 0x401180, 0x40118b, &x);
	check(r == 0 && x.kind == 0 && x.branch == DCG_BR_JCC &&
	      x.from == 0x401182, "classify: block: taken jcc ends the walk");
	r = classify(DCG_MODE_BLOCK, 0x401180, 0x401180, &x);
	check(r == 0 && x.kind == DCG_EV_CALL && x.from == 0x401186,
	      "classify: block: walk passes a not-taken jcc to the call");
	r = classify(DCG_MODE_BLOCK, 0x401180, 0x401184, &x);
	check(r == 0 && x.kind == 0 && x.insn.len == 0 && x.from == 0x401180,
	      "classify: block: stop on the straight line (interrupt)");
	r = classify(DCG_MODE_BLOCK, 0x4010c6, 0x401234, &x);
	check(r == 0 && x.kind == DCG_EV_ASYNC && x.from == 0x4010c6,
	      "classify: block: direct jmp elsewhere makes the stop async");
	r = classify(DCG_MODE_BLOCK, 0x401150, 0x401141, &x);
	check(r == 0 && x.kind == 0 && x.branch == DCG_BR_SYS &&
	      x.from == 0x401155, "classify: block: syscall ends the walk");
	r = classify(DCG_MODE_EMU_BLOCK, 0x401180, 0x401180, &x);
	check(r == 0 && x.kind == DCG_EV_CALL && x.from == 0x401186,
	      "classify: emulated block mode walks as block mode");
	r = classify(DCG_MODE_BLOCK, 0x401190, 0x401190, &x);
	check(r == 0 && x.kind == 0, "classify: block: rep movsb interrupted");
	r = classify(DCG_MODE_BLOCK, NOPS_BASE, NOPS_BASE + NOPS_SIZE - 1, &x);
	check(r == DCG_CLASSIFY_ELIMIT && x.kind == 0,
	      "classify: block: walk is bounded");
	r = classify(DCG_MODE_STEP, 0x300000, 0x300001, &x);
	check(r == DCG_CLASSIFY_EREAD && x.kind == 0,
	      "classify: unmapped code is a read error");
	r = classify(DCG_MODE_STEP, 0x4011fe, 0x401203, &x);
	check(r == DCG_CLASSIFY_EREAD && x.kind == 0,
	      "classify: insn cut short by unmapped bytes is a read error");
	r = classify(DCG_MODE_BLOCK, 0x4011c0, 0x4011c1, &x);
	check(r == DCG_CLASSIFY_EDECODE && x.kind == 0,
	      "classify: invalid opcode is a decode error");
}

/* The bounded array on its own. */
static void test_shadow(void)
{
	struct dcg_frame arr[2], f = { .func = 1, .ret_addr = 2, .sp = 3 };
	struct dcg_shadow sh;
	int ok;

	dcg_shadow_init(&sh, arr, 2);
	dcg_shadow_pop(&sh);
	ok = sh.depth == 0 && dcg_shadow_top(&sh) == NULL;
	ok &= dcg_shadow_push(&sh, &f) == &arr[0];
	ok &= dcg_shadow_push(&sh, &f) == &arr[1];
	ok &= dcg_shadow_push(&sh, &f) == NULL;
	ok &= sh.depth == 3 && sh.overflow == 1 && dcg_shadow_top(&sh) == NULL;
	ok &= dcg_shadow_stored(&sh) == 2 && dcg_shadow_top_overflowed(&sh);
	dcg_shadow_pop(&sh);
	ok &= dcg_shadow_top(&sh) == &arr[1] && arr[1].ret_addr == 2;
	dcg_shadow_pop(&sh);
	dcg_shadow_pop(&sh);
	dcg_shadow_pop(&sh);
	ok &= sh.depth == 0;
	check(ok, "shadow: push past the array counts depth, pop balances");
	dcg_shadow_init(&sh, NULL, 5);
	ok = dcg_shadow_push(&sh, &f) == NULL && sh.cap == 0 && sh.depth == 1;
	check(ok, "shadow: no array means every frame overflows");
}

int main(void)
{
	unsigned int i;

	memset(nops, 0x90, sizeof(nops));
	for (i = 0; i < N(scenarios); i++) {
		run_scenario(&scenarios[i], DCG_MODE_STEP);
		run_scenario(&scenarios[i], DCG_MODE_BLOCK);
		run_scenario(&scenarios[i], DCG_MODE_EMU_BLOCK);
	}
	test_shadow();
	test_counters();
	test_skipping();
	test_bad_code();
	test_classify();
	printf("INFO: %d failures\n", failures);
	return 0;
}
