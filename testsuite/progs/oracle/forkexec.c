// SPDX-License-Identifier: GPL-2.0
/*
 * fork() and exec inside the traced window.  The child inherits our
 * int3s in its copy of memory; dcg-trace must take them out before it
 * lets the child go, or the child dies of SIGTRAP when it calls work().
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include "fixture.h"

static NOINLINE int before(int x) { return x + 1; }
static NOINLINE int after(int x) { return x + 2; }

NOINLINE int work(int x)
{
	int status = -1;
	pid_t pid;

	if (x < 0)
		return before(x);
	x = before(x);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* the traced function itself, in the child: no int3 left */
		x = work(-1) + after(x);
		execl("/bin/echo", "echo", "child", "ran", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	return after(x) + (WIFEXITED(status) ? WEXITSTATUS(status) : 100);
}

int main(void)
{
	int r = work(1);

	printf("forkexec %d\n", r);
	return 0;
}
