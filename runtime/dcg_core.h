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

struct dcg_host_ops {
	dcg_read_fn		read;
	dcg_func_bounds_fn	func_bounds;	/* may be NULL */
	dcg_emit_fn		emit;
	void			*ctx;		/* passed to all three */
};

/* Result of classifying one transfer. */
struct dcg_transfer {
	dcg_u8  kind;		/* enum dcg_ev_kind, or 0 = none */
	dcg_u8  branch;		/* enum dcg_branch of the insn at @from */
	dcg_u8  flags;		/* DCG_EVF_INDIRECT */
	dcg_u8  pad;
	dcg_u64 from;		/* address of the branch insn */
	dcg_u64 to;		/* where control went */
};

/*
 * Classify the transfer from a stop at @prev_ip to a stop at @ip.
 * Step mode: the instruction at @prev_ip is the one that ran.
 * Block mode: walk from @prev_ip through straight-line instructions to
 * the first branch that could have reached @ip.  Returns 0, or <0 when
 * the code could not be read or decoded (then out->kind is ASYNC if no
 * branch can explain @ip, else 0).
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

struct dcg_stats {
	dcg_u64 stops;
	dcg_u64 events;
	dcg_u64 resyncs;
	dcg_u64 unmatched;
	dcg_u64 decode_errors;
	dcg_u64 read_errors;
};

/* Per-thread engine state.  The host owns it and its frame array. */
struct dcg_thread {
	struct dcg_shadow shadow;
	struct dcg_stats stats;
	dcg_u8  mode;		/* DCG_MODE_STEP or DCG_MODE_BLOCK */
	dcg_u8  have_prev;
	dcg_u16 pad;
	dcg_u32 max_depth;	/* 0 = unlimited; see DCG_FRAME_SKIPPED */
	dcg_u64 prev_ip;
	dcg_u64 prev_sp;
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
 * Close the window: emits synthetic RETs (DCG_EVF_END) for every frame
 * still live, innermost first.
 */
DCG_API void dcg_thread_end(struct dcg_thread *t, dcg_u64 ts,
			    const struct dcg_host_ops *ops);

#endif /* DCG_CORE_H */
