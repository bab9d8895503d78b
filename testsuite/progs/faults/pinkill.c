// SPDX-License-Identifier: GPL-2.0
/*
 * For a SIGKILL of the tracer while a thread is inside a window, bound
 * to the tracer's CPU (tools/dcg-trace/cpu_pin.c): the guardian must
 * give it its own CPU mask back.  main prints its mask, then calls
 * work() when it reads a line; work() prints the mask it has inside and
 * spins, in the window, until the first byte of the file FLAG is no
 * longer '0' (the test writes it after killing the tracer).  A loop
 * without calls runs natively in hop mode, so the thread is in no stop
 * of the tracer's when that dies: one the guardian can save
 * (doc/reliability.md).  main prints its mask again after work().
 *
 * Usage: pinkill FLAG.  Lines: "ready PID", "work-addr ADDR",
 * "before N", "inside N", "after N", each N a count of CPUs in the
 * thread's mask.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static int own_cpus(void)
{
	cpu_set_t s;

	if (sched_getaffinity(0, sizeof(s), &s) < 0)
		return -1;
	return CPU_COUNT(&s);
}

NOINLINE void work(const volatile char *flag)
{
	printf("inside %d\n", own_cpus());
	fflush(stdout);
	while (*flag == '0')
		;
}

int main(int argc, char **argv)
{
	const volatile char *flag;
	char line[64];
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: pinkill FLAG\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	flag = fd < 0 ? MAP_FAILED : mmap(NULL, 1, PROT_READ, MAP_SHARED, fd, 0);
	if (flag == MAP_FAILED) {
		perror(argv[1]);
		return 2;
	}
	setvbuf(stdin, NULL, _IONBF, 0);
	printf("ready %d\nwork-addr %p\nbefore %d\n", (int)getpid(),
	       (void *)work, own_cpus());
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	work(flag);
	printf("after %d\n", own_cpus());
	return 0;
}
