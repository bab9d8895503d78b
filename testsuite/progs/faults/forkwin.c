// SPDX-License-Identifier: GPL-2.0
/*
 * fork() and vfork() from inside the traced function.  The children
 * call work() themselves: a fork child has a copy of the parent's
 * memory, int3s included, that dcg-trace must clean before it lets the
 * child run; a vfork child shares the parent's memory, int3s and all,
 * until it execs or exits, so dcg-trace must step it over them.
 * Each child reports work(-N) = N*N + 1 through its exit status, and the
 * fork child also prints a checksum of work()'s code, to compare with
 * an untraced run's.  Then a vfork child execs /bin/true.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include "../oracle/fixture.h"
#include "../codesum.h"

static NOINLINE int square(int x) { return x * x; }

static NOINLINE int status_of(pid_t pid)
{
	int status = -1;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (!WIFEXITED(status))
		return 1000 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return WEXITSTATUS(status);
}

NOINLINE int work(int x)
{
	pid_t pid;
	int a, b, c;

	if (x < 0)
		return square(-x) + 1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		printf("child-code %lx\n", code_checksum((const void *)work, 32));
		fflush(stdout);
		_exit(work(-3));	/* 10 */
	}
	a = status_of(pid);
	pid = vfork();
	if (pid == 0)
		_exit(work(-4));	/* 17 */
	b = status_of(pid);
	pid = vfork();
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(99);
	}
	c = status_of(pid);
	return a * 10000 + b * 100 + c + square(x);
}

int main(void)
{
	printf("forkwin %d\n", work(2));	/* 10*10000 + 17*100 + 0 + 4 */
	return 0;
}
