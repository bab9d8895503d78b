/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcg_event.h - the dyncg trace format.  The one place it is defined.
 *
 * A trace is a stream of records, little-endian, each starting with
 * struct dcg_rec.  Every record's size is a multiple of 8 so that
 * records stay aligned when written back to back.  A stream starts with
 * a DCG_REC_HEADER; a reader skips record types it does not know (the
 * size says how far), and rejects a stream whose first record is not a
 * header with the right magic, or whose version it does not support.
 * doc/trace-format.md describes the same thing for people.
 *
 * Producers: dcg-trace (ptrace host) writes a file; the tapset's binary
 * mode writes the same records into the SystemTap transport, so that
 * `stap -o FILE` output is a valid trace.
 */
#ifndef DCG_EVENT_H
#define DCG_EVENT_H

#include "dcg_compat.h"

#define DCG_TRACE_MAGIC		"DCGTRACE"	/* 8 bytes, no NUL */
#define DCG_TRACE_VERSION	3
/*
 * Version 1 events had no insns field (40 + 8 bytes); readers still
 * read them and treat the instruction counts as unknown.
 */
#define DCG_TRACE_VERSION_MIN	1
#define DCG_EVENT_SIZE_V1	48

enum dcg_rec_type {
	DCG_REC_HEADER	= 1,	/* struct dcg_rec_header */
	DCG_REC_EVENT	= 2,	/* struct dcg_rec_event */
	DCG_REC_MAP	= 3,	/* struct dcg_rec_map + path */
	DCG_REC_KSYM	= 4,	/* struct dcg_rec_ksym + name */
	DCG_REC_THREAD	= 5,	/* struct dcg_rec_thread */
	DCG_REC_LOST	= 6,	/* struct dcg_rec_lost */
	DCG_REC_STATS	= 7,	/* struct dcg_rec_stats */
	DCG_REC_EDGE	= 8,	/* struct dcg_rec_edge */
	DCG_REC_SWITCH	= 9,	/* struct dcg_rec_switch */
	DCG_REC_IRQ	= 10,	/* struct dcg_rec_irq */
	DCG_REC_PROFILE	= 11,	/* struct dcg_rec_profile + entries */
};

/* Largest record a producer may write; readers reject larger sizes. */
#define DCG_REC_MAX_SIZE	4096

struct dcg_rec {
	dcg_u16 type;		/* enum dcg_rec_type */
	dcg_u16 size;		/* whole record in bytes, multiple of 8, >= 8 */
	dcg_u32 tid;		/* thread the record is about, 0 if none */
};

/* dcg_rec_header.host */
#define DCG_HOST_PTRACE		1	/* dcg-trace */
#define DCG_HOST_STAP		2	/* the tapset, in the kernel */

/* dcg_rec_header.mode, and dcg_core's mode */
#define DCG_MODE_STEP		1	/* TF only: a stop after every insn */
#define DCG_MODE_BLOCK		2	/* TF+BTF: a stop after taken branches */
#define DCG_MODE_EMU_BLOCK	3	/* stepped, reported as block would be */
#define DCG_MODE_HOP		4	/* debug registers on the next transfers,
					 * each transfer stepped (runtime/dcg_hop.h) */

/* dcg_rec_header.flags */
#define DCG_HDR_KERNEL		0x1	/* events carry kernel addresses */

struct dcg_rec_header {
	struct dcg_rec r;	/* tid = 0 */
	char    magic[8];	/* DCG_TRACE_MAGIC */
	dcg_u16 version;	/* DCG_TRACE_VERSION */
	dcg_u8  host;		/* DCG_HOST_* */
	dcg_u8  mode;		/* DCG_MODE_* */
	dcg_u32 pid;		/* traced process, 0 for kernel-wide */
	dcg_u32 flags;		/* DCG_HDR_* */
	dcg_u32 pad;
	dcg_u64 start_ns;	/* timestamp base, same clock as events */
	char    comm[16];	/* NUL-padded */
};

enum dcg_ev_kind {
	DCG_EV_CALL	= 1,	/* from = call insn, to = callee entry */
	DCG_EV_RET	= 2,	/* from = ret insn, to = return address */
	DCG_EV_TAILCALL	= 3,	/* from = jmp insn, to = new function; the
				 * top frame is replaced, depth unchanged */
	DCG_EV_ASYNC	= 4,	/* control arrived where no branch could
				 * have taken it (signal handler, interrupt
				 * in the traced context): from = last stop,
				 * to = where it landed; pushes a frame */
};

/* dcg_rec_event.flags */
#define DCG_EVF_SYNTHETIC	0x01	/* RET made up by a shadow-stack resync
					 * (longjmp, unwinding, sigreturn) */
#define DCG_EVF_INDIRECT	0x02	/* CALL/TAILCALL through a register or
					 * memory operand */
#define DCG_EVF_UNMATCHED	0x04	/* RET with no frame on the shadow stack
					 * (returned above where tracing began) */
#define DCG_EVF_SKIPPED		0x08	/* CALL (or TAILCALL) whose subtree ran
					 * unstepped */
#define DCG_EVF_OVERFLOW	0x10	/* frame deeper than the shadow stack */
#define DCG_EVF_ROOT		0x20	/* CALL that opens a trace window */
#define DCG_EVF_END		0x40	/* RET that closes a trace window */
#define DCG_EVF_INEXACT		0x80	/* insns is a lower bound from here on:
					 * since the thread's previous event
					 * a native run (hop mode) went
					 * through jumps whose path is not
					 * known */

struct dcg_rec_event {
	struct dcg_rec r;	/* tid = thread */
	dcg_u64 ts;		/* ns, same clock as header.start_ns */
	dcg_u64 from;
	dcg_u64 to;
	dcg_u64 sp;		/* CALL: rsp after the push (the return
				 * slot); RET: rsp after the pop */
	dcg_u8  kind;		/* enum dcg_ev_kind */
	dcg_u8  flags;		/* DCG_EVF_* */
	dcg_u16 cpu;
	dcg_u32 depth;		/* CALL/ASYNC: depth of the new frame (the
				 * root is 1); RET: the depth left behind,
				 * one less than its CALL's */
	dcg_u64 insns;		/* version 2: instructions the thread ran
				 * in this window up to and including the
				 * transfer this event reports (0 at the
				 * window's start); a frame's inclusive
				 * count is its RET's minus its CALL's */
};

/*
 * Version 3: register values after an event (issue #17).  An event
 * whose r.size is larger than sizeof(struct dcg_rec_event) carries,
 * right after its 56 bytes, a struct dcg_ev_args, then nregs u64
 * register values, then nstr strings (each a struct dcg_ev_str and its
 * bytes, padded to 8).  The record's size covers all of it.
 *   CALL, TAILCALL (ROOT included): the integer argument registers of
 *       the SysV x86-64 ABI in order (rdi rsi rdx rcx r8 r9), as they
 *       were at the callee's first stop; nregs is how many the user
 *       asked for (0 to DCG_ARGS_MAX).
 *   RET (a real one: not SYNTHETIC, not END):
 *       rax, then rdx, at the stop after the ret; nregs 1 or 2.
 * ASYNC and synthetic events carry none.  Strings: the bytes at the
 * address in register argno (an index into the values), read at the
 * stop without faulting and without sleeping, at most the user's
 * limit; no NUL is stored.
 */
#define DCG_ARGS_MAX		6	/* rdi rsi rdx rcx r8 r9 */
#define DCG_RETS_MAX		2	/* rax rdx */

struct dcg_ev_args {
	dcg_u8  nregs;		/* u64 values that follow */
	dcg_u8  nstr;		/* struct dcg_ev_str that follow them */
	dcg_u8  pad[6];
};

/* dcg_ev_str.flags */
#define DCG_STR_TRUNC		0x1	/* the string went on past len */
#define DCG_STR_FAULT		0x2	/* memory at addr + len was not readable
					 * (len 0: nothing was) */

struct dcg_ev_str {
	dcg_u8  argno;		/* index of the register it was read from */
	dcg_u8  flags;		/* DCG_STR_* */
	dcg_u16 len;		/* bytes that follow, without a NUL */
	dcg_u32 pad;
	/* followed by len bytes, padded to 8 */
};

/*
 * The deepest frame an event can record.  The engine's shadow stack
 * keeps counting depth past the frames it can store and saturates at
 * the top of the u32 (runtime/shadow.c), so a CALL or ASYNC may carry
 * any depth up to this and a RET (the depth left behind) one less.
 * Readers must not spend memory or time per level of a depth: a jump
 * in depth (lost events) can be this large.
 */
#define DCG_EVENT_DEPTH_MAX		0xffffffffu

/*
 * Thread and process ids are below Linux's PID_MAX_LIMIT for 64-bit
 * (4 * 1024 * 1024): the hosts write the kernel's ids, so no record's
 * tid or pid reaches this.
 */
#define DCG_TID_LIMIT		4194304u	/* 4 * 1024 * 1024 */

/* Every DCG_EVF_* bit; readers reject the others. */
#define DCG_EVF_ALL		0xff

/* A mapping of the traced process, for symbolization after it exits. */
struct dcg_rec_map {
	struct dcg_rec r;	/* tid = pid */
	dcg_u64 start;
	dcg_u64 end;
	dcg_u64 pgoff;
	dcg_u8  build_id_len;	/* 0 if unknown */
	dcg_u8  prot;		/* 1 r, 2 w, 4 x */
	dcg_u8  pad[6];
	dcg_u8  build_id[24];
	/* followed by the path, NUL-terminated, padded to 8 */
};

/* One kernel symbol, for kernel traces (a kallsyms snapshot). */
struct dcg_rec_ksym {
	struct dcg_rec r;	/* tid = 0 */
	dcg_u64 addr;
	dcg_u32 size;		/* 0 if unknown */
	char    type;		/* kallsyms type letter */
	dcg_u8  pad[3];
	/* followed by "name" or "name\t[module]", NUL-terminated, padded */
};

#define DCG_THREAD_START	1
#define DCG_THREAD_EXIT		2
#define DCG_THREAD_EXEC		3

struct dcg_rec_thread {
	struct dcg_rec r;	/* tid = thread */
	dcg_u64 ts;
	dcg_u32 what;		/* DCG_THREAD_* */
	dcg_u32 pid;
	char    comm[16];
};

/* Events a producer could not write; readers must report them. */
struct dcg_rec_lost {
	struct dcg_rec r;	/* tid = thread, 0 for all */
	dcg_u64 ts;
	dcg_u64 count;		/* events dropped since the last LOST */
	dcg_u32 reason;		/* DCG_LOST_* */
	dcg_u32 pad;
};

#define DCG_LOST_BUDGET		1	/* per-thread event budget exceeded */
#define DCG_LOST_BUFFER		2	/* transport or buffer full */
#define DCG_LOST_DEPTH		3	/* shadow stack overflow */

/* Totals at the end of a trace: produced = written + dropped. */
struct dcg_rec_stats {
	struct dcg_rec r;
	dcg_u64 stops;		/* traps or ptrace stops handled */
	dcg_u64 produced;
	dcg_u64 written;
	dcg_u64 dropped;
	dcg_u64 resyncs;	/* synthetic returns made */
	dcg_u64 decode_errors;	/* stops whose insn could not be read or
				 * decoded */
};

/* One in-module edge-table entry (tapset), printed at end. */
struct dcg_rec_edge {
	struct dcg_rec r;
	dcg_u64 caller;		/* function entry of the caller, 0 = root */
	dcg_u64 callee;		/* function entry of the callee */
	dcg_u64 count;
};

/*
 * A context switch inside a kernel window: the traced thread went off
 * the CPU (the scheduler took it out at out_ts on out_cpu) and came
 * back at in_ts on in_cpu; in_ts - out_ts is its time off the CPU.
 * Written when the thread is stepped again, before the events that
 * follow the switch.  at: the last traced insn before the switch (in
 * the scheduler), 0 if unknown.
 */
struct dcg_rec_switch {
	struct dcg_rec r;	/* tid = thread */
	dcg_u64 out_ts;		/* same clock as events */
	dcg_u64 in_ts;		/* >= out_ts */
	dcg_u64 at;
	dcg_u16 out_cpu;
	dcg_u16 in_cpu;
	dcg_u32 pad;
};

/*
 * Interrupts and exceptions taken inside a kernel window, between two
 * stops on the same CPU.  Every IDT gate clears TF, so their handlers
 * are never stepped: the window sees only a longer gap, from start_ts
 * (the stop before, where the thread was interrupted at ip) to end_ts
 * (the stop after).  The counts are the deltas, over that gap, of the
 * counters the kernel keeps per CPU (x86 irq_stat, kstat); at least one
 * of the hard counts (timer, ipi, device, nmi, other) is non-zero.
 * softirq: softirqs run on the way out of those interrupts.  Written
 * at the stop after, before the event that stop reports.
 */
struct dcg_rec_irq {
	struct dcg_rec r;	/* tid = thread */
	dcg_u64 start_ts;	/* same clock as events */
	dcg_u64 end_ts;		/* >= start_ts */
	dcg_u64 ip;		/* where the thread was interrupted */
	dcg_u16 cpu;
	dcg_u16 pad;
	dcg_u32 timer;		/* local timer interrupts */
	dcg_u32 ipi;		/* reschedule, call-function, TLB IPIs */
	dcg_u32 device;		/* device interrupts (irq descriptors) */
	dcg_u32 nmi;
	dcg_u32 other;		/* other system vectors (irq work, ...) */
	dcg_u32 softirq;
	dcg_u32 faults;		/* page faults the thread took (exceptions) */
};

/*
 * What a dcg_rec_irq counted, kind by kind, for every view and the live
 * text: the name of kind @k (< DCG_IRQ_KINDS) and its count in *@n.
 */
#define DCG_IRQ_KINDS	7

static inline const char *dcg_irq_kind(const struct dcg_rec_irq *q,
				       unsigned int k, dcg_u32 *n)
{
	static const char *const names[DCG_IRQ_KINDS] = {
		"timer", "ipi", "device", "nmi", "other", "softirq",
		"page fault",
	};
	const dcg_u32 v[DCG_IRQ_KINDS] = {
		q->timer, q->ipi, q->device, q->nmi, q->other, q->softirq,
		q->faults,
	};

	*n = v[k];
	return names[k];
}

/* Hard interrupts in it: the record marks an "irq", else an "exception". */
static inline dcg_u32 dcg_irq_hard(const struct dcg_rec_irq *q)
{
	return q->timer + q->ipi + q->device + q->nmi + q->other;
}

/*
 * Instruction counts of one thread's window (issue #16), written only
 * when asked for (dcg-trace --annotate, the tapset's
 * dyncg_annotate()): how often each straight-line run of instructions
 * ran.  An entry is a run of ninsns instructions that starts at start
 * and goes on in address order (one in step mode; in the block modes
 * the run from a stop to the branch that left it); the instruction
 * addresses after the first need the code to decode.  A thread's
 * PROFILE records belong to its window that is open or was the last
 * one (its ROOT CALL came before them); a window can have several (the
 * producer's table filled up), the last written after its END events.
 * Over one window: the sum of count * ninsns, plus dropped, is the
 * window's instruction count (the insns of its last event), the same
 * count the events carry, made from the same stops.  The same start
 * may appear in more than one entry (other ninsns, other records).
 */
struct dcg_prof_ent {
	dcg_u64 start;		/* address of the run's first insn */
	dcg_u32 ninsns;		/* >= 1 */
	dcg_u32 pad;
	dcg_u64 count;		/* times the run ran, >= 1 */
};

/* dcg_rec_profile.flags */
#define DCG_PROF_LAST		0x1	/* the window's last PROFILE */
#define DCG_PROF_ALL		0x1	/* every DCG_PROF_* bit */

struct dcg_rec_profile {
	struct dcg_rec r;	/* tid = thread */
	dcg_u64 ts;		/* when it was written */
	dcg_u64 dropped;	/* insns that ran but could not be counted
				 * here (the table was full and could not
				 * be written), since the thread's previous
				 * PROFILE */
	dcg_u32 nent;		/* entries that follow; r.size is
				 * sizeof(this) + nent * sizeof(entry) */
	dcg_u32 flags;		/* DCG_PROF_* */
	/* followed by nent struct dcg_prof_ent */
};

/*
 * Most entries one PROFILE record holds: (DCG_REC_MAX_SIZE - 32) / 24
 * (tools/lib/trace_write.c checks it at compile time).
 */
#define DCG_PROF_MAX_ENT	169

/*
 * Every record's fixed size, as doc/trace-format.md gives it: the
 * format is these bytes, whichever compiler lays the structs out.
 */
_Static_assert(sizeof(struct dcg_rec) == 8, "dcg_rec is 8 bytes");
_Static_assert(sizeof(struct dcg_rec_header) == 56, "HEADER is 56 bytes");
_Static_assert(sizeof(struct dcg_rec_event) == 56, "EVENT is 56 bytes");
_Static_assert(sizeof(struct dcg_ev_args) == 8, "dcg_ev_args is 8 bytes");
_Static_assert(sizeof(struct dcg_ev_str) == 8, "dcg_ev_str is 8 bytes");
_Static_assert(sizeof(struct dcg_rec_map) == 64, "MAP is 64 bytes + path");
_Static_assert(sizeof(struct dcg_rec_ksym) == 24, "KSYM is 24 bytes + name");
_Static_assert(sizeof(struct dcg_rec_thread) == 40, "THREAD is 40 bytes");
_Static_assert(sizeof(struct dcg_rec_lost) == 32, "LOST is 32 bytes");
_Static_assert(sizeof(struct dcg_rec_stats) == 56, "STATS is 56 bytes");
_Static_assert(sizeof(struct dcg_rec_edge) == 32, "EDGE is 32 bytes");
_Static_assert(sizeof(struct dcg_rec_switch) == 40, "SWITCH is 40 bytes");
_Static_assert(sizeof(struct dcg_rec_irq) == 64, "IRQ is 64 bytes");
_Static_assert(sizeof(struct dcg_rec_profile) == 32,
	       "PROFILE is 32 bytes + entries");
_Static_assert(sizeof(struct dcg_prof_ent) == 24, "a PROFILE entry is 24");

/*
 * Record builders: each fills one record's fixed part, every field
 * and pad (none is left as the stack had it), so that the producers
 * (runtime/linux/transport.c, tools/lib/trace_write.c, the test
 * writers) cannot disagree on a field.  What follows a fixed part
 * (a path, a name, registers, entries) and the char arrays (comm,
 * build_id) are the caller's: the builders zero the arrays.  Plain
 * stores, no library call: the kernel module includes this too.
 */
static inline void dcg_rec_init(struct dcg_rec *r, unsigned int type,
				unsigned int size, dcg_u32 tid)
{
	r->type = type;
	r->size = size;
	r->tid = tid;
}

static inline void dcg_zero(void *p, unsigned int n)
{
	unsigned char *b = (unsigned char *)p;

	while (n--)
		*b++ = 0;
}

static inline void dcg_rec_header_fill(struct dcg_rec_header *h,
				       unsigned int host, unsigned int mode,
				       dcg_u32 pid, dcg_u32 flags,
				       dcg_u64 start_ns)
{
	unsigned int i;

	dcg_rec_init(&h->r, DCG_REC_HEADER, sizeof(*h), 0);
	for (i = 0; i < sizeof(h->magic); i++)
		h->magic[i] = DCG_TRACE_MAGIC[i];
	h->version = DCG_TRACE_VERSION;
	h->host = host;
	h->mode = mode;
	h->pid = pid;
	h->flags = flags;
	h->pad = 0;
	h->start_ns = start_ns;
	dcg_zero(h->comm, sizeof(h->comm));
}

/* The fixed 56 bytes; a version 3 register block adds to r.size. */
static inline void dcg_rec_event_fill(struct dcg_rec_event *e, dcg_u32 tid,
				      unsigned int kind, unsigned int flags,
				      dcg_u64 ts, dcg_u64 from, dcg_u64 to)
{
	dcg_rec_init(&e->r, DCG_REC_EVENT, sizeof(*e), tid);
	e->ts = ts;
	e->from = from;
	e->to = to;
	e->sp = 0;
	e->kind = kind;
	e->flags = flags;
	e->cpu = 0;
	e->depth = 0;
	e->insns = 0;
}

/* @size: the fixed part and the path with its NUL, padded to 8. */
static inline void dcg_rec_map_fill(struct dcg_rec_map *m, dcg_u32 pid,
				    unsigned int size, dcg_u64 start,
				    dcg_u64 end, dcg_u64 pgoff,
				    unsigned int prot)
{
	dcg_rec_init(&m->r, DCG_REC_MAP, size, pid);
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	m->build_id_len = 0;
	m->prot = prot;
	dcg_zero(m->pad, sizeof(m->pad));
	dcg_zero(m->build_id, sizeof(m->build_id));
}

/* @size: the fixed part and the name with its NUL, padded to 8. */
static inline void dcg_rec_ksym_fill(struct dcg_rec_ksym *k,
				     unsigned int size, dcg_u64 addr,
				     dcg_u32 symsize, char type)
{
	dcg_rec_init(&k->r, DCG_REC_KSYM, size, 0);
	k->addr = addr;
	k->size = symsize;
	k->type = type;
	dcg_zero(k->pad, sizeof(k->pad));
}

static inline void dcg_rec_thread_fill(struct dcg_rec_thread *t, dcg_u32 tid,
				       dcg_u64 ts, unsigned int what,
				       dcg_u32 pid)
{
	dcg_rec_init(&t->r, DCG_REC_THREAD, sizeof(*t), tid);
	t->ts = ts;
	t->what = what;
	t->pid = pid;
	dcg_zero(t->comm, sizeof(t->comm));
}

static inline void dcg_rec_lost_fill(struct dcg_rec_lost *l, dcg_u32 tid,
				     dcg_u64 ts, dcg_u64 count,
				     unsigned int reason)
{
	dcg_rec_init(&l->r, DCG_REC_LOST, sizeof(*l), tid);
	l->ts = ts;
	l->count = count;
	l->reason = reason;
	l->pad = 0;
}

/* Everything but the totals, which the caller sets. */
static inline void dcg_rec_stats_fill(struct dcg_rec_stats *s)
{
	dcg_rec_init(&s->r, DCG_REC_STATS, sizeof(*s), 0);
	s->stops = 0;
	s->produced = 0;
	s->written = 0;
	s->dropped = 0;
	s->resyncs = 0;
	s->decode_errors = 0;
}

static inline void dcg_rec_edge_fill(struct dcg_rec_edge *e, dcg_u64 caller,
				     dcg_u64 callee, dcg_u64 count)
{
	dcg_rec_init(&e->r, DCG_REC_EDGE, sizeof(*e), 0);
	e->caller = caller;
	e->callee = callee;
	e->count = count;
}

static inline void dcg_rec_switch_fill(struct dcg_rec_switch *w, dcg_u32 tid,
				       dcg_u64 out_ts, dcg_u16 out_cpu,
				       dcg_u64 in_ts, dcg_u16 in_cpu,
				       dcg_u64 at)
{
	dcg_rec_init(&w->r, DCG_REC_SWITCH, sizeof(*w), tid);
	w->out_ts = out_ts;
	w->in_ts = in_ts;
	w->at = at;
	w->out_cpu = out_cpu;
	w->in_cpu = in_cpu;
	w->pad = 0;
}

/* The counts are zero: the caller sets those that are not. */
static inline void dcg_rec_irq_fill(struct dcg_rec_irq *q, dcg_u32 tid,
				    dcg_u64 start_ts, dcg_u64 end_ts,
				    dcg_u64 ip, dcg_u16 cpu)
{
	dcg_rec_init(&q->r, DCG_REC_IRQ, sizeof(*q), tid);
	q->start_ts = start_ts;
	q->end_ts = end_ts;
	q->ip = ip;
	q->cpu = cpu;
	q->pad = 0;
	q->timer = 0;
	q->ipi = 0;
	q->device = 0;
	q->nmi = 0;
	q->other = 0;
	q->softirq = 0;
	q->faults = 0;
}

/* r.size covers @nent entries, which the caller writes after it. */
static inline void dcg_rec_profile_fill(struct dcg_rec_profile *p,
					dcg_u32 tid, dcg_u64 ts,
					dcg_u64 dropped, dcg_u32 nent,
					unsigned int flags)
{
	dcg_rec_init(&p->r, DCG_REC_PROFILE,
		     sizeof(*p) + nent * sizeof(struct dcg_prof_ent), tid);
	p->ts = ts;
	p->dropped = dropped;
	p->nent = nent;
	p->flags = flags;
}

#endif /* DCG_EVENT_H */
