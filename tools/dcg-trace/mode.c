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
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Stops a child takes to run the loop under @req; <0 on failure. */
static long count_stops(long req)
{
	long stops = 0;
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		calibration_loop();
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -1;
	}
	for (;;) {
		if (ptrace(req, pid, 0, 0) < 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -errno;
		}
		if (waitpid(pid, &status, 0) != pid)
			return -1;
		if (!WIFSTOPPED(status))
			break;
		stops++;
		if (stops > 100 * LOOPS) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
	}
	return stops;
}

/*
 * Choose block mode only if SINGLEBLOCK stops at most half as often
 * as there are instructions (with BTF the ratio would be about 1/6).
 */
static char mode_message[256];

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
	int mode = DCG_MODE_STEP;

	if (block > 0 && 2 * block <= insns)
		mode = DCG_MODE_BLOCK;
	snprintf(mode_message, sizeof(mode_message), PROG ": mode auto: %s "
		 "(PTRACE_SINGLEBLOCK stopped %ld times in %ld instructions, "
		 "%d taken branches: BTF %s; %.0f ms)\n",
		 mode == DCG_MODE_BLOCK ? "block" : "step", block, insns, LOOPS,
		 mode == DCG_MODE_BLOCK ? "works" : "is not in effect",
		 (now_ns() - t0) / 1e6);
	return mode;
}
