/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcg_core.h - classifier, shadow call stack, and the per-thread engine.
 *
 * A host (the kernel's #DB handler, or dcg-trace's ptrace loop) calls
 * dcg_thread_stop() at every stop of a traced thread with the new ip
 * and rsp.  The engine works out which control transfer got there from
 * the previous stop, keeps the shadow call stack, and hands events to
 * the host's emit callback.  It allocates nothing and takes no locks:
 * the host gives it the frame array, and it reaches target memory only
 * through the read callback, which may fail (unmapped memory).
 */
#ifndef DCG_CORE_H
#define DCG_CORE_H

#include "dcg_compat.h"
#include "dcg_insn.h"
#include "dcg_event.h"

/*
 * Read @len bytes of the traced context at @addr into @buf.  Returns
 * the number of bytes read, from 0 (nothing mapped) to @len; a short
 * count means the bytes after it are not readable.
 */
typedef int (*dcg_read_fn)(void *ctx, dcg_u64 addr, void *buf,
			   unsigned int len);

/*
 * Optional: the bounds [*start, *end) of the function containing @addr.
 * Returns 0 on success, <0 when unknown.  Used to tell a tail call (jmp
 * out of the current function with its frame torn down) from a jump
 * inside it.
 */
typedef int (*dcg_func_bounds_fn)(void *ctx, dcg_u64 addr, dcg_u64 *start,
				  dcg_u64 *end);

/* Receive one event; the host fills in r.tid and cpu and writes it. */
typedef void (*dcg_emit_fn)(void *ctx, const struct dcg_rec_event *ev);

/* [start, end) of some code. */
struct dcg_range {
	dcg_u64 start;
	dcg_u64 end;
};

/*
 * Thunks: compiler plumbing that is no function of its own and must not
 * show as one (x86 retpolines and return thunks).  A branch into a
 * thunk waits for the first stop outside every thunk range:
 *   call: ranges whose code leaves by a jump (or a push+ret) to the
 *         target with rsp as it was at the thunk's entry.  A call into
 *         one is a call from the call site to that target, flagged
 *         indirect; a jump into one is an indirect jump to the target;
 *   ret:  ranges whose code ends in a ret that pops the slot rsp
 *         pointed at on entry: a jump into one is a ret at the jump.
 * Stops inside the ranges (the retpoline's own call, srso_safe_ret)
 * are never classified.  The host finds the ranges (kallsyms); the
 * arrays stay the host's and must not change while in use.
 */
struct dcg_thunks {
	const struct dcg_range *call;
	const struct dcg_range *ret;
	dcg_u32 ncall;
	dcg_u32 nret;
};

/*
 * Per-run instruction counts of a window (dcg_rec_profile), in a table
 * the host owns: cap slots (a power of two, at least 4), open
 * addressing by the run's start.  A slot is free while its count is 0.
 * The engine allocates nothing: when the table is three quarters full
 * it asks the host to write it out (dcg_profile_flush_fn) and then
 * clears it; when the host cannot, the run is not counted, and dropped
 * says how many insns that lost.
 */
struct dcg_profile {
	struct dcg_prof_ent *slots;	/* host-owned, cap entries */
	dcg_u32 cap;
	dcg_u32 used;			/* slots with a count */
	dcg_u64 dropped;		/* insns not counted since the last
					 * flush */
	dcg_u64 flushes;		/* flushes made to free the table */
};

/*
 * Write @p's used slots (count != 0) as PROFILE records of the thread,
 * with @p->dropped and @flags (DCG_PROF_*).  Returns 0 when all were
 * written (the engine then clears the table and dropped), <0 when
 * nothing was: the table stays, and a run that finds no room is
 * dropped (counted).  At a window's end the table is cleared either
 * way; a host that could not write it counts the records as lost.
 */
typedef int (*dcg_profile_flush_fn)(void *ctx, const struct dcg_profile *p,
				    unsigned int flags);

struct dcg_host_ops {
	dcg_read_fn		read;
	dcg_func_bounds_fn	func_bounds;	/* may be NULL */
	dcg_emit_fn		emit;
	void			*ctx;		/* passed to the callbacks */
	const struct dcg_thunks	*thunks;	/* may be NULL */
	dcg_profile_flush_fn	profile_flush;	/* may be NULL: a full table
						 * then drops (counted) */
};

/*
 * Use @slots (@cap entries, a power of two >= 4) as an empty table.
 * Returns 0, or -1 when cap is not a power of two >= 4 (a quarter of
 * the slots, at least one, always stays free).
 */
DCG_API int dcg_profile_init(struct dcg_profile *p, struct dcg_prof_ent *slots,
			     dcg_u32 cap);

/* Count one run of @ninsns insns at @start (exposed for the unit test). */
DCG_API void dcg_profile_add(struct dcg_profile *p, dcg_u64 start,
			     dcg_u32 ninsns, const struct dcg_host_ops *ops);

/* dcg_thunk_at() */
#define DCG_THUNK_NONE	0
#define DCG_THUNK_CALL	1	/* in a call (or jump) thunk */
#define DCG_THUNK_RET	2	/* in a return thunk */

static inline int dcg_in_ranges(const struct dcg_range *r, dcg_u32 n,
				dcg_u64 addr)
{
	dcg_u32 i;

	for (i = 0; i < n; i++)
		if (addr >= r[i].start && addr < r[i].end)
			return 1;
	return 0;
}

/* Which kind of thunk holds @addr, DCG_THUNK_NONE when none. */
static inline int dcg_thunk_at(const struct dcg_thunks *th, dcg_u64 addr)
{
	if (!th)
		return DCG_THUNK_NONE;
	if (dcg_in_ranges(th->call, th->ncall, addr))
		return DCG_THUNK_CALL;
	if (dcg_in_ranges(th->ret, th->nret, addr))
		return DCG_THUNK_RET;
	return DCG_THUNK_NONE;
}

/* Result of classifying one transfer. */
struct dcg_transfer {
	dcg_u8  kind;		/* enum dcg_ev_kind, or 0 = none */
	dcg_u8  branch;		/* enum dcg_branch of the insn at @from */
	dcg_u8  flags;		/* DCG_EVF_INDIRECT */
	dcg_u8  pad;
	dcg_u32 ninsns;		/* instructions that ran from the previous
				 * stop to this one (doc/classifier.md) */
	dcg_u32 pad2;
	dcg_u64 from;		/* address of the branch insn */
	dcg_u64 to;		/* where control went */
	struct dcg_insn insn;	/* the insn at @from (len, ret_imm, flags);
				 * len 0 when no insn explains the stop */
};

/* dcg_classify() errors; out->kind is then 0 (nothing is known). */
#define DCG_CLASSIFY_EREAD	(-1)	/* code at a stop could not be read */
#define DCG_CLASSIFY_EDECODE	(-2)	/* bytes are not an instruction */
#define DCG_CLASSIFY_ELIMIT	(-3)	/* block walk: no branch within bounds */

/* Block-mode walk bounds (doc/classifier.md). */
#define DCG_WALK_MAX_BYTES	4096
#define DCG_WALK_MAX_INSNS	1024

/*
 * Classify the transfer from a stop at @prev_ip to a stop at @ip.
 * Step mode: the instruction at @prev_ip is the one that ran.
 * Block mode (DCG_MODE_BLOCK or DCG_MODE_EMU_BLOCK): walk from @prev_ip
 * through straight-line instructions to the first branch that could
 * have reached @ip.  Returns 0, or a DCG_CLASSIFY_E* error when the code
 * could not be read or decoded (then out->kind is 0: nothing is known).
 * out->kind is CALL, RET or ASYNC, or 0 with out->branch saying what
 * ran: a jump (JMP*, JCC: the engine decides about tail calls), a
 * system transfer (SYS, IRET), or nothing that left the straight line.
 * It only reads code; the engine checks the answer against rsp.
 * doc/classifier.md has the rules.
 */
DCG_API int dcg_classify(unsigned int mode, dcg_u64 prev_ip, dcg_u64 ip,
			 const struct dcg_host_ops *ops,
			 struct dcg_transfer *out);

/* One shadow-stack frame. */
struct dcg_frame {
	dcg_u64 func;		/* entry address of the function */
	dcg_u64 ret_addr;	/* return address the call pushed */
	dcg_u64 sp;		/* rsp right after the call (return slot) */
	dcg_u64 ts;		/* entry time */
	dcg_u32 flags;		/* DCG_FRAME_* */
	dcg_u32 pad;
};

#define DCG_FRAME_ASYNC		0x1	/* entered by an async transfer */
#define DCG_FRAME_SKIPPED	0x2	/* subtree runs unstepped */

struct dcg_shadow {
	struct dcg_frame *frames;	/* host-owned array */
	dcg_u32 cap;			/* entries in frames[] */
	dcg_u32 depth;			/* live frames, may exceed cap */
	dcg_u64 overflow;		/* pushes that found the array full */
};

DCG_API void dcg_shadow_init(struct dcg_shadow *s, struct dcg_frame *frames,
			     dcg_u32 cap);

/*
 * Push a frame (copied).  Returns the stored frame, or NULL when the
 * array is full: depth still counts it and s->overflow goes up.
 */
DCG_API struct dcg_frame *dcg_shadow_push(struct dcg_shadow *s,
					  const struct dcg_frame *f);

/* Pop the top frame (stored or not).  Does nothing at depth 0. */
DCG_API void dcg_shadow_pop(struct dcg_shadow *s);

/* The top frame, or NULL when the stack is empty or the top overflowed. */
DCG_API struct dcg_frame *dcg_shadow_top(struct dcg_shadow *s);

/* Frames actually held in the array: min(depth, cap). */
static inline dcg_u32 dcg_shadow_stored(const struct dcg_shadow *s)
{
	return s->depth < s->cap ? s->depth : s->cap;
}

/* True when the top frame is beyond the array (not stored). */
static inline int dcg_shadow_top_overflowed(const struct dcg_shadow *s)
{
	return s->depth > s->cap;
}

struct dcg_stats {
	dcg_u64 stops;		/* dcg_thread_stop() calls */
	dcg_u64 events;		/* events handed to ops->emit */
	dcg_u64 resyncs;	/* SYNTHETIC returns */
	dcg_u64 unmatched;	/* UNMATCHED returns */
	dcg_u64 decode_errors;	/* stops whose code could not be read or
				 * decoded (as dcg_rec_stats) */
	dcg_u64 read_errors;	/* failed reads of code or stack, any stop */
};

/*
 * A branch into a thunk, waiting for the thunk's exit (dcg_thunks):
 * what the branch was (DCG_EV_CALL, DCG_EV_TAILCALL for a jump, DCG_EV_RET
 * for a jump into a return thunk; 0 = none), where it was, and rsp at
 * the thunk's entry.
 */
struct dcg_thunk_wait {
	dcg_u8  kind;
	dcg_u8  len;		/* length of the branch insn */
	dcg_u8  jcc;		/* a conditional jump */
	dcg_u8  pad[5];
	dcg_u64 from;
	dcg_u64 sp;
};

/* Per-thread engine state.  The host owns it and its frame array. */
struct dcg_thread {
	struct dcg_shadow shadow;
	struct dcg_stats stats;
	dcg_u8  mode;		/* DCG_MODE_STEP or DCG_MODE_BLOCK */
	dcg_u8  have_prev;
	dcg_u8  inexact;	/* a count since the last event is a lower
				 * bound (hop mode): DCG_EVF_INEXACT */
	dcg_u8  pad;
	dcg_u32 max_depth;	/* 0 = unlimited; see DCG_FRAME_SKIPPED */
	dcg_u64 prev_ip;
	dcg_u64 prev_sp;
	dcg_u64 insns;		/* instructions run in this window, as far
				 * as the stops tell (events carry it) */
	struct dcg_thunk_wait thunk;
	dcg_u64 hide_ts;	/* when the thread went into hidden code */
	dcg_u64 hide_ip;	/* from where: the last insn the engine saw
				 * (the call site, for a call via a thunk) */
	struct dcg_profile *prof;	/* per-run counts, NULL = off (the
					 * host sets it after init) */
};

DCG_API void dcg_thread_init(struct dcg_thread *t, unsigned int mode,
			     struct dcg_frame *frames, dcg_u32 cap);

/*
 * Open a window at the entry of a function: @ip is the function's first
 * insn, @sp points at the return address @ret_addr.  Emits a CALL with
 * DCG_EVF_ROOT (from = ret_addr, since the call site is not known).
 */
DCG_API void dcg_thread_begin(struct dcg_thread *t, dcg_u64 ip, dcg_u64 sp,
			      dcg_u64 ret_addr, dcg_u64 ts,
			      const struct dcg_host_ops *ops);

/*
 * Open a window in the middle of a function (ip/sp unknown as a frame):
 * returns above this point are emitted as DCG_EVF_UNMATCHED.
 */
DCG_API void dcg_thread_begin_here(struct dcg_thread *t, dcg_u64 ip,
				   dcg_u64 sp, dcg_u64 ts);

/*
 * The thread stopped at @ip with rsp @sp.  Classifies the transfer from
 * the previous stop, updates the shadow stack (including resync when sp
 * moved above live frames), and emits events.  Returns the number of
 * events emitted.
 */
DCG_API int dcg_thread_stop(struct dcg_thread *t, dcg_u64 ip, dcg_u64 sp,
			    dcg_u64 ts, const struct dcg_host_ops *ops);

/*
 * The host saw @n insns run unstepped, in a straight line from @start
 * (a probed insn run out of line, a probe's return path before the
 * window's first stop): the thread's insns and its profile count them.
 */
DCG_API void dcg_thread_count(struct dcg_thread *t, dcg_u64 start, dcg_u32 n,
			      const struct dcg_host_ops *ops);

/*
 * The thread goes into code the engine must not see (the host's own:
 * its probe handlers, its scheduler hooks).  A branch into a thunk that
 * led there is forgotten, without an event.  The host gives the engine
 * no stops until dcg_thread_resume().
 */
DCG_API void dcg_thread_hide(struct dcg_thread *t, dcg_u64 ts);

/*
 * The thread is back from hidden code, at @ip with rsp @sp.  No branch
 * from the previous stop explains this: the hidden code returned here,
 * maybe into a function that was called while the engine did not look
 * (the scheduler: the task went out in __schedule and comes back in
 * finish_task_switch, called from __schedule).  Frames that rsp left
 * behind, or whose return slot no longer holds their return address
 * (they returned unseen), end with synthetic RETs at the time the
 * thread went into hidden code; then the calls between the top frame's
 * function and @ip are rebuilt from the return addresses on the stack,
 * each checked against the call insn before it, and emitted as CALLs.
 * When the chain cannot be proved, no frame is made up.
 * Returns the number of events emitted.
 */
DCG_API int dcg_thread_resume(struct dcg_thread *t, dcg_u64 ip, dcg_u64 sp,
			      dcg_u64 ts, const struct dcg_host_ops *ops);

/*
 * Close the window: emits synthetic RETs (DCG_EVF_END) for every frame
 * still live, innermost first; then, with a profile table, writes it
 * out (DCG_PROF_LAST) and clears it.
 */
DCG_API void dcg_thread_end(struct dcg_thread *t, dcg_u64 ts,
			    const struct dcg_host_ops *ops);

/*
 * The frame whose subtree the host may run unstepped (DCG_FRAME_SKIPPED
 * on top of the stack), or NULL.  A host that can skip stops stepping,
 * arms a breakpoint on ->ret_addr, and calls dcg_thread_stop() again
 * when the thread is back there with rsp above ->sp.  A host that keeps
 * stepping may: the engine ignores stops inside the skipped subtree.
 */
static inline const struct dcg_frame *
dcg_thread_skipping(const struct dcg_thread *t)
{
	const struct dcg_shadow *s = &t->shadow;

	if (s->depth == 0 || s->depth > s->cap)
		return NULL;
	if (!(s->frames[s->depth - 1].flags & DCG_FRAME_SKIPPED))
		return NULL;
	return &s->frames[s->depth - 1];
}

/*
 * Register values after an event (format version 3, dcg_event.h).  The
 * host calls dcg_ev_regs_append() from its emit callback with the
 * registers of the stop being handled; the engine emits every event
 * during the stop that explains it, so those are the callee's first
 * stop for a CALL or TAILCALL (ev->to == ip) and the stop after the
 * ret for a RET.  Events that the stop does not describe (a CALL
 * rebuilt from the stack on resume, synthetic and END returns, ASYNC)
 * get no block.
 */
struct dcg_regs {
	dcg_u64 ip;		/* where the thread stopped */
	dcg_u64 arg[DCG_ARGS_MAX];	/* rdi rsi rdx rcx r8 r9 */
	dcg_u64 ret[DCG_RETS_MAX];	/* rax rdx */
};

struct dcg_args_cfg {
	dcg_u8  nargs;		/* argument registers per call, 0..6 */
	dcg_u8  nrets;		/* return registers per ret, 0..2 */
	dcg_u8  str_mask;	/* bit i: read a string at argument i */
	dcg_u8  pad;
	dcg_u16 str_len;	/* bytes per string, 0 = no strings */
	dcg_u16 pad2;
	dcg_u64 str_min;	/* strings only at values in [str_min, */
	dcg_u64 str_max;	/* str_max): elsewhere no pointer looks */
};

/* Largest event with its block (DCG_REC_MAX_SIZE bounds it too). */
#define DCG_EV_REGS_MAX_SIZE(str_len) \
	(sizeof(struct dcg_rec_event) + sizeof(struct dcg_ev_args) + \
	 8 * DCG_ARGS_MAX + \
	 DCG_ARGS_MAX * (sizeof(struct dcg_ev_str) + (((str_len) + 7) & ~7u)))

/*
 * Which registers the stop's @regs give @ev: DCG_EV_REGS_ARGS,
 * DCG_EV_REGS_RET or DCG_EV_REGS_NONE (see above).
 */
#define DCG_EV_REGS_NONE	0
#define DCG_EV_REGS_ARGS	1
#define DCG_EV_REGS_RET		2
DCG_API int dcg_ev_regs_kind(const struct dcg_rec_event *ev, dcg_u64 ip);

/*
 * Append the block to @ev, which lies at the start of @cap bytes, and
 * set ev->r.size; strings are read through @read (bounded by
 * cfg->str_len and by @cap, which is capped at DCG_REC_MAX_SIZE).  Does
 * nothing when the event gets no registers or the config asks for none.
 * Returns the new size.
 */
DCG_API unsigned int dcg_ev_regs_append(struct dcg_rec_event *ev,
					unsigned int cap,
					const struct dcg_args_cfg *cfg,
					const struct dcg_regs *regs,
					dcg_read_fn read, void *ctx);

#endif /* DCG_CORE_H */
