/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dyncg_kernel.h - state shared by the kernel glue files.
 *
 * The kernel host of dyncg is a handful of mechanisms, one per file.
 * Every file of runtime/linux, in the order dyncg.c includes them:
 *   dyncg.c            the one translation unit: the core, then the files below
 *   kcompat.h          every kernel and stap assumption, with its versions
 *   dyncg_kernel.h     this file: slots, globals, limits, prototypes
 *   kernel_mode.h      kernel windows' state (struct dcg_kwin, dcg_k)
 *   nofault.c          memory reads that never fault or sleep
 *   plt_stub.c         PLT stubs named in the live text
 *   trap_flag.c        EFLAGS.TF and DEBUGCTL.BTF of one task
 *   task_slots.c       per-task tracing state (a fixed array of slots), the
 *                       end of any window (user or kernel)
 *   task_work.c        counted task works: queue on current, undo on failure
 *   summary.c          end-of-session counters: one table per summary line
 *   user_flags.c       the program's own TF in user windows
 *   build_id.c         the build-id of MAP records
 *   transport.c        events into the SystemTap transport (binary or text)
 *   edge_table.c       (caller, callee) -> count, printed at the end
 *   die_notifier.c     the #DB / int3 notifier: claims only our own traps
 *   window_emit.c      both window kinds: clock, registers of a stop, emit
 *   user_syms.c        user windows: target memory, .dynsym function bounds
 *   root_frame.c       user windows: the root frame after the prologue
 *   user_window.c      user windows: open, arm (task work), trap, close
 *   task_hooks.c       user windows: thread exit and exec tracepoints
 *   session.c          probe begin and end, the teardown work
 *   skip.c             user windows: skip a subtree instead of stepping it
 *   hop_breakpoints.c  user windows: hop mode, breakpoints on the next transfers
 *   kernel_syms.c      kernel windows: function bounds, KSYM records
 *   sched_hooks.c      kernel windows: preempt notifiers, TF moves with the task
 *   kernel_trap.c      kernel windows: the kernel-mode #DB handler (NMI-like)
 *   kernel_window.c    kernel windows: open, close, the return-to-user guard
 *   exceptions.c       kernel windows: page faults their code takes (tracepoint)
 *   script_api.c       what the tapset calls: one function per script function
 * All of them are compiled into the stap module through dyncg.c, in one
 * translation unit, so everything here is static.
 */
#ifndef DCG_KERNEL_H
#define DCG_KERNEL_H

#include <linux/types.h>
#include <linux/sched.h>
#include <linux/task_work.h>
#include <linux/atomic.h>

#include "../dcg_core.h"
#include "../dcg_hop.h"

/* Threads that may be traced at the same time (stap -DDCG_MAX_TASKS=N). */
#ifndef DCG_MAX_TASKS
#define DCG_MAX_TASKS		64
#endif
/* Shadow-stack frames per thread unless the script says otherwise. */
#define DCG_DEFAULT_DEPTH	512
/* dynamic_call_graph_max_depth() refuses anything above this. */
#define DCG_SCRIPT_DEPTH_LIMIT		65536
/* Events per thread and window unless the script says otherwise. */
#define DCG_DEFAULT_BUDGET	1000000ULL
/*
 * Runs (dynamic_call_graph_annotate) a slot counts before it writes
 * them out: three quarters of the table, a power of two, 24 bytes each.
 */
#define DCG_PROF_SLOTS	256
/* Records a slot collects before one transport message. */
#define DCG_OBUF_SIZE	2048		/* per slot; one transport message, well
					 * inside a 4 KiB relay sub-buffer */

/*
 * Registers after events (issue #17): strings up to this long, so that
 * an event with its block fits the slot's buffer (the #DB stack is no
 * place for a record) and one transport message.
 */
#define DCG_KSTR_MAX	64
#define DCG_KEV_MAX	DCG_EV_REGS_MAX_SIZE(DCG_KSTR_MAX)
/* A live text line with six arguments and their strings. */
#define DCG_TEXT_LINE	1024

/*
 * Slot life cycle.  Only the slot's own task moves it between OPENING,
 * ARMED, PAUSED and CLOSED (from its probes, its traps and its task
 * work); claiming a FREE slot, reclaiming the slot of a dead task and
 * module teardown use cmpxchg on @state.
 */
enum dcg_slot_state {
	DCG_SLOT_FREE = 0,
	DCG_SLOT_BUSY,		/* being claimed or released */
	DCG_SLOT_OPENING,	/* window open, TF not set yet (task work queued) */
	DCG_SLOT_ARMED,		/* TF (and BTF) live: our traps are coming */
	DCG_SLOT_PAUSED,	/* TF dropped around a uprobe; task work re-arms */
	DCG_SLOT_CLOSED,	/* window closed; frames kept for reuse */
	DCG_SLOT_INTRAP,	/* ARMED, and its #DB handler is running */
};

struct dcg_slot {
	atomic_t state;			/* enum dcg_slot_state */
	struct task_struct *task;	/* reference held while claimed */
	struct mm_struct *mm;		/* mm at open: a change means exec */
	pid_t tid;
	pid_t pid;

	struct dcg_thread engine;
	struct dcg_host_ops ops;	/* ctx = this slot */
	struct dcg_frame *frames;	/* user windows: kvcalloc()ed by the
					 * task's own task work; kernel windows:
					 * a share of dcg_kframes */
	u32 cap;			/* frames[] entries */
	u8 mode;			/* DCG_MODE_STEP or DCG_MODE_BLOCK */
	u8 wait_xol;			/* re-arm after uprobes' out-of-line step */
	u8 opened;			/* dcg_thread_begin() done */
	u8 state_after_trap;		/* ARMED, or CLOSED when the root left */
	u8 signalled;			/* re-arm in a signal handler's frame */
	u8 at_entry;			/* window opened at a function entry */
	u8 thread_started;		/* THREAD START written for this task */
	u32 nest;			/* dynamic_call_graph(1) calls inside the
					 * window, each owed a (0) */
	u8 closed_by_user;		/* the last window ended by a (0) */
	u64 open_sp;			/* rsp of the (1) that opened it */
	u64 entry_ip, entry_sp, entry_ret, entry_ts;
	struct dcg_regs entry_regs;	/* at the probe: the ROOT's arguments */
	struct dcg_regs regs;		/* of the stop the engine handles */
	u64 evbuf[(DCG_KEV_MAX + 7) / 8];	/* dcg_emit()'s record */
	char tline[DCG_TEXT_LINE];	/* dcg_out_text_event()'s line */

	struct callback_head work;	/* re-arm / arm task work */
	atomic_t work_queued;

	char obuf_mem[DCG_OBUF_SIZE];	/* obuf's storage: no allocation */
	char *obuf;			/* records not yet in the transport: */
	u32 obuf_len;			/* whole records, flushed as one message */
	u32 obuf_events;		/* events among them */
	u64 obuf_prof_insns;		/* insns its PROFILE records count */

	/* dynamic_call_graph_annotate(): per-run counts, binary output */
	struct dcg_profile prof;
	struct dcg_prof_ent prof_slots[DCG_PROF_SLOTS];
	u64 prof_carry;			/* insns of PROFILE records the
					 * transport refused: the next one's
					 * dropped */
	u64 budget;			/* events allowed in this window */
	u64 produced;			/* events the engine made, this window */
	u64 dropped;			/* ... and could not write (budget) */
	u64 lost_buffer;		/* ... and the transport refused */
	u64 stops;			/* our traps, this window */
};

struct dcg_globals {
	int registered;			/* die notifier registered */
	int stopping;			/* teardown: every trap disarms */
	int btf_works;			/* DEBUGCTL.BTF read back as set */
	int output;			/* DCG_OUT_* */
	int print_edges;		/* edge table at the end */
	struct dcg_args_cfg args;	/* registers after events */
	int text_regs;			/* live text shows them: the script
					 * set args, strings or retval */
	int annotate;			/* PROFILE records (binary output) */
	u32 max_depth;
	u64 budget;
	u64 start_ns;
	atomic_t works_pending;		/* our task works not yet run */
	atomic_t header_done;		/* binary stream header written */
	atomic_t text_unit_done;	/* live text: the time unit line */
	int teardown_queued;
	struct rchan *rchan;		/* the runtime's relay channel, or NULL */
	unsigned int stp_hlen;		/* its message header size */
	int kernel;			/* dyncg kernel mode: a kernel window
					 * opened (header DCG_HDR_KERNEL) */
	atomic64_t stops;		/* all our traps */
	atomic64_t events;		/* all events produced */
	atomic64_t dropped;		/* events not written, all reasons */
	atomic64_t foreign_claimed;	/* inherited TF cleared in a child */
	atomic64_t decode_errors;
	atomic64_t resyncs;
	atomic64_t written;		/* events the transport took */
	atomic64_t windows;		/* windows opened */
	atomic64_t aborted;		/* windows closed by exit, exec, ptrace
					 * attach or module unload */
	atomic64_t slot_full;		/* dynamic_call_graph(1) with no free slot */
	atomic64_t tail_traps;		/* traps of a slot not armed: TF cleared */
	atomic64_t nested;		/* dynamic_call_graph(1) inside a window */
	atomic64_t nomem;		/* windows closed: no shadow stack */
	atomic64_t off_unopened;	/* dynamic_call_graph(0) in a thread
					 * that never had a window */
	atomic64_t btf_resynced;	/* CPUs whose BTF a remote disarm left set */
};

#define DCG_OUT_BINARY	0
#define DCG_OUT_TEXT	1
#define DCG_OUT_NONE	2	/* edge table and counters only */

static struct dcg_globals dcg_g = {
	.output = DCG_OUT_TEXT,
	.print_edges = 1,
	.max_depth = DCG_DEFAULT_DEPTH,
	.budget = DCG_DEFAULT_BUDGET,
	/* rax after every return, as dcg-trace: doc/trace-format.md */
	.args = { .nrets = 1, .str_min = 0x10000 },
};

static struct dcg_slot dcg_slots[DCG_MAX_TASKS];

static u64 dcg_now_ns(void);

/* trap_flag.c */
static void dcg_tf_detect_btf(void);
static void dcg_tf_arm_current(struct dcg_slot *s, struct pt_regs *regs);
static void dcg_tf_disarm_current(struct pt_regs *regs);
static void dcg_tf_disarm_task(struct task_struct *t);
static void dcg_tf_resync_btf(void);

/* task_slots.c */
static struct dcg_slot *dcg_slot_find(struct task_struct *t);
static struct dcg_slot *dcg_slot_claim(struct task_struct *t, const char **why);
static int dcg_slot_frames(struct dcg_slot *s);
static void dcg_slot_release(struct dcg_slot *s);
static void dcg_slot_end_window(struct dcg_slot *s);

/* transport.c */
static int dcg_out_raw(const void *rec, unsigned int len);
static void dcg_out_flush(struct dcg_slot *s);
static void dcg_out_header(struct task_struct *t);
static void dcg_out_event(struct dcg_slot *s, const struct dcg_rec_event *ev);
static void dcg_out_thread(struct dcg_slot *s, u32 what);
static void dcg_out_lost(struct dcg_slot *s, u64 count, u32 reason);
static void dcg_out_maps(struct dcg_slot *s);
static void dcg_out_stats(void);
static int dcg_out_profile(void *ctx, const struct dcg_profile *p,
			   unsigned int flags);

/* edge_table.c */
static void dcg_edge_add(u64 caller, u64 callee);

/* die_notifier.c */
static int dcg_notifier_register(void);
static void dcg_notifier_unregister(void);

/* user_syms.c */
static int dcg_read_user(void *ctx, dcg_u64 addr, void *buf, unsigned int len);

/* user_window.c */
static void dcg_queue_work(struct dcg_slot *s);
static void dcg_trap_step(struct dcg_slot *s, struct pt_regs *regs);
static void dcg_window_finish(struct dcg_slot *s);

/* task_hooks.c */
static void dcg_hooks_wait(void);

/* skip.c: hooks of user_window.c and task_slots.c */
static void dcg_skip_open(struct dcg_slot *s);
static void dcg_skip_window_start(struct dcg_slot *s);
static int dcg_skip_after_stop(struct dcg_slot *s, struct pt_regs *regs);
static void dcg_skip_after_resume(struct dcg_slot *s, struct pt_regs *regs);
static int dcg_skip_native(struct dcg_slot *s);
static void dcg_skip_window_end(struct dcg_slot *s);
static void dcg_skip_release(struct dcg_slot *s);

/* hop_breakpoints.c: hooks of user_window.c, task_slots.c, summary.c */
static u8 dcg_hop_engine_mode(struct dcg_slot *s);
static const char *dcg_hop_mode_name(void);
static u8 dcg_hop_trace_mode(void);
static void dcg_hop_window_start(struct dcg_slot *s);
static int dcg_hop_after_stop(struct dcg_slot *s, struct pt_regs *regs);
static void dcg_hop_signal(struct dcg_slot *s, struct pt_regs *regs);
static void dcg_hop_window_end(struct dcg_slot *s);
static void dcg_hop_release(struct dcg_slot *s);

#endif /* DCG_KERNEL_H */
