// SPDX-License-Identifier: GPL-2.0
/*
 * For SIGKILL of dcg-trace -p: the main thread reads numbers from
 * standard input and answers each with work(N) = N*N + 1, so the test
 * decides when the traced function runs and knows that no thread is
 * inside it when it kills dcg-trace.  A helper thread keeps running
 * untraced code meanwhile.  At end of input it prints whether its code
 * bytes are what they were at its start (no int3 left behind) and the
 * helper's progress.  "work-addr" lets the test read those bytes from
 * /proc/PID/mem itself.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "../codesum.h"

#define NOINLINE __attribute__((noinline))

static volatile long spins;
static volatile int done;

static NOINLINE long square(long x) { return x * x; }

NOINLINE long work(long n)
{
	return square(n) + 1;
}

static NOINLINE void other(void) { spins++; }

static void *helper(void *arg)
{
	while (!done) {
		other();
		usleep(1000);
	}
	return NULL;
}

int main(void)
{
	unsigned long before = code_checksum((const void *)work, 32) ^
			       code_checksum((const void *)square, 32);
	pthread_t th;
	char line[64];
	long n;

	pthread_create(&th, NULL, helper, NULL);
	printf("ready %d\nwork-addr %p\n", (int)getpid(), (void *)work);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		n = atol(line);
		printf("work %ld = %ld\n", n, work(n));
		fflush(stdout);
	}
	done = 1;
	pthread_join(th, NULL);
	printf("helper %s\n", spins > 0 ? "ran" : "STUCK");
	printf("code %s\n", code_checksum((const void *)work, 32) ^
	       code_checksum((const void *)square, 32) ^ before ? "CHANGED" :
	       "unchanged");
	return 0;
}
