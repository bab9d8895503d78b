// SPDX-License-Identifier: GPL-2.0
/*
 * mode.c - --mode auto: does PTRACE_SINGLEBLOCK really stop less often
 * than PTRACE_SINGLESTEP here?
 *
 * Under KVM (and QEMU TCG) a guest's write of DEBUGCTL.BTF is dropped,
 * and SINGLEBLOCK quietly degrades to stepping.  Asking the CPU model
 * cannot tell; counting can.  A child runs a known loop (five
 * straight-line instructions and one taken branch per iteration) under
 * PTRACE_SINGLEBLOCK.  The loop's instruction count is known, so one
 * run is enough: stepping stops about six times per iteration, blocks
 * once.  On a host where each stop costs ~0.3 ms (a busy VM), the old
 * calibration (500 iterations under each request, 6,000 stops) took
 * 1.8 s per run; this one takes about 300 stops.
 *
 * Where BTF is ignored, hop mode (hop.c) is chosen when a POKEUSER of
 * DR7 round-trips in a traced child: one or two stops per call and
 * return, against five to fifteen stepping.
 */
#include <errno.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "dcg_trace.h"

#ifndef PTRACE_SINGLEBLOCK
#define PTRACE_SINGLEBLOCK 33
#endif

#define LOOPS 50
#define LOOP_INSNS 6	/* 4 nop, dec, jnz */

static __attribute__((noreturn, noinline)) void calibration_loop(void)
{
	/* No libc after the stop: exit_group straight from the loop. */
	asm volatile(
		"	mov %0, %%ecx\n"
		"1:	nop\n"
		"	nop\n"
		"	nop\n"
		"	nop\n"
		"	dec %%ecx\n"
		"	jnz 1b\n"
		"	mov %1, %%eax\n"
		"	xor %%edi, %%edi\n"
		"	syscall\n"
		: : "i"(LOOPS), "i"(SYS_exit_group) : "rcx", "rax", "rdi",
		"memory");
	__builtin_unreachable();
}

/*
 * A child that stops itself under our ptrace, then runs @body (which
 * does not return).  Its pid once it has stopped; <0 on failure.
 */
static pid_t fork_stopped(void (*body)(void))
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		body();
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -ECHILD;
	}
	return pid;
}

static void kill_child(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

/* Stops a child takes to run the loop under @req; <0 on failure. */
static long count_stops(long req)
{
	long stops = 0;
	int status;
	pid_t pid;

	pid = fork_stopped(calibration_loop);
	if (pid < 0)
		return pid;
	for (;;) {
		if (ptrace(req, pid, 0, 0) < 0) {
			stops = -errno;
			kill_child(pid);
			return stops;
		}
		if (waitpid(pid, &status, 0) != pid)
			return -1;
		if (!WIFSTOPPED(status))
			break;
		stops++;
		if (stops > 100 * LOOPS) {
			kill_child(pid);
			return -1;
		}
	}
	return stops;
}

/*
 * Can a tracer use the debug registers here?  A traced child gets an
 * execute breakpoint in DR0 and its enable in DR7, read back: under a
 * hypervisor or a kernel that refuses (perf holding every slot, no
 * hw_breakpoint support) the write fails or does not stick.  Returns 0
 * or a negative errno (-EIO: written but read back otherwise).
 */
static void stop_here(void)
{
}

static int debugregs_usable(void)
{
	uint64_t dr7 = 0;
	pid_t pid;
	int r;

	pid = fork_stopped(stop_here);
	if (pid < 0)
		return pid;
	r = dr_poke(pid, 0, (uint64_t)(uintptr_t)calibration_loop);
	if (r == 0)
		r = dr_poke(pid, 7, 1);
	if (r == 0)
		r = dr_peek(pid, 7, &dr7);
	if (r == 0 && (dr7 & DR7_ENABLES) != 1)
		r = -EIO;
	kill_child(pid);
	return r;
}

/*
 * Choose block mode only if SINGLEBLOCK stops at most half as often
 * as there are instructions (with BTF the ratio would be about 1/6);
 * else hop mode where the debug registers work, else step mode.
 */
static char mode_message[320];

/* The auto-detection line, printed once tracing really begins. */
void mode_report(void)
{
	if (mode_message[0])
		fputs(mode_message, stderr);
	mode_message[0] = 0;
}

int mode_detect(void)
{
	uint64_t t0 = now_ns();
	long block = count_stops(PTRACE_SINGLEBLOCK);
	long insns = LOOPS * LOOP_INSNS;
	int mode = DCG_MODE_STEP, dr = 0;
	char why[96] = "";

	if (block > 0 && 2 * block <= insns) {
		mode = DCG_MODE_BLOCK;
	} else {
		dr = debugregs_usable();
		if (dr == 0)
			mode = DCG_MODE_HOP;
		snprintf(why, sizeof(why), "; debug registers %s%s",
			 dr ? "unusable: " : "usable",
			 dr ? strerror(-dr) : "");
	}
	snprintf(mode_message, sizeof(mode_message), PROG ": mode auto: %s "
		 "(PTRACE_SINGLEBLOCK stopped %ld times in %ld instructions, "
		 "%d taken branches: BTF %s%s; %.0f ms)\n",
		 mode == DCG_MODE_BLOCK ? "block" :
		 mode == DCG_MODE_HOP ? "hop" : "step", block, insns, LOOPS,
		 mode == DCG_MODE_BLOCK ? "works" : "is not in effect", why,
		 (now_ns() - t0) / 1e6);
	return mode;
}

/*
 * dcg-trace -p, auto chose hop: a thread of the program has debug
 * registers of its own enabled (a debugger left a breakpoint or a
 * watchpoint).  Hop mode would take them over: step instead, and say
 * so in the one line auto prints.
 */
int mode_program_debugregs(pid_t tid, uint64_t dr7)
{
	snprintf(mode_message, sizeof(mode_message), PROG ": mode auto: step "
		 "(thread %d has debug registers of its own, DR7 %#llx: hop "
		 "mode would take them over)\n", tid, (unsigned long long)dr7);
	return DCG_MODE_STEP;
}
