// SPDX-License-Identifier: GPL-2.0
/*
 * A call whose push faults: work() points rsp at the top of a
 * read-only page and calls ro_target.  The CPU cannot write the return
 * address, so natively the call raises SIGSEGV before ro_target runs;
 * the handler (on its own stack) counts it and siglongjmps out.
 * Natively: "rostack faulted=1 target_ran=0", exit 0.  A tracer that
 * performs the call itself (dcg-trace hop mode) must fail the push as
 * the CPU does: with a forced write (/proc/PID/mem) the call would go
 * through and print "faulted=0 target_ran=1".
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../oracle/fixture.h"

static sigjmp_buf back;
static volatile int faulted;
volatile int target_ran;

/* ro_target: sets target_ran and returns (reads only the stack). */
__asm__(".text\n"
	".globl ro_target\n"
	".type ro_target, @function\n"
	"ro_target:\n"
	"\tmovl $1, target_ran(%rip)\n"
	"\tret\n"
	".size ro_target, .-ro_target\n");

static void on_segv(int sig)
{
	faulted++;
	siglongjmp(back, 1);
}

/* Call ro_target with rsp at @top; the old rsp is kept in rbx. */
NOINLINE int work(char *top)
{
	if (sigsetjmp(back, 1))
		return faulted;
	__asm__ volatile("mov %%rsp, %%rbx\n\t"
			 "mov %0, %%rsp\n\t"
			 "call ro_target\n\t"
			 "mov %%rbx, %%rsp"
			 : : "r"(top) : "rbx", "memory");
	return faulted;
}

int main(void)
{
	static char altstack[65536];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa = { .sa_handler = on_segv, .sa_flags = SA_ONSTACK };
	long pg = sysconf(_SC_PAGESIZE);
	char *page = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);

	if (page == MAP_FAILED || sigaltstack(&ss, NULL) ||
	    sigaction(SIGSEGV, &sa, NULL))
		return 2;
	work(page + pg - 64);
	printf("rostack faulted=%d target_ran=%d\n", faulted, target_ran);
	return faulted == 1 && !target_ran ? 0 : 1;
}
