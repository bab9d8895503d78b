// SPDX-License-Identifier: GPL-2.0
/*
 * watch_attach.c - a debugger attaches to a program inside a stepped
 * window and sets a hardware watchpoint (stap-debugger.exp).
 *
 * The child enters stores() (the probed function), says so through a
 * pipe, and runs a long straight line of stores to var, each the same
 * 7-byte movq %rax, var(%rip).  The parent, the "debugger", seizes and
 * interrupts it, puts a write watchpoint on var in DR0/DR7 and lets it
 * go on.  The next instruction is a store, so the CPU reports the
 * watchpoint and the window's single step in one #DB (both are traps
 * after the instruction).  That watchpoint is the debugger's: it must
 * stop the child right after that first store, 7 bytes on, with B0 in
 * DR6.  Prints:
 *     watch: store at stop yes, hit after N bytes, dr6 0xX
 */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

static volatile long var;

__attribute__((noinline)) void stores(int fd)
{
	if (write(fd, "in\n", 3) != 3)
		_exit(1);
	for (;;)
		asm volatile(".rept 4000\n\tmovq %%rax, %0\n\t.endr" : "=m"(var));
}

static long dr_off(int i)
{
	return offsetof(struct user, u_debugreg) + i * sizeof(long);
}

static int fail(const char *what, pid_t pid)
{
	perror(what);
	kill(pid, SIGKILL);
	return 1;
}

/* The debugger's side: stop, watch, go on, see where the hit stops it. */
static int debug(pid_t pid)
{
	struct user_regs_struct r0, r1;
	long text, dr6;
	int st;

	if (ptrace(PTRACE_SEIZE, pid, 0, 0) || ptrace(PTRACE_INTERRUPT, pid, 0, 0))
		return fail("seize", pid);
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) ||
	    ptrace(PTRACE_GETREGS, pid, 0, &r0))
		return fail("interrupt", pid);
	text = ptrace(PTRACE_PEEKTEXT, pid, (void *)r0.rip, 0);
	/* DR0 = &var; DR7: L0, write (RW0 = 01), 8 bytes (LEN0 = 10) */
	if (ptrace(PTRACE_POKEUSER, pid, (void *)dr_off(0), (void *)&var) ||
	    ptrace(PTRACE_POKEUSER, pid, (void *)dr_off(7),
		   (void *)(1L | 1L << 16 | 2L << 18)))
		return fail("poke debug registers", pid);
	if (ptrace(PTRACE_CONT, pid, 0, 0))
		return fail("cont", pid);
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) ||
	    WSTOPSIG(st) != SIGTRAP || ptrace(PTRACE_GETREGS, pid, 0, &r1))
		return fail("no SIGTRAP after cont", pid);
	dr6 = ptrace(PTRACE_PEEKUSER, pid, (void *)dr_off(6), 0);
	printf("watch: store at stop %s, hit after %lld bytes, dr6 0x%lx\n",
	       (text & 0xffffff) == 0x058948 ? "yes" : "no",
	       (long long)(r1.rip - r0.rip), dr6);
	ptrace(PTRACE_POKEUSER, pid, (void *)dr_off(7), 0);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return 0;
}

int main(void)
{
	char buf[4];
	int p[2];
	pid_t pid;

	if (pipe(p))
		return 1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		stores(p[1]);
	}
	close(p[1]);
	if (read(p[0], buf, 3) != 3)
		return fail("child", pid);
	usleep(100000);		/* well inside the stores, stepped */
	return debug(pid);
}
