// SPDX-License-Identifier: GPL-2.0
/*
 * dyncg.c - the kernel host of dyncg, as one translation unit.
 *
 * The tapset includes this file from its %{ %} block:
 *     #include "dyncg/linux/dyncg.c"
 * which the compiler finds under stap's runtime directory after
 * `make install` (the install puts runtime/ there as dyncg/), or, in a
 * build tree, through -B KCFLAGS=-I<builddir>/tapset/include, where
 * dyncg is a link to the source runtime/ (see tapset/tapset.am).
 *
 * The freestanding core is compiled in here too, with its entry points
 * made static: a module may hold other copies of nothing, but unused
 * static functions must not break stap's -Werror build.
 */
#ifndef DCG_KERNEL_C
#define DCG_KERNEL_C

#define DCG_API static __maybe_unused

/*
 * The core builds with the kernel's own warnings: its deliberate
 * fall-throughs are dcg_fallthrough (dcg_compat.h), the attribute that
 * -Wimplicit-fallthrough=5 takes, and configure's warnings check it on
 * the host too (core-build.exp).
 */
#include "../dcg_core.h"
#include "../insn.c"
#include "../classify.c"
#include "../shadow.c"
#include "../thread.c"
#include "../args.c"
/*
 * The hop planner's walk keeps its jump targets on the stack (about
 * 1.2 KB: runtime/hop.c, struct explore).  Stap 4.4 (bullseye) builds
 * with -Wframe-larger-than=512 -Werror.  It runs only in a user-mode
 * #DB (exc_debug_user(), the task's own 16 KB stack: not an IST or
 * interrupt stack) and in the perf callback called from there.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wframe-larger-than="
#include "../hop.c"
#include "../near_branch.c"
#pragma GCC diagnostic pop
#include "../dcg_plt.h"

#include "kcompat.h"	/* every kernel and stap assumption */
#include "dyncg_kernel.h"
#include "kernel_mode.h"	/* dyncg kernel mode */
#include "nofault.c"
#include "plt_stub.c"	/* PLT stubs named in the live text */
#include "trap_flag.c"
#include "task_slots.c"
#include "task_work.c"	/* counted task works */
#include "summary.c"	/* end-of-session counter tables */
#include "user_flags.c"	/* the program's own TF in user windows */
#include "build_id.c"	/* the build-id of MAP records */
#include "transport.c"
#include "edge_table.c"
#include "die_notifier.c"
#include "window_emit.c"	/* both window kinds: clock, registers, emit */
#include "user_syms.c"	/* user windows: memory, .dynsym bounds */
#include "root_frame.c"
#include "user_window.c"
#include "task_hooks.c"	/* exit and exec tracepoints */
#include "session.c"	/* probe begin, probe end, teardown */
#include "skip.c"		/* skip instead of step (runtime/linux/skip.c) */
#include "hop_breakpoints.c"	/* hop mode: breakpoints instead of steps */
/* dyncg kernel mode: windows opened from kprobes (doc/kernel-mode.md) */
#include "kernel_syms.c"
#include "sched_hooks.c"
#include "kernel_trap.c"
#include "kernel_window.c"
#include "exceptions.c"	/* page faults inside kernel windows */
#include "script_api.c"	/* what the tapset calls */

#endif /* DCG_KERNEL_C */
