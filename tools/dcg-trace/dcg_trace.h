/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcg_trace.h - internal interfaces of dcg-trace, the ptrace host.
 *
 * One tracer process, one event loop, no threads of its own.  Files:
 *   main.c        options, start/attach, Ctrl-C, the end of the trace
 *   ptrace.c      the event loop: stops, stepping, step-over, signals
 *   breakpoint.c  int3 insert/remove, and the byte the engine should see
 *   threads.c     the table of traced tasks; clone/fork/exec/exit
 *   window.c      trace windows: the engine (runtime/dcg_core.h) glue
 *   memory.c      /proc/PID/mem reads, cache of read-only code pages
 *   symbols.c     function names -> addresses (libdwfl), maps, MAP records
 *   mode.c        --mode auto: does PTRACE_SINGLEBLOCK stop less often?
 *                 do the debug registers work (hop)?
 *   hop.c         --mode hop: debug registers on the next transfers
 *   debugreg.c    debug register writes: ours read-modify-write, the
 *                 program's own kept and put back at detach
 *   cpu_pin.c     a thread in a window shares the tracer's CPU
 *   frontend.c    the process the user sees; the tracer is its child
 *   guardian.c    a process that restores our int3s if we are killed
 *   tracee_flags.c the program's own TF: hidden from it, its traps kept
 *   sigtrap_state.c the program's SIGTRAP handler and mask, despite our traps
 */
#ifndef DCG_TRACE_H
#define DCG_TRACE_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>
#include "dcg_core.h"
#include "trace_write.h"
#include "util.h"

#define PROG "dcg-trace"

/*
 * main.c's ptrace options (TRACE_OPTIONS there); sigtrap_state.c adds
 * PTRACE_O_TRACESYSGOOD (and EXITKILL as main.c does) at a task's
 * first clean stop.  Keep the two the same.
 */
#define DCG_PTRACE_OPTIONS (PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | \
			    PTRACE_O_TRACEEXIT | PTRACE_O_TRACEFORK | \
			    PTRACE_O_TRACEVFORK | PTRACE_O_TRACEVFORKDONE)

/* What a breakpoint is for. */
enum bp_kind {
	BP_FUNC,	/* entry of a traced function: opens a window */
	BP_ENTRY,	/* program entry point: resolve names, then removed */
	BP_DLDEBUG,	/* _dl_debug_state: the link map changed (dlopen) */
	BP_RESUME,	/* where a skipped SIGTRAP handler returns to */
	BP_SKIPRET,	/* skip.c: return address of a skipped call (int3) */
	BP_NONLOCAL,	/* skip.c: longjmp/unwinder entry: may leave a skip */
};

/* skip.c: a subtree that runs unstepped (-D, -N); see skip.c. */
enum skip_state {
	SK_NONE,	/* nothing skipped */
	SK_NATIVE,	/* running free, return breakpoint armed */
	SK_UNWIND,	/* stepping through longjmp or the unwinder */
	SK_STEPPED,	/* no breakpoint could be armed: stepping on */
};

struct skip_task {
	enum skip_state state;
	uint64_t ret_addr;	/* the skipped frame's return address */
	uint64_t frame_sp;	/* and its return slot */
	uint64_t unwind_sp;	/* rsp at entry of longjmp/the unwinder */
	bool hw;		/* armed with a debug register */
	bool int3;		/* armed with an int3 */
	int dr_slot;		/* debug register + 1; 0 unknown; -1 none */
	uint64_t dr_addr;	/* what that register holds */
};

struct bp {
	uint64_t addr;
	uint8_t orig;
	uint8_t kind;		/* enum bp_kind */
	bool inserted;
};

enum task_state {
	TS_RUNNING,	/* resumed; its next stop comes from waitpid */
	TS_STOPPED,	/* in a ptrace stop we know about */
};

/* How a task was last resumed: decides what its next SIGTRAP means. */
enum resume_how {
	RH_CONT,
	RH_STEP,
	RH_BLOCK,
	RH_HOP,		/* PTRACE_CONT with a hop plan armed (hop.c) */
};

/* hop.c: the debug registers of a thread in hop mode. */
struct hop_task {
	bool armed;		/* a native run under DR7 is under way */
	bool checked;		/* DR7 looked at (the program's own?) */
	bool off;		/* stepped instead: registers not ours */
	bool shstk_known;	/* shstk read from /proc */
	bool shstk;		/* a shadow stack: transfers are stepped */
	uint8_t dr_valid;	/* bit i: dr[i] is what DRi holds */
	uint8_t on;		/* bit i: DR7 enables DRi for us */
	int n;			/* slots in addr[] (0 in an unused one) */
	uint64_t start;		/* rip where the run began */
	uint64_t addr[4];
	uint64_t dr[4];
};

/* cpu_pin.c: a thread bound to the tracer's CPU for its window. */
struct pin_task {
	bool pinned;
	bool own;		/* the program set its mask in the window */
	cpu_set_t saved;	/* its own mask, put back at window close */
};

/* debugreg.c: a thread's debug registers, the program's and ours. */
#define DR7_ENABLES	0xffull		/* L0 G0 ... L3 G3 */
/* DR7 bits of slot @i: its enables and its R/W, LEN fields */
#define DR7_SLOT(i)	((3ull << (2 * (i))) | (0xfull << (16 + 4 * (i))))

struct dr_task {
	bool known;		/* prog* read */
	bool ours_dr7;		/* we wrote DR7 */
	uint8_t ours;		/* bit i: we wrote DRi */
	uint64_t prog[4];	/* the program's own DR0-3, DR6, DR7 */
	uint64_t prog6, prog7;
	uint64_t dr7;		/* DR7 as it is now */
};

#define SHADOW_CAP 4096
/*
 * --annotate: runs counted per thread before the table is written out
 * (three quarters of it; a power of two, 24 bytes each).
 */
#define PROFILE_SLOTS 8192

struct task {
	pid_t tid;
	pid_t tgid;
	struct task *next;
	enum task_state state;
	enum resume_how how;
	bool foreign;		/* vfork child: steps over our int3, no windows */
	bool in_vfork;		/* parent blocked in vfork: cannot run code */
	bool has_pending;	/* a stop seen while stopping the world */
	int pending_status;
	bool interrupt_pending;	/* a PTRACE_INTERRUPT not yet reported */
	bool world_stopped;	/* stopped by stop_world(), to resume */
	bool listening;		/* group-stop, PTRACE_LISTEN */
	bool fresh;		/* initial stop not seen yet */
	bool parked;		/* stopped before its parent said who it is */
	bool rewound;		/* rip moved back onto our int3 */
	bool at_bp;		/* its int3 stop: rip put back before collecting */
	struct user_regs_struct regs;
	bool regs_valid;
	bool regs_early;	/* regs read for the stop about to be collected */

	/* trace window */
	bool in_window;
	uint64_t window_sp;	/* rsp at entry (points at the return addr) */
	uint64_t step_from;	/* ip before the last single step */
	bool skipping;		/* in its own SIGTRAP handler, unstepped */
	uint64_t skip_ip, skip_sp;	/* where the handler returns to */
	struct dcg_thread eng;
	struct dcg_frame *frames;
	struct dcg_profile prof;	/* --annotate: per-run counts */
	struct dcg_prof_ent *prof_slots;
	struct skip_task sk;	/* skip.c */
	struct hop_task hop;	/* hop.c */
	struct dr_task dr;	/* debugreg.c */
	struct pin_task pin;	/* cpu_pin.c */

	/* tracee_flags.c */
	bool own_tf;		/* the program's TF, not ours */
	bool frame_fix;		/* a signal went with a step: handler entry? */
	uint64_t step_rsp;	/* rsp before the last step */

	/* sigtrap_state.c */
	bool sysgood;		/* PTRACE_O_TRACESYSGOOD set on it */
	bool sig_known;		/* trap_blocked was read at a clean stop */
	bool trap_blocked;	/* the program has SIGTRAP blocked here */
	bool sig_fix;		/* a trap of ours: restore before it runs */
	long sys_nr;		/* syscall entered, -1 none */
	uint64_t sys_args[6];
};

struct options {
	const char *funcs[64];
	int nfuncs;
	const char *out;
	pid_t attach_pid;
	char **argv;
	int mode;		/* DCG_MODE_*, 0 = auto */
	bool all;
	bool leave_running;
	bool native_syscalls;	/* PTRACE_CONT outside windows: no SIGTRAP shadow */
	bool no_pin;		/* --no-pin: window threads run on any CPU */
	uint64_t max_events;
	int verbose;
	uint32_t max_depth;	/* -D: 0 = unlimited */
	bool annotate;		/* PROFILE records: per-run insn counts */
	const char *excludes[64];	/* -N globs */
	int nexcludes;
};

struct tracer {
	struct options opt;
	pid_t pid;		/* the traced process */
	bool started;		/* we started it (vs -p) */
	int mode;		/* DCG_MODE_* in use */
	int memfd;		/* /proc/pid/mem */
	struct dcg_writer w;
	uint64_t start_ns;
	struct dcg_args_cfg args;	/* registers after events (--args) */

	struct bp *bps;
	int nbps, capbps;
	uint64_t dldebug_addr;

	struct task *tasks;
	int ntasks;

	bool names_resolved;
	bool exec_seen;		/* an exec after the first image */
	bool fatal;		/* stop: bad names */
	int exit_status;	/* of pid, as from waitpid */
	bool exited;

	/* statistics */
	uint64_t stops;
	uint64_t window_stops;
	uint64_t resyncs;
	uint64_t decode_errors;
	uint64_t windows;
	uint64_t stepovers;
	uint64_t sigs_delivered;
	uint64_t maps_written;
	uint64_t profile_flushes;	/* --annotate tables written early */
};

extern struct tracer T;
extern volatile int stop_requested;

/* util */
uint64_t now_ns(void);
void fault_point(const char *name);
#define vlog(lvl, ...) do { if (T.opt.verbose >= (lvl)) dcg_warn(__VA_ARGS__); } while (0)

/* memory.c */
int mem_open(pid_t pid);
void mem_close(void);
int mem_read(uint64_t addr, void *buf, unsigned int len);
int mem_write(pid_t pid, uint64_t addr, const void *buf, unsigned int len);
int mem_store(pid_t pid, uint64_t addr, const void *buf, unsigned int len);
int code_read(uint64_t addr, void *buf, unsigned int len);
void code_cache_flush(void);
void code_ranges_set(const uint64_t (*r)[2], int n,
		     const uint64_t (*all)[2], int nall);
void code_ranges_set_all(const uint64_t (*all)[2], int nall);

/* breakpoint.c */
struct bp *bp_find(uint64_t addr);
int bp_add(uint64_t addr, enum bp_kind kind);
int bp_insert_all(void);
int bp_remove_all(pid_t pid);
void bp_forget_all(void);
int bp_set(struct bp *b, bool in);
void bp_patch_orig(uint64_t addr, uint8_t *buf, unsigned int len);

/* threads.c */
struct task *task_find(pid_t tid);
struct task *task_add(pid_t tid, pid_t tgid);
void task_del(struct task *t);
int task_getregs(struct task *t);
int task_setregs(struct task *t);
int task_resume(struct task *t, enum resume_how how, int sig);
void task_read_comm(pid_t pid, pid_t tid, char *comm, size_t size);
int stop_world(struct task *except);
void resume_world(struct task *except);
void thread_record(struct task *t, unsigned int what);

/* window.c */
void window_open(struct task *t);
void window_open_here(struct task *t);
void window_close(struct task *t);
void window_stop(struct task *t);
bool window_is_branch_stop(struct task *t);
void window_ops(struct task *t, struct dcg_host_ops *ops);
extern const struct dcg_host_ops host_ops;

/* symbols.c */
int sym_init(pid_t pid);
void sym_fini(void);
int sym_refresh(void);
int sym_resolve(const char *name, uint64_t *addrs, int max);
int sym_resolve_glob(const char *glob, uint64_t *addrs, int max);
int sym_func_bounds(uint64_t addr, uint64_t *start, uint64_t *end);
int sym_lookup_dldebug(uint64_t *addr);
void sym_hint(const char *name);
int maps_scan(bool write_new);
void maps_forget(void);
uint64_t auxv_entry(pid_t pid);

/* frontend.c: the process the user signals forwards to the tracer */
void frontend_split(void);
void install_signals(void);
bool frontend_gone(void);
void frontend_program_setup(void);

/* guardian.c: restores our int3s if dcg-trace dies (SIGKILL) */
int guardian_start(pid_t pid, bool kill_program);
void guardian_note(uint64_t addr, uint8_t orig);
void guardian_forget(uint64_t addr);
void guardian_forget_all(void);
void guardian_resumed(pid_t tid, int how, uint64_t rip);
void guardian_injecting(pid_t tid, const struct user_regs_struct *regs);
void guardian_done(void);
void guardian_debugreg(pid_t tid, const struct dr_task *d);
void guardian_pinned(pid_t tid, int cpu, const cpu_set_t *saved);

/* cpu_pin.c */
void pin_window_open(struct task *t);
void pin_window_close(struct task *t, bool alive);
void pin_child(const struct task *parent, pid_t child);
bool pin_give_back(pid_t tid, int cpu, const cpu_set_t *mask);
void pin_after_syscall(struct task *t);

/* debugreg.c */
int dr_peek(pid_t tid, int i, uint64_t *val);
int dr_poke(pid_t tid, int i, uint64_t val);
int dr_own(struct task *t);
bool dr_program_uses(struct task *t, uint64_t *dr7);
int dr_set_addr(struct task *t, int i, uint64_t addr);
int dr7_update(struct task *t, uint64_t mask, uint64_t set);
int dr6_clear(struct task *t);
void dr_restore(struct task *t);
void dr_exec(struct task *t);

/* mode.c */
int mode_detect(void);
void mode_report(void);
int mode_program_debugregs(pid_t tid, uint64_t dr7);

/* hop.c */
bool hop_resume(struct task *t);
void hop_settle(struct task *t, uint64_t ip);
bool hop_is_hit(struct task *t);
bool hop_armed_at(const struct task *t, uint64_t addr);
bool hop_sigtrap(struct task *t);
bool hop_stale_trap(struct task *t);
void hop_stale_settle(struct task *t);
void hop_foreign_trap(struct task *t);
void hop_end(struct task *t);
void hop_exec(struct task *t);
void hop_dr_written(struct task *t, int i);
void hop_before_resume(struct task *t, enum resume_how how);
bool hop_emulate(struct task *t);
void hop_report(void);

/* skip.c */
bool skip_enabled(void);
void skip_add_exclude(const char *glob);
void skip_resolve(void);
void skip_mark_event(struct task *t, struct dcg_rec_event *e);
void skip_after_stop(struct task *t);
bool skip_native(const struct task *t);
bool skip_sigtrap(struct task *t, bool resume);
bool skip_stepped_into_int3(struct task *t);
void skip_bp_hit(struct task *t, uint64_t addr);
void skip_end(struct task *t);
void skip_report(void);

/* tracee_flags.c */
void tflags_from_regs(struct task *t);
void tflags_before_step(struct task *t);
bool tflags_after_step(struct task *t);
void tflags_signal_sent(struct task *t);
bool tflags_handler_entry(struct task *t);

/* sigtrap_state.c */
void sigstate_syscall_stop(struct task *t);
void sigstate_trap(struct task *t);
void sigstate_program_trap(struct task *t);
void sigstate_signal_delivered(struct task *t, int sig);
bool sigstate_restore(struct task *t, int sig);
void sigstate_exec(struct task *t);
void sigstate_report(void);

/* ptrace.c */
pid_t collect_stop(pid_t tid, int *status);
int trace_loop(void);
void trace_loop_interrupt(void);
void handle_stop(struct task *t, int status);
void resume_task(struct task *t, int sig);
void first_stop(struct task *t);
int resolve_and_arm(bool fatal);
void cleanup_detach(void);

#endif /* DCG_TRACE_H */
