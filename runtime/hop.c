// SPDX-License-Identifier: GPL-2.0
/*
 * hop.c - hop mode: which insns to arm at a stop, and how many insns
 * ran when the thread comes back.  Freestanding: see dcg_compat.h.
 * The rules are in doc/classifier.md ("Hop mode").
 */
#include "dcg_hop.h"

#define FETCH		64
#define MAX_BLOCKS	64	/* jump targets one plan may explore */

/* Target code, read FETCH bytes at a time (one callback per run). */
struct hop_code {
	const struct dcg_host_ops *ops;
	dcg_u64 base;
	unsigned int avail;
	int short_read;
	dcg_u8 buf[FETCH];
};

/* Decode the insn at @addr: 0, or <0 when unreadable or invalid. */
static int hop_decode(struct hop_code *c, dcg_u64 addr, struct dcg_insn *in)
{
	dcg_u64 off = addr - c->base;
	int n = 0, r;

	if (addr < c->base || off >= c->avail ||
	    (c->avail - off < DCG_INSN_MAX_LEN && !c->short_read)) {
		if (c->ops && c->ops->read)
			n = c->ops->read(c->ops->ctx, addr, c->buf, FETCH);
		if (n < 0)
			n = 0;
		if (n > FETCH)
			n = FETCH;
		c->base = addr;
		c->avail = n;
		c->short_read = n < FETCH;
		off = 0;
	}
	if (off >= c->avail)
		return -1;
	r = dcg_insn_decode(c->buf + off, c->avail - off, addr, in);
	return r > 0 ? 0 : -1;
}

/*
 * Not branches, but never run natively: ud0/ud1/ud2 (0f ff, 0f b9,
 * 0f 0b) never complete (stepped, the fault is seen where it happens),
 * and popf (9d) may set the program's own TF, which the host must see
 * with a step (tools/dcg-trace/tracee_flags.c).
 */
static int not_native(const dcg_u8 *b, unsigned int len)
{
	unsigned int i = 0;

	while (i < len && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf0 ||
			   b[i] == 0xf2 || b[i] == 0xf3 || b[i] == 0x2e ||
			   b[i] == 0x36 || b[i] == 0x3e || b[i] == 0x26 ||
			   b[i] == 0x64 || b[i] == 0x65 ||
			   (b[i] & 0xf0) == 0x40))
		i++;
	if (i < len && b[i] == 0x9d)
		return 1;
	return i + 1 < len && b[i] == 0x0f &&
	       (b[i + 1] == 0x0b || b[i + 1] == 0xb9 || b[i + 1] == 0xff);
}

/* Must the engine see the insn at @addr run (stepped)? */
static int insn_interesting(const struct hop_code *c, dcg_u64 addr,
			    const struct dcg_insn *in)
{
	if (in->branch != DCG_BR_OTHER)
		return 1;
	/*
	 * A rep string insn runs natively and counts one, as in the block
	 * modes: stepped, it would stop once per iteration (8,092 of the
	 * 24,300 stops of bench/run's sqlite3 job were one rep stosb).
	 */
	return not_native(c->buf + (addr - c->base), in->len);
}

/* The walk over the function's own jumps (dcg_hop_plan). */
struct explore {
	struct hop_code code;
	dcg_u64 lo, hi;		/* the function of the stop */
	unsigned int nregs;
	unsigned int budget;	/* insns left to decode */
	dcg_u64 todo[MAX_BLOCKS];
	unsigned int ntodo;
	dcg_u64 seen[MAX_BLOCKS];
	unsigned int nseen;
	struct dcg_hop_plan *plan;
	dcg_u64 ip;		/* the stop: never armed */
	struct dcg_hop_plan snap;	/* the last frontier that fit */
};

/*
 * The interesting insns found so far, the jump targets not walked yet,
 * and @here (the walk's position, 0 for none), when they fit: a plan
 * too (a hit on a target is no transfer, the host plans again there
 * without a step).  Kept in e->snap.
 */
static void snapshot(struct explore *e, dcg_u64 here)
{
	const struct dcg_hop_plan *p = e->plan;
	unsigned int i, n = p->n + e->ntodo + (here != 0);

	if (n > e->nregs || n == 0 || here == e->ip)
		return;
	for (i = 0; i < e->ntodo; i++)
		if (e->todo[i] == e->ip)
			return;
	for (i = 0; i < p->n; i++)
		if (p->addr[i] == e->ip)
			return;
	e->snap = *p;
	for (i = 0; i < e->ntodo; i++)
		e->snap.addr[e->snap.n++] = e->todo[i];
	if (here)
		e->snap.addr[e->snap.n++] = here;
}

static int seen(const struct explore *e, dcg_u64 addr)
{
	unsigned int i;

	for (i = 0; i < e->nseen; i++)
		if (e->seen[i] == addr)
			return 1;
	return 0;
}

/* Arm @addr.  <0: the set does not fit. */
static int add_interesting(struct explore *e, dcg_u64 addr)
{
	struct dcg_hop_plan *p = e->plan;
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (p->addr[i] == addr)
			return 0;
	if (p->n >= e->nregs)
		return -1;
	p->addr[p->n++] = addr;
	return 0;
}

/* A jump inside the function (not to its entry: that is a tail call). */
static int inside(const struct explore *e, dcg_u64 addr)
{
	return addr > e->lo && addr < e->hi;
}

static int add_block(struct explore *e, dcg_u64 addr)
{
	unsigned int i;

	if (seen(e, addr))
		return 0;
	for (i = 0; i < e->ntodo; i++)
		if (e->todo[i] == addr)
			return 0;
	if (e->ntodo == MAX_BLOCKS)
		return -1;
	e->todo[e->ntodo++] = addr;
	return 0;
}

/* Walk one straight line from @addr.  <0: give up on the set. */
static int walk_block(struct explore *e, dcg_u64 addr)
{
	struct dcg_insn in;
	dcg_u64 start = addr;

	for (;;) {
		if (addr != start && seen(e, addr))
			return 0;	/* joins a line already walked */
		if (addr != e->lo && !inside(e, addr))
			return add_interesting(e, addr);
		if (e->budget == 0)
			return -1;
		e->budget--;
		e->plan->walked++;
		if (hop_decode(&e->code, addr, &in) < 0)
			return add_interesting(e, addr);
		if ((in.branch == DCG_BR_JCC || in.branch == DCG_BR_LOOP) &&
		    (in.flags & DCG_INSN_HAS_TARGET) && inside(e, in.target)) {
			if (add_block(e, in.target) < 0)
				return -1;
			addr += in.len;
			snapshot(e, addr);
			continue;
		}
		if (in.branch == DCG_BR_JMP && (in.flags & DCG_INSN_HAS_TARGET) &&
		    inside(e, in.target))
			return add_block(e, in.target);
		if (insn_interesting(&e->code, addr, &in))
			return add_interesting(e, addr);
		addr += in.len;
	}
}

/*
 * DCG_HOP_SET: 0 when the whole set fits, or failing that a frontier
 * (snapshot()) does; <0 otherwise.
 */
static int plan_set(dcg_u64 ip, unsigned int nregs,
		    const struct dcg_host_ops *ops, struct dcg_hop_plan *p)
{
	struct explore e;
	dcg_u64 addr;
	int r;

	if (!ops || !ops->func_bounds ||
	    ops->func_bounds(ops->ctx, ip, &e.lo, &e.hi) != 0 ||
	    ip < e.lo || ip >= e.hi)
		return -1;
	e.code.ops = ops;
	e.code.base = 0;
	e.code.avail = 0;
	e.code.short_read = 0;
	e.nregs = nregs;
	e.budget = DCG_HOP_MAX_INSNS;
	e.ntodo = 0;
	e.nseen = 0;
	e.plan = p;
	e.ip = ip;
	e.snap.n = 0;
	e.todo[e.ntodo++] = ip;
	while (e.ntodo > 0) {
		addr = e.todo[--e.ntodo];
		if (seen(&e, addr))
			continue;
		r = e.nseen == MAX_BLOCKS ? -1 : 0;
		if (r == 0) {
			e.seen[e.nseen++] = addr;
			r = walk_block(&e, addr);
		}
		if (r < 0) {
			if (!e.snap.n)
				return -1;
			e.snap.walked = p->walked;
			*p = e.snap;
			return 0;
		}
		snapshot(&e, 0);
	}
	/* the insn at ip itself cannot be armed: the hit would be at once */
	for (addr = 0; addr < p->n; addr++)
		if (p->addr[addr] == ip)
			return -1;
	return p->n ? 0 : -1;
}

/* DCG_HOP_NEXT: the first branch of any kind after ip, or 0. */
static dcg_u64 next_branch(dcg_u64 ip, const struct dcg_host_ops *ops,
			   struct dcg_hop_plan *p)
{
	struct hop_code c = { .ops = ops };
	struct dcg_insn in;
	dcg_u64 addr = ip;
	unsigned int n;

	for (n = 0; n < DCG_HOP_MAX_INSNS; n++) {
		p->walked++;
		if (hop_decode(&c, addr, &in) < 0 ||
		    insn_interesting(&c, addr, &in))
			return addr == ip ? 0 : addr;
		addr += in.len;
	}
	return 0;	/* too far: step, the next stop plans again */
}

DCG_API int dcg_hop_plan(dcg_u64 ip, unsigned int nregs, unsigned int flags,
			 const struct dcg_host_ops *ops,
			 struct dcg_hop_plan *p)
{
	dcg_u64 next;

	if (nregs > DCG_HOP_MAX)
		nregs = DCG_HOP_MAX;
	p->pad = 0;
	p->walked = 0;
	p->n = 0;
	p->kind = DCG_HOP_STEP;
	if (nregs == 0)
		return p->kind;
	if (!(flags & DCG_HOP_STRAIGHT) && plan_set(ip, nregs, ops, p) == 0) {
		p->kind = DCG_HOP_SET;
		return p->kind;
	}
	p->n = 0;
	next = next_branch(ip, ops, p);
	if (next) {
		p->kind = DCG_HOP_NEXT;
		p->n = 1;
		p->addr[0] = next;
	}
	return p->kind;
}

DCG_API dcg_u32 dcg_hop_count(dcg_u64 from, dcg_u64 to,
			      const struct dcg_host_ops *ops, int *exact)
{
	struct hop_code c = { .ops = ops };
	struct dcg_insn in;
	dcg_u64 addr = from;
	dcg_u32 n;

	*exact = 0;
	for (n = 0; n < DCG_WALK_MAX_INSNS; n++) {
		if (addr == to) {
			*exact = 1;
			return n;
		}
		if (hop_decode(&c, addr, &in) < 0)
			return n;
		if (in.branch != DCG_BR_OTHER)
			return n + 1;	/* and the branch */
		addr += in.len;
	}
	return n;
}

DCG_API int dcg_thread_hop(struct dcg_thread *t, dcg_u64 ip, dcg_u64 sp,
			   const struct dcg_host_ops *ops)
{
	int exact = 1;

	t->stats.stops++;
	/*
	 * The run goes into the profile (--annotate) as the straight line
	 * it was, or the part of it known; the next event says which.
	 */
	if (t->have_prev)
		dcg_thread_count(t, t->prev_ip,
				 dcg_hop_count(t->prev_ip, ip, ops, &exact), ops);
	if (!exact)
		t->inexact = 1;
	t->have_prev = 1;
	t->prev_ip = ip;
	t->prev_sp = sp;
	return exact;
}
