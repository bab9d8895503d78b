// SPDX-License-Identifier: GPL-2.0
/*
 * For dcg-trace -p under a flood of signals:
 * "sigflood THREADS ROUNDS [QUIET_MS]" (QUIET_MS 0: a flood without pause).
 *
 * The program catches SIGURG, so dcg-trace must ask the kernel for that
 * action by a syscall injected into a stopped thread.  A child process
 * (not traced: dcg-trace -p takes the threads of this process only)
 * sends SIGURG to every thread without pause, so the injection nearly
 * always meets another stop first: the signal, or the SIGTRAP of a
 * worker that had just hit the int3 on work().  That stop must be
 * handled as any other; a worker resumed past the int3 unseen runs
 * work() without its first instruction (push %rbp) and returns to
 * garbage, a stepped one loses a step.
 *
 * Each worker calls work(50) ROUNDS times; work(n) returns
 * n*(n-1)/2 = 1225.  It prints "ready PID" once running, then
 * "totals agree" (or "totals WRONG"), "code unchanged" (or "CHANGED":
 * an int3 was left behind) and "signals caught"; exit 0 only if all
 * three hold.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "../codesum.h"

#define NOINLINE __attribute__((noinline))
#define MAX_THREADS 16

struct shared {
	volatile int done;
	volatile pid_t tid[MAX_THREADS + 1];	/* 0: not yet, -1: end */
};

static long rounds;
static volatile long caught;

static NOINLINE long leaf(long i) { return i; }

NOINLINE long work(long n)
{
	long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += leaf(i);
	return sum;
}

static void on_urg(int sig)
{
	(void)sig;
	caught++;
}

struct worker {
	volatile pid_t *tid;
	long total;
};

static void *worker(void *arg)
{
	struct worker *w = arg;
	long r;

	*w->tid = syscall(SYS_gettid);
	for (r = 0; r < rounds; r++)
		w->total += work(50);
	return NULL;
}

static long quiet_ms = 10;

/*
 * The child: SIGURG to every thread of @pid until told to stop, in
 * bursts of 10 ms with quiet_ms of quiet between them: the bursts make
 * the injections meet signals, the quiet lets stepped windows end.
 */
static void flood(struct shared *sh, pid_t pid)
{
	struct timespec t0, now, quiet = { 0, quiet_ms * 1000000 };
	int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);	/* no orphan flooding on */
	if (getppid() != pid)
		_exit(0);
	while (!sh->done) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			for (i = 0; sh->tid[i] >= 0; i++)
				if (sh->tid[i] > 0)
					syscall(SYS_tgkill, pid, sh->tid[i],
						SIGURG);
			clock_gettime(CLOCK_MONOTONIC, &now);
		} while (!sh->done && (now.tv_sec - t0.tv_sec) * 1000000000L +
					     now.tv_nsec - t0.tv_nsec < 10000000L);
		if (quiet_ms)
			nanosleep(&quiet, NULL);
	}
	_exit(0);
}

static unsigned long code_sum(void)
{
	return code_checksum((const void *)work, 32) ^
	       code_checksum((const void *)leaf, 16);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, i, bad = 0;
	struct sigaction sa = { .sa_handler = on_urg, .sa_flags = SA_RESTART };
	struct worker w[MAX_THREADS] = { { 0 } };
	unsigned long before = code_sum();
	pthread_t th[MAX_THREADS];
	struct shared *sh;
	pid_t child;

	rounds = argc > 2 ? atol(argv[2]) : 3000000;
	if (argc > 3)
		quiet_ms = atol(argv[3]);
	if (n < 1 || n >= MAX_THREADS || rounds < 1 || quiet_ms < 0 ||
	    quiet_ms > 999) {
		fprintf(stderr, "usage: sigflood [THREADS (1-%d) [ROUNDS "
			"[QUIET_MS (0-999)]]]\n",
			MAX_THREADS - 1);
		return 2;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	sigaction(SIGURG, &sa, NULL);
	sh->tid[0] = syscall(SYS_gettid);	/* main too: waits in join */
	sh->tid[n + 1] = -1;
	for (i = 0; i < n; i++) {
		w[i].tid = &sh->tid[i + 1];
		if (pthread_create(&th[i], NULL, worker, &w[i]))
			return 1;
	}
	child = fork();
	if (child == 0)
		flood(sh, sh->tid[0]);
	if (child < 0)
		return 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		bad += w[i].total != rounds * 1225;
	}
	sh->done = 1;
	waitpid(child, NULL, 0);
	printf("totals %s\n", bad ? "WRONG" : "agree");
	printf("code %s\n", code_sum() == before ? "unchanged" : "CHANGED");
	printf("signals %s\n", caught ? "caught" : "NONE");
	return bad || code_sum() != before || !caught;
}
