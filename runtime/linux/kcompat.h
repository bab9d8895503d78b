/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcompat.h - every kernel and SystemTap assumption of the kernel glue,
 * in one place.
 *
 * Supported: Linux 5.10 to 7.x on x86-64, SystemTap 4.4 to 5.6 (Debian
 * 11 to unstable; the tapset refuses anything older at translation).
 * Each entry says what the glue uses, which versions it holds for, why,
 * and how a variant is chosen.
 *
 * How variants are chosen.  SystemTap's own autoconf probes
 * (runtime/linux/autoconf-*.c) are a list built into the translator
 * (buildrun.cxx writes one Makefile rule per file of that list); a
 * tapset cannot add to it.  A probe run by our own build step would test
 * the build machine's kernel, not the one stap -r builds for.  So the
 * probes here run inside the module's own compilation, against exactly
 * the headers and stap runtime of that build:
 *   - a name the kernel defines as a macro is tested with #ifdef (the
 *     macro is the feature: task_is_running);
 *   - a function whose signature changed is called through C11
 *     _Generic on its declared type: the branch that matches the real
 *     prototype is the one compiled into the call, the other is only
 *     type-checked (DCG_STP_SNPRINT_ADDR, DCG_STP_UMOD_LOOKUP);
 *   - stap's STAPCONF_* macros where stap has one (task work);
 *   - a name that moved between headers: include every header it has
 *     lived in, all of which exist on every supported kernel;
 *   - a name that changed where a stable alternative exists on every
 *     supported kernel: use the alternative (the MSR accessors).
 * No LINUX_VERSION_CODE tests, no kallsyms look-up whose prototype is
 * written here by hand.
 */
#ifndef DCG_KCOMPAT_H
#define DCG_KCOMPAT_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/mm.h>
#include <linux/kallsyms.h>
#include <linux/task_work.h>
#include <asm/msr.h>
#include <asm/msr-index.h>
#include <asm/processor.h>
#include <asm/debugreg.h>
#include <linux/kernel_stat.h>
#include <asm/hardirq.h>

/*
 * K1. Fault-tolerant MSR access (BTF detection, trap_flag.c).
 * rdmsrl_safe()/wrmsrl_safe() became rdmsrq_safe()/wrmsrq_safe() in
 * 6.16 (the old names are gone in 7.x).  rdmsr_safe()/wrmsr_safe(),
 * which take the two 32-bit halves, kept their names on 5.10 .. 7.x:
 * built on those, there is nothing to choose.
 */
static inline int dcg_rdmsr_safe(unsigned int msr, u64 *val)
{
	u32 lo = 0, hi = 0;
	int err = rdmsr_safe(msr, &lo, &hi);

	*val = ((u64)hi << 32) | lo;
	return err;
}

static inline int dcg_wrmsr_safe(unsigned int msr, u64 val)
{
	return wrmsr_safe(msr, (u32)val, (u32)(val >> 32));
}

/*
 * K2. get_debugctlmsr()/update_debugctlmsr() (trap_flag.c): in
 * <asm/processor.h> up to 6.1, in <asm/debugreg.h> by 6.12 (both
 * headers exist on every supported kernel and are included above).
 * Same signatures throughout: unsigned long get_debugctlmsr(void),
 * void update_debugctlmsr(unsigned long).
 */

/*
 * K3. Walking a process's mappings (transport.c, MAP records).  6.1
 * replaced the VMA list (mm->mmap, vma->vm_next) with the maple tree
 * and the VMA_ITERATOR/for_each_vma() macros; 5.10 .. 6.0 have only the
 * list.  The walk does not iterate at all: it drops mmap_lock between
 * mappings (to read each file's build-id, build_id.c), so it asks
 * find_vma(mm, end of the last one) each time, which kept its name,
 * its signature and its meaning (the first vma ending above the
 * address) on 5.10 .. 7.x.  Nothing to choose.  mmap_read_lock() is
 * 5.8+.  kernel_read(file, buf, count, &pos), get_file(), fput(),
 * i_size_read(file_inode()) (build_id.c) have the same signatures on
 * 5.10 .. 7.x too.
 */

/*
 * K4. task_is_running() (kernel_window.c teardown): a macro since 5.14,
 * when task_struct.state became __state.  Before it, ->state.
 */
#ifndef task_is_running
#define task_is_running(t)	(READ_ONCE((t)->state) == TASK_RUNNING)
#endif

/*
 * K5. kallsyms_lookup_size_offset() (kernel_syms.c, function bounds of
 * kernel code): not exported, looked up by name through stap's
 * kallsyms_lookup_name(); its type is taken from the kernel's own
 * declaration in <linux/kallsyms.h> (there on 5.10 .. 7.x), not written
 * here.
 */
typedef typeof(&kallsyms_lookup_size_offset) dcg_ksize_fn;

/*
 * K7. Where a kprobe on a function's name sits, and the regs->ip its
 * handler sees.  Without IBT (Debian's 5.10 and 6.1) the probe is at the
 * function's first byte; with CONFIG_X86_KERNEL_IBT (Debian's 6.12 and
 * 7.x) the function starts with ENDBR64 and kprobes put the probe after
 * it, at +4 (arch_adjust_kprobe_addr()).  At boot the kernel seals the
 * ENDBR64 of a function that is never called indirectly into a NOP
 * (apply_seal_endbr()): 66 0f 1f 00 on 6.12, 0f 1f 40 d6 on 7.2 (both
 * measured at vfs_read).  The handler of such a probe (ftrace-based:
 * the function's fentry call) sees regs->ip one past the probe on 6.1
 * (int3 convention) but at the probe itself on 6.12 and 7.2 (measured:
 * vfs_read+0x4 on both), so an entry probe shows
 * regs->ip at +0, +1, or, after an ENDBR64 or its sealed NOP, +4 or +5;
 * all open the window at the entry, with the function as its root
 * frame.  Without this, 7.2's window on vfs_read had no "-> vfs_read",
 * began inside it, and never drained at its return (the root was not
 * an entry), stepping through the rethook trampoline into the .return
 * handler.  Decided at run time by the bytes at the function's start
 * (kernel_window.c), not by the config: a function may lack ENDBR64
 * (notrace, or IBT off).
 */
#define DCG_ENDBR_SIZE	4

/*
 * K6. Task work (window.c, skip.c, kernel_window.c): task_work_add()
 * with TWA_RESUME (enum task_work_notify_mode, 5.10+), exported.
 * Cancelling by function is not exported, and its name changed in
 * 6.1.y stable and 6.11 (task_work_cancel() -> task_work_cancel_func()):
 * the kernel glue cancels through stap's own stp_task_work_cancel()
 * (runtime/stp_task_work.c, included with stap's uprobes support, which
 * every dyncg module has), which stap binds with its STAPCONF_TASK_WORK_*
 * probes (and, on bookworm's stap 4.8, the test bed's runtime patch).
 * The works themselves are queued with plain task_work_add(), not
 * stp_task_work_add(): stap's exit waits for the works it counts before
 * our teardown runs, so a kernel window's guard (run at the task's
 * return to user mode) would hold the unload until a sleeping traced
 * task woke (dyncg.kernel/sleep.exp).  The cancel helper balances stap's
 * count (kernel_window.c dcg_kguard_cancel()); our own counters make the
 * unload wait for works that already run.
 */

/*
 * K8. The per-CPU interrupt counters the kernel already keeps, read at
 * every stop of a kernel window (kernel_trap.c): a count that moved
 * between two stops on one CPU means an interrupt ran in that gap (its
 * gate cleared TF, so it was never stepped).  Both per-CPU variables are
 * exported on 5.10 .. 7.x (Module.symvers of bullseye .. sid):
 *   kstat (struct kernel_stat): irqs_sum, device interrupts (every irq
 *   descriptor's flow handler counts there), and softirqs[NR_SOFTIRQS];
 *   same on 5.10 .. 7.x.
 *   irq_stat (x86 irq_cpustat_t): the system vectors.  Up to 6.x one
 *   unsigned int field per vector, from __nmi_count to the end (before
 *   it: __softirq_pending and kvm_cpu_l1tf_flush_l1d, flags, not
 *   counts); 7.x made them one array, counts[IRQ_COUNT_*] (an enum), and
 *   added inc_perf_irq_stat(), a macro that comes with it: that macro
 *   chooses the variant.
 * Not counted, because code that is stepped can move them: the ICR read
 * retries (counted while an IPI is sent) and 7.x's MCE poll count (the
 * poll timer can run in a softirq the stepped code runs); softirqs are
 * only given with a hard count (kernel_trap.c), since local_bh_enable()
 * in stepped code runs them stepped.
 * The tail padding of the cache-aligned struct is never written, so
 * the word sum of the old layout sees zeros there.
 */
struct dcg_irqc {
	u32 timer, ipi, nmi, other, softirq;
	unsigned long device;
};

static __always_inline void dcg_irq_counts(struct dcg_irqc *c)
{
	const irq_cpustat_t *st = this_cpu_ptr(&irq_stat);
	const struct kernel_stat *ks = this_cpu_ptr(&kstat);
	u32 all = 0, skip = 0, soft = 0;
	unsigned int i;
#ifdef inc_perf_irq_stat	/* 7.x: the array */
	for (i = 0; i < IRQ_COUNT_MAX; i++)
		all += st->counts[i];
	c->nmi = st->counts[IRQ_COUNT_NMI];
	c->ipi = st->counts[IRQ_COUNT_TLB];
#ifdef CONFIG_X86_LOCAL_APIC
	c->timer = st->counts[IRQ_COUNT_APIC_TIMER];
	skip += st->counts[IRQ_COUNT_ICR_READ_RETRY];
#else
	c->timer = 0;
#endif
#ifdef CONFIG_SMP
	c->ipi += st->counts[IRQ_COUNT_RESCHEDULE] +
		  st->counts[IRQ_COUNT_CALL_FUNCTION];
#endif
#ifdef CONFIG_X86_MCE
	skip += st->counts[IRQ_COUNT_MCE_POLL];
#endif
#else				/* 5.10 .. 6.x: a field per vector */
	const unsigned int *w = &st->__nmi_count;

	for (i = 0; i < (sizeof(*st) - offsetof(irq_cpustat_t, __nmi_count)) /
		    sizeof(*w); i++)
		all += w[i];
	c->nmi = st->__nmi_count;
	c->ipi = st->irq_tlb_count;
#ifdef CONFIG_X86_LOCAL_APIC
	c->timer = st->apic_timer_irqs;
	skip += st->icr_read_retry_count;
#else
	c->timer = 0;
#endif
#ifdef CONFIG_SMP
	c->ipi += st->irq_resched_count + st->irq_call_count;
#endif
#endif
	c->other = all - skip - c->nmi - c->timer - c->ipi;
	c->device = ks->irqs_sum;
	for (i = 0; i < NR_SOFTIRQS; i++)
		soft += ks->softirqs[i];
	c->softirq = soft;
}

/*
 * K9. thread.virtual_dr6 (die_notifier.c): the DR6 that ptrace shows,
 * which exc_debug_user() starts from the real DR6's DR_STEP and
 * ptrace_triggered() adds a debugger's breakpoint bits to; present,
 * with that meaning, on 5.10 to 7.x (older kernels had debugreg6).
 * One variant: no probe.
 *
 * K10. The exceptions:page_fault_kernel tracepoint (exceptions.c),
 * found by name with for_each_kernel_tracepoint(): arch/x86's
 * asm/trace/exceptions.h up to 6.x (its registration turns on the
 * trace_pagefault_key that guards the call), include/trace/events/
 * exceptions.h on 7.x; the same name and the same prototype
 * (address, regs, error_code) on all of them.  Without it the faults
 * are not counted and a line says so.
 *
 * K12. Per-task user breakpoints (skip.c, hop_breakpoints.c):
 * register_user_hw_breakpoint(attr, handler, context, task),
 * modify_user_hw_breakpoint(bp, attr) (disables through
 * perf_event_disable_local() when interrupts are off and the event is
 * current's), unregister_hw_breakpoint(), bp->hw.target,
 * bp->overflow_handler_context; and what a debugger holds,
 * thread.ptrace_bps[HBP_NUM] and thread.ptrace_dr7: the same names,
 * prototypes and meaning on 5.10 to 7.x (doc/hop-kernel.md has the
 * lines).  One variant: no probe.
 *
 * K11. user_disable_single_step(struct task_struct *child) (the tapset's
 * kprobe, die_notifier.c dcg_on_ptrace_resume()): arch/x86/kernel/
 * step.c, global and called from kernel/ptrace.c's ptrace_resume() for
 * every resume but PTRACE_SINGLESTEP/SINGLEBLOCK, and from detach, with
 * the child stopped; the same on 5.10 to 7.x.  The probe is optional:
 * without the symbol the task's next #DB gives the window up.
 */

/*
 * K13. A user shadow stack (CET, hop_breakpoints.c: a call or ret done
 * in the trap would leave it behind, and the program's next ret would
 * fault).  6.6 added it: thread.features under
 * CONFIG_X86_USER_SHADOW_STACK, its bit ARCH_SHSTK_SHSTK in
 * <asm/prctl.h> (uapi), both macros; shstk_is_enabled() is not
 * exported.  Before 6.6 no user task has one.
 */
#include <asm/prctl.h>
#if defined(CONFIG_X86_USER_SHADOW_STACK) && defined(ARCH_SHSTK_SHSTK)
static inline int dcg_current_has_shstk(void)
{
	return !!(current->thread.features & ARCH_SHSTK_SHSTK);
}
#else
static inline int dcg_current_has_shstk(void)
{
	return 0;
}
#endif

struct context;		/* stap's probe context */
struct _stp_module;	/* stap's symbol tables of one object */

/*
 * S1. _stp_snprint_addr() (transport.c, text output): 5 arguments in
 * stap 4.4 and 4.8; 5.x adds a last one, struct context * (NULL: the
 * trap handler has no probe context).
 */
/*
 * The call goes through an address the compiler cannot see through:
 * _Generic type-checks the branch it does not take too, and gcc warns
 * (-Werror) about a direct call of a known function through another
 * type even there.
 */
#define DCG_OPAQUE_FN(f)	({ void *__p = (void *)(f);		\
				   OPTIMIZER_HIDE_VAR(__p); __p; })

typedef int (*dcg_snprint5_fn)(char *, size_t, unsigned long, int,
			       struct task_struct *);
typedef int (*dcg_snprint6_fn)(char *, size_t, unsigned long, int,
			       struct task_struct *, struct context *);
#define DCG_STP_SNPRINT_ADDR(str, len, addr, flags, task)		\
	_Generic(&_stp_snprint_addr,					\
		 dcg_snprint6_fn: ((dcg_snprint6_fn)DCG_OPAQUE_FN(_stp_snprint_addr)) \
			(str, len, addr, flags, task, NULL),		\
		 default: ((dcg_snprint5_fn)DCG_OPAQUE_FN(_stp_snprint_addr))	\
			(str, len, addr, flags, task))

/*
 * S2. _stp_umod_lookup() (user_syms.c, .dynsym sizes): stap 4.8 has (and
 * 5.6 keeps) a section offset output (unsigned long *offset) after the
 * module name; 4.4 has none: its addresses are relative to vm_start
 * (offset 0).
 */
typedef struct _stp_module *(*dcg_umod5_fn)(unsigned long, struct task_struct *,
					    const char **, unsigned long *,
					    unsigned long *);
typedef struct _stp_module *(*dcg_umod6_fn)(unsigned long, struct task_struct *,
					    const char **, unsigned long *,
					    unsigned long *, unsigned long *);
#define DCG_STP_UMOD_LOOKUP(addr, task, name, sect, vm_start, vm_end)	\
	_Generic(&_stp_umod_lookup,					\
		 dcg_umod6_fn: ((dcg_umod6_fn)DCG_OPAQUE_FN(_stp_umod_lookup))	\
			(addr, task, name, sect, vm_start, vm_end),	\
		 default: (*(sect) = 0,					\
			   ((dcg_umod5_fn)DCG_OPAQUE_FN(_stp_umod_lookup))	\
			(addr, task, name, vm_start, vm_end)))

/*
 * S3. The runtime internals the glue reaches (transport.c,
 * die_notifier.c), same on stap 4.4 .. 5.6:
 *   _stp_print_trylock_irqsave(), _stp_print_unlock_irqrestore() and
 *   _stp_reserve_bytes() (print.h; the lock since 4.5's print rework);
 *   _stp_pid, _stp_exit_flag (transport.c: stapio's pid, the session
 *   ends), _stp_relay_data.rchan and struct _stp_trace (the relay
 *   channel and its message header, for transport.c's relay guard).
 * The module source defines the transport after the tapset's embedded
 * C, so these are declared ahead here (tentative definitions for the
 * ints, which the runtime's own definitions complete).  The two lock
 * functions are 4.5+ only: see S5.
 */
static void *_stp_reserve_bytes(int numbytes);
static int _stp_pid;		/* stapio's */
static int _stp_exit_flag;	/* the session is ending */

/*
 * S5. The print buffer lock (transport.c).  Stap 4.5's print rework
 * added _stp_print_trylock_irqsave()/_stp_print_unlock_irqrestore()
 * around the per-CPU buffer; 4.4 has neither: its buffer is per-CPU
 * and unlocked, and its users must not migrate or be interrupted by
 * another writer of that CPU (print_flush.c: "Preemption must be
 * disabled").  A function's presence cannot be tested by the
 * preprocessor, and 4.5 added no macro with it, so this is the one
 * entry decided by stap's own STAP_COMPAT_VERSION (the translator
 * defines it at the top of every module; it is the --compatible
 * version, and the tapset refuses a --compatible below 4.4).
 *   4.5+: the runtime's lock.  dcg_print_section_*() are empty: its
 *   flush takes the lock itself.
 *   4.4: irqs off is the lock: our writers run in task context (task
 *   work, teardown), in probe handlers or in the #DB handler, never in
 *   an irq, and stap's probes in an irq do not run while a handler of
 *   theirs is busy on the CPU; TF is clear in any handler, so our #DB
 *   handler never cuts into a probe's write.  A commit (append, relay
 *   guard, flush) is one irqs-off section, so the flush sends the buffer
 *   the records went to, from the CPU whose relay buffer was checked.
 * With --compatible=4.4 on a 4.5+ stap the 4.4 branch is taken against
 * a locked buffer; the lock is then only irqs off (documented limit).
 */
#if defined(STAP_COMPAT_VERSION) && defined(STAP_VERSION)
#define DCG_STP_PRINT_UNLOCKED	(STAP_COMPAT_VERSION < STAP_VERSION(4, 5))
#else
#define DCG_STP_PRINT_UNLOCKED	0	/* not a module (kcompat-check.c) */
#endif
#if DCG_STP_PRINT_UNLOCKED
static inline bool dcg_print_trylock(unsigned long *flags)
{
	local_irq_save(*flags);
	return true;
}

static inline void dcg_print_unlock(unsigned long *flags)
{
	local_irq_restore(*flags);
}
#define dcg_print_section_begin(flags)	local_irq_save(flags)
#define dcg_print_section_end(flags)	local_irq_restore(flags)
#else
static bool _stp_print_trylock_irqsave(unsigned long *flags);
static void _stp_print_unlock_irqrestore(unsigned long *flags);
#define dcg_print_trylock(flags)	_stp_print_trylock_irqsave(flags)
#define dcg_print_unlock(flags)		_stp_print_unlock_irqrestore(flags)
#define dcg_print_section_begin(flags)	((void)(flags))
#define dcg_print_section_end(flags)	((void)(flags))
#endif

/*
 * S4. The relay channel and the size of its message header, for
 * transport.c's relay guard: _stp_relay_data (relay_v2.c) and struct
 * _stp_trace (transport_msgs.h), same on 4.4 .. 5.6, are defined after
 * all of the glue, so this is a macro, expanded in the tapset's probe
 * begin where both are visible; the tapset's C names no stap internal.
 */
#define dcg_stp_transport_init() do {					\
	dcg_g.rchan = _stp_relay_data.rchan;				\
	dcg_g.stp_hlen = sizeof(struct _stp_trace);			\
} while (0)

#endif /* DCG_KCOMPAT_H */
