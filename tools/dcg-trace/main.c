// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - dcg-trace: trace what a function really calls, with ptrace.
 *
 *   dcg-trace [options] -f FUNC[,FUNC...] -o FILE -- PROG ARGS...
 *   dcg-trace [options] -f FUNC[,FUNC...] -o FILE -p PID
 *
 * Exit status (the convention of all three tools, doc/dcg-trace.1):
 * the program's own (128+N if a signal N killed it) when it ran to its
 * end; 0 after a detach; 2 for what the user gave being wrong (unknown
 * option or function, program that cannot be run, process that cannot
 * be attached, output that cannot be written); 1 for other failures.
 */
#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "config.h"
#include "cli.h"
#include "dcg_trace.h"

struct tracer T = { .memfd = -1 };
volatile int stop_requested;

/*
 * Return registers recorded by default: rax costs 16 bytes per RET
 * (doc/dcg-trace.1 gives the measured cost); rdx only matters for
 * two-register returns, asked for with --retval 2.
 */
#define RETVAL_DEFAULT		1
#define RETVAL_DEFAULT_S	"1"
/* Six strings this long still fit one record (DCG_REC_MAX_SIZE). */
#define ARG_STRING_MAX		512u

#define TRACE_OPTIONS (PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | \
		       PTRACE_O_TRACEEXIT | PTRACE_O_TRACEFORK | \
		       PTRACE_O_TRACEVFORK | PTRACE_O_TRACEVFORKDONE)

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * A testing aid (faults.exp): DCG_TRACE_FAULT=NAME makes the tracer
 * SIGKILL itself when it reaches the point called NAME, to check what a
 * kill at that very moment leaves in the program.  Points:
 *   int3-hit   a free thread's int3 stop collected, before bp_hit()
 */
void fault_point(const char *name)
{
	static const char *want;
	static bool read;

	if (!read) {
		want = getenv("DCG_TRACE_FAULT");
		read = true;
	}
	if (want && !strcmp(want, name))
		raise(SIGKILL);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " [options] -f FUNC[,FUNC...] -o FILE -- PROG ARGS...\n"
"       " PROG " [options] -f FUNC[,FUNC...] -o FILE -p PID\n"
"  -f, --function FUNCS   trace each activation of these functions\n"
"  -o, --output FILE      trace file (dcg-report reads it)\n"
"  -p, --pid PID          attach to a running process\n"
"  -m, --mode MODE        auto (default), block, step, emulated-block, hop\n"
"  -a, --all              trace everything from the program's start\n"
"  -n, --max-events N     write at most N events; count the rest as lost\n"
"  -l, --leave-running    on Ctrl-C, detach and do not kill the program\n"
"  -D, --depth N          step N levels deep; deeper calls run unstepped\n"
"  -N, --exclude GLOB     calls into matching functions run unstepped\n"
"      --args N           record the first N argument registers of each\n"
"                         call (rdi rsi rdx rcx r8 r9; 0 to 6, default 0)\n"
"      --arg-strings L[:I,...]  and up to L bytes of the string each of them\n"
"                         (or argument I, J: 1 to 6) points at\n"
"      --retval N         record N return registers of each ret (rax rdx;\n"
"                         0 to 2, default " RETVAL_DEFAULT_S ")\n"
"      --annotate         count every instruction of each window, for\n"
"                         per-line costs (dcg-report callgrind)\n"
"      --native-syscalls  outside windows, system calls run at full speed;\n"
"                         a program that blocks or ignores SIGTRAP may then\n"
"                         lose its SIGTRAP handler (see the man page)\n"
"      --no-pin           threads in windows run on any CPU (by default each\n"
"                         shares the tracer's CPU for its window: faster)\n"
"  -v, --verbose          say more on stderr (twice: per window)\n"
"  -h, --help             this text\n"
"  -V, --version          the version\n"
"exit status: the program's own when it ran to its end, 0 after a detach,\n"
"1 tracing failed, 2 bad usage or input (see the man page)\n");
}

static void add_funcs(char *list)
{
	char *save, *name;

	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		if (T.opt.nfuncs == (int)DCG_ARRAY_SIZE(T.opt.funcs))
			dcg_die(2, "too many functions (at most %zu)",
			    DCG_ARRAY_SIZE(T.opt.funcs));
		T.opt.funcs[T.opt.nfuncs++] = name;
	}
}

static int parse_mode(const char *s)
{
	if (!strcmp(s, "auto"))
		return 0;
	if (!strcmp(s, "step"))
		return DCG_MODE_STEP;
	if (!strcmp(s, "block"))
		return DCG_MODE_BLOCK;
	if (!strcmp(s, "emulated-block") || !strcmp(s, "emu-block"))
		return DCG_MODE_EMU_BLOCK;
	if (!strcmp(s, "hop"))
		return DCG_MODE_HOP;
	dcg_die(2, "unknown mode '%s' (auto, block, step, emulated-block, hop)", s);
}

/* A count from 0 to @max, for --args and --retval. */
static unsigned int parse_count(const char *s, unsigned int max,
				const char *what)
{
	dcg_u64 v;

	if (!dcg_parse_u64(s, 10, &v) || v > max)
		dcg_die(2, "bad %s '%s' (0 to %u)", what, s, max);
	return v;
}

/*
 * --arg-strings L[:I,J,...]: up to L bytes of the string at every
 * recorded argument, or at arguments I, J (1-based).  Any value in the
 * user half that is no small integer is tried: the capture cannot know
 * which arguments are char * (DWARF tells dcg-report), and a read that
 * finds nothing mapped costs a failed pread and one byte of flags.
 */
static void parse_arg_strings(char *s)
{
	unsigned long len, i;
	char *end, *list, *save, *tok;

	errno = 0;
	len = strtoul(s, &end, 10);
	if (errno || end == s || !isdigit((unsigned char)s[0]) ||
	    (*end && *end != ':') || len < 1 || len > ARG_STRING_MAX)
		dcg_die(2, "bad string length '%s' (1 to %u, then :I,J... optionally)",
		    s, ARG_STRING_MAX);
	T.args.str_len = len;
	T.args.str_min = 0x10000;		/* below vm.mmap_min_addr */
	T.args.str_max = 0x800000000000ull;	/* the user half */
	if (!*end) {
		T.args.str_mask = (1u << DCG_ARGS_MAX) - 1;
		return;
	}
	list = end + 1;
	T.args.str_mask = 0;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		errno = 0;
		i = strtoul(tok, &end, 10);
		if (*end || errno || !isdigit((unsigned char)tok[0]) ||
		    i < 1 || i > DCG_ARGS_MAX)
			dcg_die(2, "bad argument number '%s' in --arg-strings (1 to %d)",
			    tok, DCG_ARGS_MAX);
		T.args.str_mask |= 1u << (i - 1);
	}
	if (!T.args.str_mask)
		dcg_die(2, "--arg-strings %s: no argument number after ':'", s);
}

/* -n N: events past N are counted as lost. */
static uint64_t parse_max_events(const char *s)
{
	dcg_u64 v;

	if (!dcg_parse_u64(s, 10, &v))
		dcg_die(2, "bad event count '%s'", s);
	return v;
}

static uint32_t parse_depth(const char *s)
{
	dcg_u64 v;

	if (!dcg_parse_u64(s, 10, &v) || v < 1 || v > SHADOW_CAP)
		dcg_die(2, "bad depth '%s' (1 to %d)", s, SHADOW_CAP);
	return v;
}

static pid_t parse_pid(const char *s)
{
	char *end;
	pid_t pid = strtol(s, &end, 10);

	if (*end || pid <= 0)
		dcg_die(2, "bad process id '%s'", s);
	return pid;
}

/* What is traced, and how: true if @c is one of these options. */
static bool take_trace_option(int c, char *arg)
{
	switch (c) {
	case 'f':	add_funcs(arg); break;
	case 'o':	T.opt.out = arg; break;
	case 'p':	T.opt.attach_pid = parse_pid(arg); break;
	case 'm':	T.opt.mode = parse_mode(arg); break;
	case 'a':	T.opt.all = true; break;
	case 'n':	T.opt.max_events = parse_max_events(arg); break;
	case 'l':	T.opt.leave_running = true; break;
	case 'S':	T.opt.native_syscalls = true; break;
	case 'P':	T.opt.annotate = true; break;	/* PROFILE records */
	case 'U':	T.opt.no_pin = true; break;
	case 'D':	T.opt.max_depth = parse_depth(arg); break;
	case 'N':	skip_add_exclude(arg); break;
	case 'v':	T.opt.verbose++; break;
	default:
		return false;
	}
	return true;
}

/* What each event carries: registers and strings. */
static bool take_args_option(int c, char *arg)
{
	switch (c) {
	case 'A':
		T.args.nargs = parse_count(arg, DCG_ARGS_MAX,
					   "argument count");
		break;
	case 'L':
		parse_arg_strings(arg);
		break;
	case 'R':
		T.args.nrets = parse_count(arg, DCG_RETS_MAX,
					   "return register count");
		break;
	default:
		return false;
	}
	return true;
}

static void take_option(int c, char **argv)
{
	if (take_trace_option(c, optarg) || take_args_option(c, optarg))
		return;
	switch (c) {
	case 'h':
		usage(stdout);
		exit(0);
	case 'V':
		puts(PROG " " PACKAGE_VERSION);
		exit(0);
	case ':':
		dcg_die(2, "option '%s' needs a value (see " PROG " --help)",
			bad_option(argv));
	default:
		dcg_die(2, "unknown option '%s' (see " PROG " --help)",
			bad_option(argv));
	}
}

/* The options that exclude or need each other. */
static void check_options(void)
{
	if (!T.opt.out)
		dcg_die(2, "no output file: use -o FILE");
	if (!T.opt.nfuncs && !T.opt.all)
		dcg_die(2, "nothing to trace: use -f FUNC or --all");
	if (T.opt.attach_pid && T.opt.argv[0])
		dcg_die(2, "give either -p PID or a program to run, not both");
	if (!T.opt.attach_pid && !T.opt.argv[0])
		dcg_die(2, "no program to run: dcg-trace -f FUNC -o FILE -- PROG ARGS...");
	if (T.opt.attach_pid && T.opt.all)
		dcg_die(2, "--all traces from the start: it needs a program to run, not -p");
	if (T.args.str_len && !T.args.nargs)
		dcg_die(2, "--arg-strings needs --args N (strings are read at arguments)");
	if (T.args.str_len && !(T.args.str_mask & ((1u << T.args.nargs) - 1)))
		dcg_die(2, "--arg-strings: no argument named is among the --args %u recorded",
			T.args.nargs);
}

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "function", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "mode", required_argument, NULL, 'm' },
		{ "all", no_argument, NULL, 'a' },
		{ "max-events", required_argument, NULL, 'n' },
		{ "leave-running", no_argument, NULL, 'l' },
		{ "depth", required_argument, NULL, 'D' },
		{ "exclude", required_argument, NULL, 'N' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "native-syscalls", no_argument, NULL, 'S' },
		{ "args", required_argument, NULL, 'A' },
		{ "arg-strings", required_argument, NULL, 'L' },
		{ "retval", required_argument, NULL, 'R' },
		{ "annotate", no_argument, NULL, 'P' },
		{ "no-pin", no_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	T.args.nrets = RETVAL_DEFAULT;
	opterr = 0;	/* one line of our own, not getopt's and the usage */
	while ((c = getopt_long(argc, argv, "+:f:o:p:m:an:lD:N:vhV", longopts,
				NULL)) != -1)
		take_option(c, argv);
	T.opt.argv = argv + optind;
	check_options();
}

static void on_sigpipe(int sig)
{
}

static void on_signal(int sig)
{
	stop_requested = 1;
	trace_loop_interrupt();
}

/*
 * Called by frontend_split() in the tracer before it unblocks signals:
 * a Ctrl-C the front end forwards during start-up must find the handler,
 * not the disposition inherited from the caller (SIG_IGN for a shell's
 * background job, where it was lost, or SIG_DFL).
 */
void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: waitpid must return */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/*
	 * A reader of -o - that goes away must not kill the tracer (the
	 * program would die of our traps): the write fails with EPIPE and
	 * the loop stops.  A handler, not SIG_IGN, which a started
	 * program would inherit across exec.
	 */
	sa.sa_handler = on_sigpipe;
	sigaction(SIGPIPE, &sa, NULL);
}

static void begin_trace(void)
{
	char comm[16];
	int ret;

	T.start_ns = now_ns();
	if (mem_open(T.pid) < 0)
		dcg_die(1, "cannot open /proc/%d/mem: %s", T.pid, strerror(errno));
	/* before the first int3: it restores them if we are SIGKILLed */
	ret = guardian_start(T.pid, T.started && !T.opt.leave_running);
	if (ret < 0)
		dcg_warn("no guardian (%s): if dcg-trace is killed, its "
		       "breakpoints stay in the program", strerror(-ret));
	if (sym_init(T.pid) < 0)
		dcg_warn("libdwfl could not report all modules of %d", T.pid);
	task_read_comm(T.pid, T.pid, comm, sizeof(comm));
	ret = dcg_write_header(&T.w, DCG_HOST_PTRACE, T.mode, T.pid, 0,
			       T.start_ns, comm);
	if (ret < 0)
		dcg_die(1, "%s: %s", T.opt.out, strerror(-ret));
	maps_scan(true);
	/*
	 * Out now: a file that cannot take the trace (a full disk,
	 * /dev/full) stops the tracing before it starts (the loop sees
	 * T.w.error), not after the program ran stepped to its end.
	 */
	dcg_writer_flush(&T.w);
}

static bool trace_to_stdout(void)
{
	return !strcmp(T.opt.out, "-");
}

/*
 * -o - with -p: if the process writes to the very file or pipe that is
 * our standard output, its output and the trace would interleave and
 * the trace could not be read.  We cannot move its output: refuse.
 */
static void check_stdout_shared(pid_t pid)
{
	struct stat ours, its;
	char path[64];

	if (!trace_to_stdout() || fstat(1, &ours) < 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/fd/1", pid);
	if (stat(path, &its) < 0)
		return;
	if (ours.st_dev == its.st_dev && ours.st_ino == its.st_ino)
		dcg_die(2, "-o -: process %d writes to the same standard output, "
		    "which would mix its output into the trace: use -o FILE",
		    pid);
}

/*
 * Start the program seized from its first instruction: the child waits
 * on a pipe until PTRACE_SEIZE is done, then execs.  An exec failure
 * comes back through a close-on-exec pipe.
 */
/*
 * The child: waits for the tracer's go on @go, then runs the program;
 * an exec that fails sends its errno down @err.
 */
static void __attribute__((noreturn)) exec_child(int go[2], int err[2])
{
	char c;
	int e;

	close(go[1]);
	close(err[0]);
	if (read(go[0], &c, 1) != 1)
		_exit(127);
	close(go[0]);
	/*
	 * -o -: standard output is the trace's alone (as with perf record
	 * -o -); the program's own output goes where its errors go, so
	 * that neither is lost nor mixed.
	 */
	if (trace_to_stdout() && dup2(2, 1) < 0)
		_exit(127);
	frontend_program_setup();
	execvp(T.opt.argv[0], T.opt.argv);
	e = errno;
	if (write(err[1], &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* The seized child's stops up to its exec; dies if it never gets there. */
static void wait_exec(pid_t pid, int err)
{
	int status, e = 0;

	for (;;) {
		if (waitpid(pid, &status, __WALL) != pid)
			dcg_die(1, "waitpid: %s", strerror(errno));
		if (!WIFSTOPPED(status)) {
			if (read(err, &e, sizeof(e)) == sizeof(e))
				dcg_die(2, "cannot run '%s': %s", T.opt.argv[0],
					strerror(e));
			dcg_die(2, "cannot run '%s': exited with status %d",
				T.opt.argv[0], WEXITSTATUS(status));
		}
		if ((status >> 16) == PTRACE_EVENT_EXEC)
			return;
		/* anything before the exec is ours (pipe read): let it go */
		ptrace(PTRACE_CONT, pid, 0, 0);
	}
}

static void start_program(void)
{
	int go[2], err[2];
	struct task *t;
	pid_t pid;

	if (pipe(go) < 0 || pipe2(err, O_CLOEXEC) < 0)
		dcg_die(1, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		dcg_die(1, "fork: %s", strerror(errno));
	if (pid == 0)
		exec_child(go, err);
	close(go[0]);
	close(err[1]);
	/*
	 * A program we started dies with us unless told to run on: then
	 * the kernel kills it when the tracer dies, whatever kills the
	 * tracer, before the detach could let a thread run into an int3.
	 */
	if (ptrace(PTRACE_SEIZE, pid, 0, (void *)(long)(TRACE_OPTIONS |
		   (T.opt.leave_running ? 0 : PTRACE_O_EXITKILL))) < 0) {
		kill(pid, SIGKILL);
		dcg_die(1, "cannot trace: PTRACE_SEIZE: %s", strerror(errno));
	}
	if (write(go[1], "g", 1) != 1)
		dcg_die(1, "cannot start the program");
	close(go[1]);
	wait_exec(pid, err[0]);
	close(err[0]);
	T.pid = pid;
	T.started = true;
	t = task_add(pid, pid);
	begin_trace();
	thread_record(t, DCG_THREAD_START);
	if (T.opt.all) {
		if (task_getregs(t) == 0)
			window_open_here(t);
	}
	if (T.opt.nfuncs) {
		uint64_t entry = auxv_entry(pid);

		if (!entry)
			dcg_die(1, "no entry point in /proc/%d/auxv", pid);
		bp_add(entry, BP_ENTRY);
	}
	resume_task(t, 0);
}

static int seize_one(pid_t tid)
{
	struct task *t;
	int status;

	if (task_find(tid))
		return 0;
	if (ptrace(PTRACE_SEIZE, tid, 0, (void *)(long)TRACE_OPTIONS) < 0)
		return -errno;
	ptrace(PTRACE_INTERRUPT, tid, 0, 0);
	t = task_add(tid, T.opt.attach_pid);
	while (waitpid(tid, &status, __WALL) < 0 && errno == EINTR)
		;
	if (WIFSTOPPED(status) && (status >> 16) == PTRACE_EVENT_STOP)
		return 1;
	/* stopped for another reason first: keep it for the loop */
	t->has_pending = true;
	t->pending_status = status;
	t->interrupt_pending = true;
	return 1;
}

/* A number from a "Name:\tvalue" line of /proc/PID/status; -1 if none. */
static long proc_status_field(pid_t pid, const char *name)
{
	char path[64], line[256];
	size_t len = strlen(name);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ':') {
			v = strtol(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

static long yama_scope(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * PTRACE_SEIZE of the process failed: a process that cannot be attached
 * is bad usage (exit 2).  For EPERM, say which of the usual causes it
 * is: another tracer (a debugger, strace, another dcg-trace) holds it,
 * or we may not trace it.
 */
static void __attribute__((noreturn)) attach_failed(pid_t pid, int err)
{
	long tracer, uid, scope;
	char comm[16];

	if (err != EPERM)
		dcg_die(2, "cannot attach to process %d: %s", pid, strerror(err));
	tracer = proc_status_field(pid, "TracerPid");
	if (tracer > 0) {
		task_read_comm(tracer, tracer, comm, sizeof(comm));
		dcg_die(2, "cannot attach to process %d: it is already traced by "
		    "process %ld (%s); a process has one tracer at a time",
		    pid, tracer, comm[0] ? comm : "?");
	}
	uid = proc_status_field(pid, "Uid");
	scope = yama_scope();
	if (geteuid() != 0 && uid >= 0 && uid != (long)geteuid())
		dcg_die(2, "cannot attach to process %d: not permitted: it "
		    "belongs to uid %ld, and tracing another user's process "
		    "needs root", pid, uid);
	if (scope > 0)
		dcg_die(2, "cannot attach to process %d: not permitted: "
		    "kernel.yama.ptrace_scope is %ld (1: only ancestors; 2: "
		    "root only; 3: nobody)", pid, scope);
	dcg_die(2, "cannot attach to process %d: not permitted (%s)", pid,
	    strerror(err));
}

/*
 * --mode auto chose hop: not if a thread has debug registers of its
 * own enabled.  Before the header names the mode.
 */
static void auto_hop_check(void)
{
	struct task *t;
	uint64_t dr7;

	for (t = T.tasks; t; t = t->next) {
		if (dr_peek(t->tid, 7, &dr7) == 0 && (dr7 & DR7_ENABLES)) {
			T.mode = mode_program_debugregs(t->tid, dr7);
			return;
		}
	}
}

/* Seize every thread; new ones may appear while we do: loop until none. */
static void attach_process(void)
{
	pid_t pid = T.opt.attach_pid;
	struct task *t;
	char path[64];
	int added, ret;

	T.pid = pid;
	ret = seize_one(pid);
	if (ret < 0)
		attach_failed(pid, -ret);
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	do {
		struct dirent *d;
		DIR *dir = opendir(path);

		added = 0;
		if (!dir)
			break;
		while ((d = readdir(dir)))
			if (d->d_name[0] != '.' && seize_one(atoi(d->d_name)) > 0)
				added++;
		closedir(dir);
	} while (added);
	if (!T.opt.mode && T.mode == DCG_MODE_HOP)
		auto_hop_check();
	begin_trace();
	for (t = T.tasks; t; t = t->next) {
		/* the program's debug registers, put back at detach */
		dr_own(t);
		thread_record(t, DCG_THREAD_START);
	}
	if (resolve_and_arm(true) < 0) {
		T.fatal = true;
		return;
	}
	for (t = T.tasks; t; t = t->next)
		if (!t->has_pending)
			resume_task(t, 0);
}

static const char *mode_name(int mode)
{
	switch (mode) {
	case DCG_MODE_STEP:	return "step";
	case DCG_MODE_BLOCK:	return "block";
	case DCG_MODE_HOP:	return "hop";
	default:		return "emulated-block";
	}
}

/*
 * Ctrl-C (or the front end's death) with a program we started: kill
 * it, rather than detach and kill it after, when it would run on for a
 * moment.  Nothing needs restoring in a process that dies; its windows
 * are closed and every task reaped.  Threads that die still traced are
 * zombies only we can reap, and the leader is not reported before they
 * are, so this reaps them all (waiting for the leader alone, or through
 * stop_world(), could wait for ever).  A vfork child shares its memory
 * and goes too.
 */
static void kill_program(void)
{
	struct task *t, *next;
	int status;
	pid_t r;

	for (t = T.tasks; t; t = t->next)
		if (t->tgid != T.pid)
			kill(t->tgid, SIGKILL);
	kill(T.pid, SIGKILL);
	while ((r = waitpid(-1, &status, __WALL)) > 0 || errno == EINTR) {
		if (r <= 0)
			continue;
		if (WIFSTOPPED(status)) {
			/* a stop that came before the kill: let it die */
			ptrace(PTRACE_CONT, r, 0, 0);
			continue;
		}
		t = task_find(r);
		if (t) {
			window_close(t);
			task_del(t);
		}
	}
	for (t = T.tasks; t; t = next) {
		next = t->next;
		window_close(t);
		task_del(t);
	}
}

/* After "function 'X' not found": near misses, or "stripped". */
static void explain_missing(void)
{
	uint64_t addr;
	int i;

	for (i = 0; i < T.opt.nfuncs; i++)
		if (sym_resolve(T.opt.funcs[i], &addr, 1) == 0)
			sym_hint(T.opt.funcs[i]);
}

static int finish(void)
{
	bool detached = T.ntasks > 0;
	int ret, werr, rc = 0;

	if (T.fatal)
		explain_missing();	/* while the process is there to ask */
	if (detached && T.w.error)
		dcg_warn("cannot write the trace to %s (%s): %s process %d",
		       strcmp(T.opt.out, "-") ? T.opt.out : "standard output",
		       strerror(T.w.error),
		       T.started && !T.opt.leave_running ?
		       "killing the program it started," : "detaching from",
		       T.pid);
	else if (detached && frontend_gone())
		dcg_warn("the dcg-trace front end was killed: %s process %d",
		       T.started && !T.opt.leave_running ?
		       "killing the program it started," : "detaching from",
		       T.pid);
	if (detached) {
		if (T.started && (!T.opt.leave_running || T.fatal))
			kill_program();
		else
			cleanup_detach();
	}
	guardian_done();	/* every int3 is out, or the program is gone */
	dcg_write_stats(&T.w, now_ns(), T.stops, T.resyncs, T.decode_errors);
	werr = T.w.error;
	ret = dcg_writer_close(&T.w);
	if (ret < 0) {
		if (!(detached && werr))	/* not said above */
			dcg_warn("%s: %s", T.opt.out, strerror(-ret));
		rc = 1;
	}
	if (T.fatal) {
		if (T.started)
			kill(T.pid, SIGKILL);
		return 2;
	}
	mode_report();
	fprintf(stderr, PROG ": %s mode: %" PRIu64 " windows, %" PRIu64
		" stops, %" PRIu64 " events written, %" PRIu64 " dropped, %"
		PRIu64 " step-overs, %" PRIu64 " signals passed on\n",
		mode_name(T.mode), T.windows, T.stops, T.w.written,
		T.w.dropped, T.stepovers, T.sigs_delivered);
	if (T.opt.annotate)
		fprintf(stderr, PROG ": --annotate: %" PRIu64
			" tables written before their window ended (full)\n",
			T.profile_flushes);
	skip_report();
	hop_report();
	sigstate_report();
	if (rc || detached || !T.exited)
		return rc;
	if (WIFEXITED(T.exit_status))
		return WEXITSTATUS(T.exit_status);
	return 128 + WTERMSIG(T.exit_status);
}

int main(int argc, char **argv)
{
	int ret;

	dcg_progname = PROG;
	parse_args(argc, argv);
	if (T.opt.attach_pid)
		check_stdout_shared(T.opt.attach_pid);
	frontend_split();	/* from here on, this is the tracer */
	T.mode = T.opt.mode ? T.opt.mode : mode_detect();
	if (stop_requested)
		dcg_die(1, "interrupted before tracing began: nothing traced");
	ret = dcg_writer_open(&T.w, T.opt.out, T.opt.max_events);
	if (ret < 0)
		dcg_die(2, "cannot write %s: %s", T.opt.out, strerror(-ret));
	if (T.opt.attach_pid)
		attach_process();
	else
		start_program();
	if (!T.fatal)
		trace_loop();
	return finish();
}
