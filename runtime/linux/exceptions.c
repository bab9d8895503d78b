// SPDX-License-Identifier: GPL-2.0
/*
 * exceptions.c - the page faults a kernel window's traced code takes.
 *
 * Every IDT gate clears TF, so a #PF taken by a stepped instruction
 * (copy_to_user into a page not yet touched) is never stepped: the
 * window sees only a longer gap before the instruction's stop.  Unlike
 * interrupts, the kernel keeps no per-CPU count of exceptions, and the
 * task's min_flt/maj_flt are no help: get_user_pages() moves them from
 * stepped code, with no exception at all.  The exceptions tracepoint
 * page_fault_kernel fires in the #PF handler for every fault taken in
 * kernel mode, with the same prototype on 5.10 to 7.x (arch/x86 up to
 * 6.x, include/trace/events/exceptions.h on 7.x).
 *
 * Its probe counts a fault for the current task's kernel window only
 * while the window is ARMED: the traced code ran into it.  In our own
 * #DB handler (INTRAP) a fault is ours: copy_from_user_nofault() of an
 * argument string.  The counter is the task's own, written in its #PF
 * and read at its next stop (kernel_trap.c), so it needs no atomics.
 *
 * Registering sleeps: a work queued at probe begin does it, before any
 * program has started under staprun -c; a window that opens before the
 * work ran is counted as such (dcg_k.fault_blind) and its faults are
 * not.  Unregistered at teardown, in process context.
 */

static struct tracepoint *dcg_exc_tp;
static int dcg_exc_live;		/* the probe is in place */

static void dcg_exc_page_fault(void *data, unsigned long address,
			       struct pt_regs *regs, unsigned long error_code)
{
	struct dcg_kwin *kw = dcg_kwin_find(current);

	if (kw && atomic_read(&kw->state) == DCG_KW_ARMED)
		WRITE_ONCE(kw->exc_faults, kw->exc_faults + 1);
}

static void dcg_exc_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "page_fault_kernel"))
		dcg_exc_tp = tp;
}

static void dcg_exc_register_fn(struct work_struct *w)
{
	if (READ_ONCE(dcg_k.stopping) || dcg_exc_live)
		return;
	for_each_kernel_tracepoint(dcg_exc_find, NULL);
	if (!dcg_exc_tp ||
	    tracepoint_probe_register(dcg_exc_tp, dcg_exc_page_fault, NULL)) {
		pr_warn("dyncg: no page_fault_kernel tracepoint: page faults inside kernel windows are not counted\n");
		return;
	}
	smp_store_release(&dcg_exc_live, 1);
}

static DECLARE_WORK(dcg_exc_work, dcg_exc_register_fn);

/* Probe begin (atomic context): the registration goes to a work. */
static void dcg_exc_begin(void)
{
	schedule_work(&dcg_exc_work);
}

/* Whether a window opening now has its faults counted. */
static int dcg_exc_counting(void)
{
	return smp_load_acquire(&dcg_exc_live);
}

/* Teardown, process context, after the last window closed. */
static void dcg_exc_teardown(void)
{
	flush_work(&dcg_exc_work);
	if (!dcg_exc_live)
		return;
	WRITE_ONCE(dcg_exc_live, 0);
	tracepoint_probe_unregister(dcg_exc_tp, dcg_exc_page_fault, NULL);
	tracepoint_synchronize_unregister();
}
