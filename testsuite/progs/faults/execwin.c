// SPDX-License-Identifier: GPL-2.0
/*
 * exec from inside the traced function.
 *   execwin self     work() execs this program again ("second"), whose
 *                    work() is traced again: two windows
 *   execwin other    work() execs /bin/echo, which has no work(): one
 *                    window, and tracing stops cleanly
 *   execwin thread   as self, from a second thread (the exec'ing
 *                    thread takes over the process id)
 * Each image says what it computed; the exec'd echo says "echo ran".
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static const char *self, *mode;

static NOINLINE int before(int x) { return x + 1; }
static NOINLINE int after(int x) { return x * 2; }

NOINLINE int work(int x)
{
	x = before(x);
	fflush(stdout);
	if (!strcmp(mode, "self") || !strcmp(mode, "thread"))
		execl(self, self, "second", (char *)NULL);
	else if (!strcmp(mode, "other"))
		execl("/bin/echo", "echo", "echo", "ran", (char *)NULL);
	return after(x);
}

static void *run(void *arg)
{
	printf("thread %d\n", work(3));	/* not reached: exec */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;

	self = argv[0];
	mode = argc > 1 ? argv[1] : "none";
	if (!strcmp(mode, "second")) {
		printf("second %d\n", work(10));	/* (10+1)*2 = 22 */
		return 0;
	}
	printf("first\n");
	if (!strcmp(mode, "thread")) {
		pthread_create(&th, NULL, run, NULL);
		pthread_join(th, NULL);
		return 1;
	}
	printf("main %d\n", work(1));	/* reached only for "none" */
	return 1;
}
