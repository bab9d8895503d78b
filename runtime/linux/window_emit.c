// SPDX-License-Identifier: GPL-2.0
/*
 * window_emit.c - what user and kernel windows share at a stop: the
 * clock, the registers the events carry, and the engine's emit
 * callback (edge table, budget, registers after the event, transport).
 */
#include <linux/timekeeping.h>

static u64 dcg_now_ns(void)
{
	return ktime_get_mono_fast_ns();
}

/* Function of the frame at @depth (1 = root): 0 if outside the stack. */
static u64 dcg_frame_func(struct dcg_slot *s, u32 depth)
{
	if (depth < 1 || depth - 1 >= s->engine.shadow.cap)
		return 0;
	return s->engine.shadow.frames[depth - 1].func;
}

/*
 * The edge an event adds to the table: a CALL's caller is the frame
 * below the new one; a tail call's is the frame it replaces, which the
 * core still names when it emits (runtime/thread.c), so the callee
 * nests under the function that jumped, as in ftrace and dcg-report.
 */
static u64 dcg_edge_caller(struct dcg_slot *s, const struct dcg_rec_event *e)
{
	if (e->kind == DCG_EV_TAILCALL)
		return dcg_frame_func(s, e->depth);
	return e->depth ? dcg_frame_func(s, e->depth - 1) : 0;
}

/*
 * The registers of a stop, for the events the engine emits during it
 * (runtime/args.c decides which take them).  Both window kinds set
 * them before every call into the engine that can emit.
 */
static void dcg_regs_from(struct dcg_regs *r, const struct pt_regs *regs)
{
	r->ip = regs->ip;
	r->arg[0] = regs->di;
	r->arg[1] = regs->si;
	r->arg[2] = regs->dx;
	r->arg[3] = regs->cx;
	r->arg[4] = regs->r8;
	r->arg[5] = regs->r9;
	r->ret[0] = regs->ax;
	r->ret[1] = regs->dx;
}

/*
 * Strings are read in user memory only, whatever the window: a kernel
 * pointer may lead to device memory, where a read is not harmless; the
 * user one is the "char __user *" the issue is about.  No fault, no
 * sleep (nofault.c).
 */
static int dcg_read_str(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	return dcg_read_nofault(addr, buf, len, false);
}

static void dcg_emit(void *ctx, const struct dcg_rec_event *ev)
{
	struct dcg_slot *s = ctx;
	struct dcg_rec_event *e = (struct dcg_rec_event *)s->evbuf;

	*e = *ev;
	e->r.type = DCG_REC_EVENT;
	e->r.size = sizeof(*e);
	e->r.tid = s->tid;
	e->cpu = raw_smp_processor_id();
	s->produced++;
	atomic64_inc(&dcg_g.events);
	if (e->kind == DCG_EV_CALL || e->kind == DCG_EV_TAILCALL)
		dcg_edge_add(dcg_edge_caller(s, e), e->to);
	if (s->produced > s->budget) {
		s->dropped++;
		atomic64_inc(&dcg_g.dropped);
		return;
	}
	if (dcg_g.args.nargs || dcg_g.args.nrets)
		dcg_ev_regs_append(e, sizeof(s->evbuf), &dcg_g.args, &s->regs,
				   dcg_read_str, s);
	dcg_out_event(s, e);
}
