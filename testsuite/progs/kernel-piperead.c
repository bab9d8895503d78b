// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-piperead [DELAY_MS] - sleep inside vfs_read: the parent reads
 * an empty pipe and blocks in pipe_read until the child, after DELAY_MS
 * (default 300) and once the parent is asleep, writes 8 bytes; a second
 * read sees EOF.  Waiting for the parent's sleep makes the first read
 * block however slowly a tracer gets it to pipe_read (a stepped read
 * took 430 ms to get there once, under load).  Prints
 *     kernel-piperead: first=8 second=0
 * The child reads only /proc, under another name (piperead-child), so a
 * vfs_read probe filtered on this program's name or pid sees the
 * parent's two reads only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The state letter of /proc/PID/stat ('S': asleep), or 0. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');		/* after the command name */
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * Until @pid sleeps (the parent does nothing but read the pipe), at
 * most 60 s: a parent that never blocks then finds the data there and
 * the test sees a read that did not sleep.
 */
static void wait_asleep(pid_t pid)
{
	struct timespec ts = { 0, 10 * 1000000L };
	int i;

	for (i = 0; i < 6000 && proc_state(pid) != 'S'; i++)
		nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	char buf[64];
	long ms = 300;
	ssize_t first, second;
	int fds[2], status;
	pid_t pid;

	if (argc > 2 || (argc == 2 && (ms = atol(argv[1])) <= 0)) {
		fprintf(stderr, "usage: kernel-piperead [DELAY_MS > 0]\n");
		return 2;
	}
	if (pipe(fds)) {
		fprintf(stderr, "kernel-piperead: pipe: %s\n", strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "kernel-piperead: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

		/*
		 * Its own name: it reads /proc, and probes filtered on this
		 * program's name must still see the parent's reads only.
		 */
		prctl(PR_SET_NAME, "piperead-child");
		close(fds[0]);
		nanosleep(&ts, NULL);
		wait_asleep(getppid());
		if (write(fds[1], "12345678", 8) != 8)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	/*
	 * Written here first: after the fork, buf's stack page is shared
	 * copy-on-write, and unless a call made since happened to write
	 * that page (it depends on where ASLR put the stack), the copy to
	 * it in pipe_read would take a page fault, whose handler ftrace
	 * shows under pipe_read and a dyncg window only marks.
	 */
	memset(buf, 0, sizeof(buf));
	first = read(fds[0], buf, sizeof(buf));
	second = read(fds[0], buf, sizeof(buf));
	waitpid(pid, &status, 0);
	printf("kernel-piperead: first=%zd second=%zd\n", first, second);
	return first == 8 && second == 0 ? 0 : 1;
}
