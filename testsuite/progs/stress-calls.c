// SPDX-License-Identifier: GPL-2.0
/*
 * stress-calls.c - workload of the kernel host's stress test and soak.
 *
 * Every window is one activation of work(); a stap module turns tracing
 * on at its entry and off at its return.  Inside the windows the program
 * does what is hard on the runtime: plain calls through function
 * pointers (most of the traps), threads created and exited (one of them
 * by pthread_exit() inside its own window), signals delivered to the
 * traced thread (handlers that call functions), fork, and exec of its
 * own image from inside a window.
 *
 *   stress-calls all ROUNDS ITERS      ROUNDS windows of each kind, in
 *                                      that order, then an exec chain:
 *                                      ROUNDS windows that each exec the
 *                                      next image, and a last image
 *   stress-calls calls|threads|signals|fork ROUNDS ITERS
 *   stress-calls spin SECONDS ITERS    windows back to back for SECONDS
 *                                      (to unload the module mid-trace)
 *   stress-calls exec LEFT ITERS [LEAF_A WINDOWS]   one link of the chain
 *
 * ITERS: leaf calls per window (about 14 stepped instructions each).
 * At the end it prints "stress: leaf_a=N windows=W ok", counted by the
 * program itself, as oracles for uprobe counters on leaf_a and work:
 * N is every call of leaf_a() made by this process, its threads, its
 * forked children and the images it exec'd from; W every call of
 * work() (forked children make none).  Exit 0 unless something went
 * wrong (a stray SIGTRAP kills it instead).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long leaf_a_calls;
static volatile unsigned long windows;
static volatile unsigned long sink;
static volatile sig_atomic_t handled;
static char *self;

/*
 * uprobes refuses to probe a lock-prefixed instruction (-524): the
 * plain store comes first, so that leaf_a() can carry a uprobe.
 */
__attribute__((noinline)) void leaf_a(unsigned long x)
{
	sink += x;
	__atomic_add_fetch(&leaf_a_calls, 1, __ATOMIC_RELAXED);
}

__attribute__((noinline)) void leaf_b(unsigned long x)
{
	sink ^= x;
}

static void (*const leaves[2])(unsigned long) = { leaf_a, leaf_b };

__attribute__((noinline)) void calls(int iters)
{
	int i;

	for (i = 0; i < iters; i++)
		leaves[i & 1](i);
}

__attribute__((noinline)) void on_signal(int sig)
{
	leaf_a(sig);
	handled++;
}

static void *thread_main(void *arg);
static void exec_next(int iters);
static int exec_left;

/* One window: the kind of trouble @what says, around plain calls. */
__attribute__((noinline)) int work(const char *what, int iters)
{
	__atomic_add_fetch(&windows, 1, __ATOMIC_RELAXED);
	calls(iters);
	if (!strcmp(what, "threads")) {
		pthread_t t[2];
		long mode[2] = { 0, 1 };
		int i;

		for (i = 0; i < 2; i++)
			if (pthread_create(&t[i], NULL, thread_main, &mode[i]))
				return -1;
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	} else if (!strcmp(what, "signals")) {
		struct itimerval it = { .it_value = { 0, 1000 } };
		sigset_t alrm, old;
		int before = handled;

		raise(SIGUSR1);		/* handled before raise() returns */
		sigemptyset(&alrm);
		sigaddset(&alrm, SIGALRM);
		sigprocmask(SIG_BLOCK, &alrm, &old);
		setitimer(ITIMER_REAL, &it, NULL);
		while (handled < before + 2)	/* asleep when it fires */
			sigsuspend(&old);
		sigprocmask(SIG_SETMASK, &old, NULL);
	} else if (!strcmp(what, "fork")) {
		int st;
		pid_t p = fork();

		if (p == 0) {
			calls(iters);
			_exit(0);
		}
		if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st))
			return -1;
		/* the child's calls of leaf_a: half its iters */
		__atomic_add_fetch(&leaf_a_calls, (iters + 1) / 2,
				   __ATOMIC_RELAXED);
	} else if (!strcmp(what, "exit")) {
		pthread_exit(NULL);
	} else if (!strcmp(what, "exec")) {
		exec_next(iters);
		return -1;
	}
	calls(iters);
	return 0;
}

/*
 * Threads run windows of their own; the second leaves its window with
 * pthread_exit(), so that window never sees work() return.
 */
static void *thread_main(void *arg)
{
	work(*(long *)arg ? "exit" : "calls", 64);
	return NULL;
}

static void run_rounds(const char *what, int rounds, int iters)
{
	int i;

	for (i = 0; i < rounds; i++)
		if (work(what, iters)) {
			fprintf(stderr, "stress: %s round %d failed\n", what, i);
			exit(1);
		}
}

/*
 * Exec chain: each image execs the next one from inside a window; the
 * count of leaf_a calls so far travels in argv.
 */
static void exec_next(int iters)
{
	char n[32], c[32], it[32], w[32];

	snprintf(n, sizeof(n), "%d", exec_left - 1);
	snprintf(c, sizeof(c), "%lu", leaf_a_calls);
	snprintf(it, sizeof(it), "%d", iters);
	snprintf(w, sizeof(w), "%lu", windows);
	execl(self, self, "exec", n, it, c, w, (char *)NULL);
	perror("stress: exec");
}

static void finish(void)
{
	printf("stress: leaf_a=%lu windows=%lu ok\n", leaf_a_calls, windows);
	exit(0);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	int rounds = argc > 2 ? atoi(argv[2]) : 0;
	int iters = argc > 3 ? atoi(argv[3]) : 0;

	self = argv[0];
	if (argc < 4 || rounds < 0 || iters < 0) {
		fprintf(stderr, "usage: stress-calls all|calls|threads|signals|fork|spin|exec ROUNDS ITERS\n");
		return 2;
	}
	signal(SIGUSR1, on_signal);
	signal(SIGALRM, on_signal);
	if (!strcmp(what, "exec")) {
		leaf_a_calls = argc > 4 ? strtoul(argv[4], NULL, 10) : 0;
		windows = argc > 5 ? strtoul(argv[5], NULL, 10) : 0;
		if (rounds <= 0)
			finish();
		exec_left = rounds;
		work("exec", iters);
		return 1;
	}
	if (!strcmp(what, "spin")) {
		time_t end = time(NULL) + rounds;

		while (time(NULL) < end)
			run_rounds("calls", 1, iters);
		finish();
	}
	if (!strcmp(what, "all")) {
		static const char *const kinds[] = {
			"calls", "threads", "signals", "fork"
		};
		unsigned int k;

		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			run_rounds(kinds[k], rounds, iters);
		exec_left = rounds + 1;
		exec_next(iters);
		return 1;
	}
	run_rounds(what, rounds, iters);
	finish();
	return 0;
}
