// SPDX-License-Identifier: GPL-2.0
/*
 * trap_flag.c - EFLAGS.TF and DEBUGCTL.BTF of one traced task.
 *
 * TF makes the CPU raise #DB after every user instruction; with BTF as
 * well, only after taken branches.  The user-visible copy of EFLAGS of a
 * task in the kernel is in task_pt_regs(): the iret back to user mode
 * loads it.  BTF lives in an MSR, not in the task: the kernel keeps it
 * per task through TIF_BLOCKSTEP, which __switch_to_xtra() turns into
 * the MSR bit at every context switch.  The CPU clears BTF on each #DB,
 * and exc_debug_user() clears TIF_BLOCKSTEP to match, so block mode has
 * to be armed again at every trap.
 *
 * The kernel's own helper (user_enable_block_step() in
 * arch/x86/kernel/step.c) is not exported, and it also sets ptrace's
 * TIF_SINGLESTEP/TIF_FORCED_TF bookkeeping, which must stay the
 * debugger's.  So this file does the two steps that matter for us --
 * TIF_BLOCKSTEP for context switches and the MSR bit for now -- the same
 * way the kernel does, through the DEBUGCTL helpers (kcompat.h K2).
 *
 * Under KVM and QEMU TCG a write of BTF is dropped (or faults), so the
 * mode is decided once, by writing the bit and reading it back with the
 * fault-tolerant MSR accessors (kcompat.h K1): a failed read-back means
 * step mode.
 */
#include <linux/smp.h>
#include <asm/processor.h>
#include <asm/msr.h>
#include <asm/msr-index.h>
#include <asm/processor-flags.h>
#include <asm/ptrace.h>

static void dcg_tf_detect_btf(void)
{
	u64 old, now;
	unsigned long flags;

	local_irq_save(flags);
	if (dcg_rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &old)) {
		dcg_g.btf_works = 0;
		goto out;
	}
	if (dcg_wrmsr_safe(MSR_IA32_DEBUGCTLMSR, old | DEBUGCTLMSR_BTF) ||
	    dcg_rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &now)) {
		dcg_g.btf_works = 0;
	} else {
		dcg_g.btf_works = !!(now & DEBUGCTLMSR_BTF);
	}
	/* Leave the MSR as we found it: BTF only for armed tasks. */
	dcg_wrmsr_safe(MSR_IA32_DEBUGCTLMSR, old);
out:
	local_irq_restore(flags);
}

/* Set BTF for the current task, now and at its next context switches. */
static void dcg_btf_on_current(void)
{
	unsigned long flags;

	local_irq_save(flags);
	set_thread_flag(TIF_BLOCKSTEP);
	update_debugctlmsr(get_debugctlmsr() | DEBUGCTLMSR_BTF);
	local_irq_restore(flags);
}

static void dcg_btf_off_current(void)
{
	unsigned long flags;

	local_irq_save(flags);
	if (test_and_clear_thread_flag(TIF_BLOCKSTEP))
		update_debugctlmsr(get_debugctlmsr() & ~DEBUGCTLMSR_BTF);
	local_irq_restore(flags);
}

/*
 * Arm the current task: @regs are the user registers it returns to
 * (task_pt_regs(current) in task work, args->regs in the #DB handler).
 */
static void dcg_tf_arm_current(struct dcg_slot *s, struct pt_regs *regs)
{
	regs->flags |= X86_EFLAGS_TF;
	if (s->mode == DCG_MODE_BLOCK)
		dcg_btf_on_current();
}

static void dcg_tf_disarm_current(struct pt_regs *regs)
{
	regs->flags &= ~X86_EFLAGS_TF;
	if (dcg_g.btf_works)
		dcg_btf_off_current();
}

/*
 * Disarm a task that may be running elsewhere.  Only for a task that is
 * not exiting: an exiting task's stack, and so its pt_regs, may already
 * be gone.  If @t is in user mode right now its live EFLAGS still has TF;
 * its next trap reaches the notifier, which disarms it there (the drain
 * in dcg_notifier_unregister() waits for that).
 *
 * TIF_BLOCKSTEP of a task other than current may only change while the
 * task is stopped (arch/x86/kernel/step.c): __switch_to_xtra() rewrites
 * DEBUGCTL only when prev's and next's flags differ, so clearing the
 * flag of a task that runs on another CPU leaves BTF set there, for
 * whatever runs next (a ptrace or uprobes single-step turns into a
 * block step).  The flag is cleared here all the same -- @t must not
 * keep block-stepping after the module is gone, and @t cannot be asked
 * to clear it itself: a task sleeping in a system call would hold up
 * the unload -- and dcg_tf_resync_btf() then puts every CPU's BTF back
 * in line with its current task's flag.
 */
static void dcg_tf_disarm_task(struct task_struct *t)
{
	if (READ_ONCE(t->flags) & PF_EXITING)
		return;
	if (t == current) {
		dcg_tf_disarm_current(task_pt_regs(t));
		return;
	}
	task_pt_regs(t)->flags &= ~X86_EFLAGS_TF;
	clear_tsk_thread_flag(t, TIF_BLOCKSTEP);
}

/*
 * IPI, interrupts off: DEBUGCTL.BTF of this CPU as its current task's
 * TIF_BLOCKSTEP says, the state __switch_to_xtra() relies on.  A context
 * switch cannot be half done here (it runs with interrupts off), and
 * code that changes current's flag and then the MSR writes the value
 * this writes.
 */
static void dcg_tf_resync_btf_cpu(void *unused)
{
	unsigned long msr = get_debugctlmsr();
	int want = test_thread_flag(TIF_BLOCKSTEP);

	if (!!(msr & DEBUGCTLMSR_BTF) == want)
		return;
	update_debugctlmsr(want ? msr | DEBUGCTLMSR_BTF :
			   msr & ~DEBUGCTLMSR_BTF);
	atomic64_inc(&dcg_g.btf_resynced);
}

/*
 * After dcg_tf_disarm_task() of tasks that may run on other CPUs (process
 * context).  Only where BTF works: elsewhere the bit never reads as set.
 */
static void dcg_tf_resync_btf(void)
{
	if (!dcg_g.btf_works)
		return;
	smp_mb();	/* the cleared flags before the IPIs read them */
	on_each_cpu(dcg_tf_resync_btf_cpu, NULL, 1);
}
