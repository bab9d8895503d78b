// SPDX-License-Identifier: GPL-2.0
/*
 * view-trace.c - the call/return flow, indented by depth, in the manner
 * of DTrace -F and SystemTap's para-callgraph.stp:
 *
 *         TIME     TID  FUNCTION
 *            0     100  -> main
 *           10     100    -> foo [indirect]
 *           25     100    <- foo (15 ns, 120 insns)
 *
 * TIME is ns from the trace start.  A kernel trace has a CPU column
 * after TIME, as ftrace's function_graph: the CPU each event happened
 * on (a task moves between CPUs at a context switch).  A return says
 * how long the call took (with its unit; times include tracing
 * overhead) and how many instructions it executed, callees included.
 * Arrows: "->" call, "=>" tail call (nested under the function that
 * jumped), "~>" async entry (signal handler,
 * interrupt).  Returns that the tracer made up or could not match are
 * tagged: [synthetic] (shadow-stack resync after longjmp, unwinding,
 * sigreturn), [end] (window closed), [unmatched] (returned above the
 * start), [no return seen] (the trace ended or lost sync first).
 * A context switch in a kernel trace is one line, as ftrace's "=>"
 * switch lines, at the time the thread came back:
 *     306396   1     100      ==> switch: out on CPU 0 at 29058 ns, in on CPU 1, 277338 ns off CPU
 * indented as a child of the innermost frame shown.  Interrupts taken
 * between two stops are one line too, as ftrace's "==========>" marks,
 * at the time of the stop before:
 *     2201460   0     100        ==========> irq: timer 1, softirq 1, at vfs_read+0x1c, 412000 ns
 * Indentation stops at INDENT_LEVELS levels; deeper lines start with
 * "[depth N]" instead.  A gap of several lost levels shows as one
 * "[unknown] [lost, N frames]".
 * A trace with register blocks (version 3) shows each call's arguments
 * as the source would, "-> open_file(path=\"/etc/x\", flags=0)", and
 * each return's value, "<- open_file = -2 (15 ns)" (args.c).
 * With --srcline a call shows the call site ("from file:line"); with
 * --inline, the inlined functions the call site lies in, innermost
 * first.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static int kernel_trace(const struct report *rp)
{
	return rp->rd.have_header && (rp->rd.header.flags & DCG_HDR_KERNEL);
}

static void line_start(struct report *rp, dcg_u32 tid, dcg_u64 ts,
		       unsigned int cpu, dcg_u32 vdepth)
{
	fprintf(rp->out, "%12llu ", (unsigned long long)rel_ts(rp, ts));
	if (kernel_trace(rp))
		fprintf(rp->out, "%3u ", cpu);
	fprintf(rp->out, "%7u  ", tid);
	indent(rp, vdepth);
}

static void print_srcinfo(struct report *rp, dcg_u64 at)
{
	const struct dcg_symbol *s;

	if (!rp->sym || (!rp->o->sym.srcline && !rp->o->sym.inlines) || !at)
		return;
	s = dcg_sym_lookup(rp->sym, at);
	if (s->srcline)
		fprintf(rp->out, " from %s", s->srcline);
	if (s->inlined)
		fprintf(rp->out, " [inlined: %s]", s->inlined);
}

static int start(struct report *rp)
{
	const struct dcg_rec_header *h = &rp->rd.header;

	if (rp->rd.have_header)
		fprintf(rp->out, "# dyncg trace: pid %u (%.16s), host %s, mode %s%s\n",
			h->pid, h->comm,
			h->host == DCG_HOST_STAP ? "stap" : "ptrace",
			dcg_mode_name(h->mode),
			h->flags & DCG_HDR_KERNEL ? ", kernel" : "");
	print_cost_note(rp, "# ");
	if (kernel_trace(rp))
		fprintf(rp->out, "%12s %3s %7s  %s\n", "TIME(ns)", "CPU", "TID",
			"FUNCTION");
	else
		fprintf(rp->out, "%12s %7s  %s\n", "TIME(ns)", "TID",
			"FUNCTION");
	return 0;
}

static void enter(struct report *rp, struct thread *t, struct frame *f)
{
	const struct dcg_rec_event *ev = &f->ev;
	const char *arrow = "->";
	struct name_buf nb;

	if (f->placeholder) {
		/* at its outermost level, the gap it fills in brackets */
		line_start(rp, t->tid, ev->ts, ev->cpu,
			   f->vdepth - f->span + 1);
		if (f->span > 1)
			fprintf(rp->out, "-> [unknown] [lost, %u frames]\n",
				f->span);
		else
			fputs("-> [unknown] [lost]\n", rp->out);
		return;
	}
	line_start(rp, t->tid, ev->ts, ev->cpu, f->vdepth);
	if (ev->kind == DCG_EV_TAILCALL)
		arrow = "=>";
	else if (ev->kind == DCG_EV_ASYNC)
		arrow = "~>";
	fprintf(rp->out, "%s %s", arrow, func_name(rp, ev->to, &nb));
	if (f->args) {
		char *a = args_paren(rp, f);

		fputs(a, rp->out);
		free(a);
	}
	if (ev->kind == DCG_EV_ASYNC)
		fputs(" [async]", rp->out);
	if (f->plt)
		fputs(" [plt]", rp->out);
	if (ev->flags & DCG_EVF_INDIRECT)
		fputs(" [indirect]", rp->out);
	if (ev->flags & DCG_EVF_SKIPPED)
		fputs(" [skipped]", rp->out);
	if (ev->flags & DCG_EVF_OVERFLOW)
		fputs(" [overflow]", rp->out);
	if (ev->kind != DCG_EV_ASYNC && !(ev->flags & DCG_EVF_ROOT))
		print_srcinfo(rp, ev->from);
	putc('\n', rp->out);
}

static void leave(struct report *rp, struct thread *t, struct frame *f,
		  const struct dcg_rec_event *ret, dcg_u64 end_ts,
		  dcg_u64 insns)
{
	dcg_u64 dur = end_ts >= f->ev.ts ? end_ts - f->ev.ts : 0;
	char buf[32], rv[8192];
	struct name_buf nb;

	line_start(rp, t->tid, end_ts, ret ? ret->cpu : f->ev.cpu,
		   f->vdepth - f->span + 1);
	fprintf(rp->out, "<- %s",
		f->placeholder ? "[unknown]" : func_name(rp, f->ev.to, &nb));
	if (retval_text(rp, f, rv, sizeof(rv)))
		fprintf(rp->out, " = %s", rv);
	fprintf(rp->out, " (%s", fmt_dur(dur, buf, sizeof(buf)));
	if (have_insns(rp))
		fprintf(rp->out, ", %llu insns", (unsigned long long)insns);
	putc(')', rp->out);
	if (!ret)
		fputs(" [no return seen]", rp->out);
	else if (ret->flags & DCG_EVF_SYNTHETIC)
		fputs(" [synthetic]", rp->out);
	if (ret && (ret->flags & DCG_EVF_END))
		fputs(" [end]", rp->out);
	putc('\n', rp->out);
}

static void orphan(struct report *rp, struct thread *t,
		   const struct dcg_rec_event *ev)
{
	struct name_buf nb;

	line_start(rp, t->tid, ev->ts, ev->cpu, 1);
	fprintf(rp->out, "<- %s [unmatched]\n",
		func_base_name(rp, ev->from, &nb));
}

static void on_switch(struct report *rp, struct thread *t,
		      const struct dcg_rec_switch *sw)
{
	dcg_u32 vdepth = 1;	/* inside the innermost frame shown */
	dcg_s32 i = (dcg_s32)t->depth - 1;

	if (i >= 0 && !t->stack[i].visible)
		i = t->stack[i].vparent;
	if (i >= 0)
		vdepth = t->stack[i].vdepth + 1;
	line_start(rp, t->tid, sw->in_ts, sw->in_cpu, vdepth);
	fprintf(rp->out,
		"==> switch: out on CPU %u at %llu ns, in on CPU %u, %llu ns off CPU\n",
		sw->out_cpu, (unsigned long long)rel_ts(rp, sw->out_ts),
		sw->in_cpu, (unsigned long long)(sw->in_ts - sw->out_ts));
}

/*
 * Interrupts or exceptions between two stops: one line, as ftrace's
 * "==========>" marks, at the time of the stop before, the kinds that
 * are non-zero, where the thread was interrupted and the gap.
 */
static void on_irq(struct report *rp, struct thread *t,
		   const struct dcg_rec_irq *q)
{
	dcg_u32 vdepth = 1;	/* inside the innermost frame shown */
	dcg_s32 i = (dcg_s32)t->depth - 1;
	struct name_buf nb;
	unsigned int k;

	if (i >= 0 && !t->stack[i].visible)
		i = t->stack[i].vparent;
	if (i >= 0)
		vdepth = t->stack[i].vdepth + 1;
	line_start(rp, t->tid, q->start_ts, q->cpu, vdepth);
	fprintf(rp->out, "==========> %s: ",
		dcg_irq_hard(q) ? "irq" : "exception");
	for (k = 0; k < DCG_IRQ_KINDS; k++) {
		dcg_u32 n;
		const char *name = dcg_irq_kind(q, k, &n);

		if (n)
			fprintf(rp->out, "%s %u, ", name, n);
	}
	fprintf(rp->out, "at %s, %llu ns\n", func_name(rp, q->ip, &nb),
		(unsigned long long)(q->end_ts - q->start_ts));
}

static int finish(struct report *rp)
{
	print_footer(rp, "# ");
	return 0;
}

const struct view view_trace = {
	.name = "trace", .start = start, .enter = enter, .leave = leave,
	.orphan = orphan, .on_switch = on_switch, .on_irq = on_irq,
	.finish = finish,
};
