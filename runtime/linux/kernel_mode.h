/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel_mode.h - kernel-mode windows: dynamic_call_graph(1) called
 * from a kprobe (kprobe.function, kernel.function) steps the kernel
 * code the current task runs from the probed function on.
 *
 * One mechanism per file, all in the one translation unit of dyncg.c:
 *   kernel_syms.c    function bounds, own-text test, KSYM records
 *   sched_hooks.c    preempt notifiers: TF moves with the task
 *   kernel_trap.c    the kernel-mode DIE_DEBUG handler (NMI-like)
 *   kernel_window.c  open (kprobe), close (.return), the return-to-user
 *                    guard, and teardown
 * doc/kernel-mode.md states the rules these files keep.
 *
 * A kernel window reuses struct dcg_slot for the engine, the budget and
 * the counters, so that window.c's emit path, the transport and the
 * edge table serve both kinds of window.  Kernel windows live in their
 * own small array: the user-mode code never sees them.
 */
#ifndef DCG_KERNEL_MODE_H
#define DCG_KERNEL_MODE_H

#include <linux/preempt.h>
#include <linux/task_work.h>

/* Tasks in a kernel window at the same time (stap -DDCG_MAX_KTASKS=N). */
#ifndef DCG_MAX_KTASKS
#define DCG_MAX_KTASKS		16
#endif

/*
 * Kernel window states.  Only the window's own task moves it between
 * ARMED, INTRAP, PAUSED, DRAINED and CLOSED (from its probes, its traps,
 * its preempt notifiers and its guard work); claiming a FREE window and
 * probe end use cmpxchg.
 */
enum dcg_kwin_state {
	DCG_KW_FREE = 0,
	DCG_KW_BUSY,		/* being claimed, closed or released */
	DCG_KW_ARMED,		/* TF live (or in a saved frame): traps come */
	DCG_KW_INTRAP,		/* ARMED, and its #DB handler runs */
	DCG_KW_PAUSED,		/* switched out; TF comes back at sched_in */
	DCG_KW_DRAINED,		/* the root returned: TF is off */
	DCG_KW_CLOSED,		/* events finished; waits for the guard */
};

struct dcg_kwin {
	atomic_t state;			/* enum dcg_kwin_state */
	struct dcg_slot s;		/* engine, ops, budget, counters, task */

	struct preempt_notifier pn;	/* on s.task's list while linked */
	struct callback_head guard;	/* task work: return to user / exit */
	u8 pn_linked;			/* pn is on the task's list */
	u8 tf_was_live;			/* sched_out took a live TF away */
	u8 syncing;			/* waiting for the probed insn's end */
	u8 in_own;			/* last stop was in this module's text */
	u8 sw_pending;			/* a switch to write at the next stop */
	u16 sw_out_cpu, sw_in_cpu;	/* the switch: CPUs on both sides */
	u64 sw_out_ts, sw_in_ts;	/* and when */

	/*
	 * Interrupts (kernel_trap.c): the CPU's counters at the last stop,
	 * where and when it was; irq_base is 0 until a stop set them (and
	 * again after a switch).
	 */
	u8 irq_base;
	u16 irq_cpu;
	u64 irq_ts, irq_ip;
	struct dcg_irqc irq_last;
	u64 irqs;			/* this window's interrupts */
	u64 irq_gaps;			/* its gaps that held some */
	unsigned long exc_faults;	/* exceptions.c: its page faults */
	unsigned long flt_last;		/* exc_faults at the last stop */
	u64 faults;			/* this window's page faults */
	u64 fault_gaps;			/* its gaps that held some */

	u64 own_stops;			/* stops in this module's text */
	u64 sync_stops;			/* stops before the probe returned */
};

struct dcg_kglobals {
	int ready;			/* preempt notifier key enabled */
	int stopping;			/* probe end: no new window, TF goes */
	int key_taken;			/* preempt_notifier_inc() done */
	atomic_t guards;		/* guard works queued or running */
	atomic64_t windows;
	atomic64_t stops;		/* our kernel traps, all windows */
	atomic64_t tail_traps;		/* TF cleared after a window ended */
	atomic64_t own_stops;		/* traps in this module's text */
	atomic64_t sync_stops;		/* traps in the probe's trampoline */
	atomic64_t drained;		/* windows ended by the root's return */
	atomic64_t by_guard;		/* windows ended at return to user */
	atomic64_t sched_out;		/* TF taken away at a switch */
	atomic64_t sched_in;		/* TF given back */
	atomic64_t nested;		/* dynamic_call_graph(1) inside one */
	atomic64_t refused;		/* kthread, no slot, not ready */
	atomic64_t aborted;		/* ended by probe end */
	atomic64_t ksyms;		/* KSYM records written */
	atomic64_t irqs;		/* interrupts inside windows */
	atomic64_t irq_gaps;		/* gaps between stops that held some */
	atomic64_t irq_windows;		/* windows with at least one */
	atomic64_t irq_max;		/* most in one window */
	atomic64_t irq_kinds[6];	/* timer ipi device nmi other softirq */
	atomic64_t faults;		/* page faults inside windows */
	atomic64_t fault_gaps;		/* gaps between stops that held some */
	atomic64_t fault_windows;	/* windows with at least one */
	atomic64_t fault_max;		/* most in one window */
	atomic64_t fault_blind;		/* opened before exceptions.c could count */
};


static struct dcg_kglobals dcg_k;
static struct dcg_kwin dcg_kwins[DCG_MAX_KTASKS];

/* exceptions.c */
static void dcg_exc_begin(void);
static int dcg_exc_counting(void);
static void dcg_exc_teardown(void);

/* kernel_syms.c */
static void dcg_ksyms_init(void);
static int dcg_kread(void *ctx, dcg_u64 addr, void *buf, unsigned int len);
static int dcg_kfunc_bounds(void *ctx, dcg_u64 addr, dcg_u64 *start,
			    dcg_u64 *end);
static int dcg_kaddr_is_own(unsigned long ip);
static void dcg_ksym_note(u64 addr);
static const char *dcg_ksym_text(u64 addr, char *out, size_t len);
static const char *dcg_ksym_text_off(u64 addr, char *out, size_t len);
static void dcg_ksyms_write(void);

/* sched_hooks.c */
static void dcg_sched_attach(struct dcg_kwin *kw);
static void dcg_sched_detach(struct dcg_kwin *kw);
static void dcg_sched_key_get(void);
static void dcg_sched_key_put(void);

/* kernel_trap.c */
static int dcg_kernel_debug(struct pt_regs *regs, unsigned long *dr6p);

/* kernel_window.c */
static struct dcg_kwin *dcg_kwin_find(struct task_struct *t);
static void dcg_kernel_begin(void);
static void dcg_kernel_end(void);
static void dcg_kernel_teardown(void);

#endif /* DCG_KERNEL_MODE_H */
