// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU masks a program sees around a window (dcg-trace binds a
 * window's thread to the tracer's CPU: tools/dcg-trace/cpu_pin.c).
 * work() is the window; it reads its own mask, starts a thread and a
 * child process that read theirs, and with "set" binds itself to the
 * first CPU it may use (the program's own choice, which must stay).
 * main reads its mask before and after, and a second thread reads its
 * own while the main thread is inside work().
 *
 * Prints one line, "before B inside I thread T child C other O after A
 * set S", each a count of CPUs (S: 1 when "set" bound work(), -1 if not).
 * Natively every count is the machine's but I and A with "set" (1).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../oracle/fixture.h"

static int inside, thread_n, child_n, other_n, set_cpu = -1;
static int do_set;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int stage;	/* 1: main is inside work(), 2: other has read */

static int own_cpus(void)
{
	cpu_set_t s;

	if (sched_getaffinity(0, sizeof(s), &s) < 0)
		return -1;
	return CPU_COUNT(&s);
}

static void wait_stage(int n)
{
	pthread_mutex_lock(&lock);
	while (stage < n)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
}

static void set_stage(int n)
{
	pthread_mutex_lock(&lock);
	stage = n;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

/* started before the window: its mask is never ours to change */
static void *other(void *arg)
{
	wait_stage(1);
	other_n = own_cpus();
	set_stage(2);
	return arg;
}

static void *born_inside(void *arg)
{
	thread_n = own_cpus();
	return arg;
}

static int child_cpus(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0)
		_exit(own_cpus() & 0xff);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void set_first_cpu(void)
{
	cpu_set_t s, one;
	int i;

	if (sched_getaffinity(0, sizeof(s), &s) < 0)
		return;
	for (i = 0; i < CPU_SETSIZE && !CPU_ISSET(i, &s); i++)
		;
	CPU_ZERO(&one);
	CPU_SET(i, &one);
	if (sched_setaffinity(0, sizeof(one), &one) == 0)
		set_cpu = i;
}

OPAQUE void work(void)
{
	pthread_t t;

	inside = own_cpus();
	set_stage(1);
	wait_stage(2);
	if (pthread_create(&t, NULL, born_inside, NULL) == 0)
		pthread_join(t, NULL);
	child_n = child_cpus();
	if (do_set)
		set_first_cpu();
}

int main(int argc, char **argv)
{
	pthread_t t;
	int before;

	do_set = argc > 1 && !strcmp(argv[1], "set");
	before = own_cpus();
	if (pthread_create(&t, NULL, other, NULL))
		return 1;
	work();
	pthread_join(t, NULL);
	printf("before %d inside %d thread %d child %d other %d after %d set %d\n",
	       before, inside, thread_n, child_n, other_n, own_cpus(),
	       set_cpu >= 0 ? 1 : -1);
	return 0;
}
