// SPDX-License-Identifier: GPL-2.0
/*
 * For random-moment SIGKILL of dcg-trace -p with threads inside the
 * window: "busy THREADS ROUNDS".  Each of THREADS threads calls
 * work(200) ROUNDS times, 1 ms apart; work(n) makes n calls of leaf()
 * and returns n*(n-1)/2 = 19900 for n = 200.  Untraced a round costs
 * about 1 ms, so the program runs for about ROUNDS ms; stepped,
 * work() costs far more than the pause, so a traced thread is nearly
 * always inside the window.
 *
 * It prints "ready PID" once running.  At the end each thread's total
 * must be ROUNDS * 19900 ("totals agree", else "totals WRONG"), and the
 * bytes of work() and leaf() must be what they were at the start
 * ("code unchanged": no int3 left behind).  Exit 0 only if both hold.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "../codesum.h"

#define NOINLINE __attribute__((noinline))
#define MAX_THREADS 32

static long rounds;

static NOINLINE long leaf(long i) { return i; }

NOINLINE long work(long n)
{
	long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += leaf(i);
	return sum;
}

static void *loop(void *arg)
{
	long r, total = 0;

	for (r = 0; r < rounds; r++) {
		total += work(200);
		usleep(1000);
	}
	*(long *)arg = total;
	return NULL;
}

static unsigned long code_sum(void)
{
	return code_checksum((const void *)work, 32) ^
	       code_checksum((const void *)leaf, 16);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4, i, bad = 0;
	long totals[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	unsigned long before = code_sum();

	rounds = argc > 2 ? atol(argv[2]) : 1000;
	if (n < 1 || n > MAX_THREADS || rounds < 1) {
		fprintf(stderr, "usage: busy [THREADS (1-%d) [ROUNDS]]\n",
			MAX_THREADS);
		return 2;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, loop, &totals[i]))
			return 1;
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		bad += totals[i] != rounds * 19900;
	}
	printf("totals %s\n", bad ? "WRONG" : "agree");
	printf("code %s\n", code_sum() == before ? "unchanged" : "CHANGED");
	return bad || code_sum() != before;
}
