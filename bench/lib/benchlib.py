# SPDX-License-Identifier: GPL-2.0
"""benchlib - helpers of bench/run: running commands with a bound,
reading each tool's output, and the indirect-call check.

The check.  Every job names the functions that are only ever called
through a pointer "ind_*" (bench/jobs/job.h).  The oracle build of a job
(-finstrument-functions, bench/lib/oracle-hook.c) counts each
(innermost instrumented caller, callee) pair.  Its pairs whose callee is
an ind_* function are the expected set E, with their counts.

A tool's output is reduced to the same shape: for each call of an ind_*
function, the innermost *job* function above it (library frames such as
qsort's internals in between are skipped, since the oracle cannot see
them either).  Tools that only keep a caller->callee edge table
(callgrind, the stap edge table) have no call stacks; for them a pair
(A, T) counts as seen when T is reachable from A through non-job
functions only, and the count compared is the total calls of T.

Verdict: "yes" when every pair in E is seen and every ind_* function's
total calls equal the oracle's; otherwise what is missing or differs.
"""
import os
import re
import statistics
import subprocess
import time
from collections import Counter, defaultdict

IND_PREFIX = "ind_"


class Result:
    """One tool on one job."""

    def __init__(self, tool, job):
        self.tool, self.job = tool, job
        self.walls = []		# seconds, one per run
        self.native = None	# median native wall for the same size
        self.events = None	# text, with its unit
        self.nevents = 0	# dcg-trace: events written
        self.indirect = "n/a"
        self.size = None	# bytes of output, or text
        self.needs = ""
        self.note = ""
        self.error = None	# one line: why it did not run

    def ratio(self):
        if self.error or not self.walls or not self.native:
            return None
        return statistics.median(self.walls) / self.native


def run_cmd(argv, timeout, env=None, stdout=None, cwd=None):
    """Run argv; returns (status, seconds, stdout text, stderr text).
    status is None on timeout (the process group is killed)."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(argv, stdout=stdout or subprocess.PIPE,
                             stderr=subprocess.PIPE, env=full_env, cwd=cwd,
                             start_new_session=True)
    except OSError as e:
        return 127, 0.0, "", "%s: %s" % (argv[0], e.strerror)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        out, err = p.communicate()
        return None, time.monotonic() - t0, "", ""
    t = time.monotonic() - t0
    dec = lambda b: b.decode("utf-8", "replace") if isinstance(b, bytes) else (b or "")
    return p.returncode, t, dec(out), dec(err)


def first_error_line(text, default="failed"):
    for line in text.splitlines():
        if re.search(r"error|cannot|can't|fail|denied|not |no such|unsupported",
                     line, re.I):
            return line.strip()
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else default


def job_functions(path):
    """Names of the functions defined in a job binary (nm), minus the
    start-up code the compiler adds."""
    crt = {"_start", "_init", "_fini", "deregister_tm_clones",
           "register_tm_clones", "__do_global_dtors_aux", "frame_dummy",
           "_dl_relocate_static_pie", "__libc_csu_init", "__libc_csu_fini"}
    out = subprocess.run(["nm", "--defined-only", "-S", path], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tT" and int(p[1], 16) > 0 \
                and p[3] not in crt:
            names.add(p[3])
    return names


def oracle_pairs(edges_file, binary):
    """The oracle's {(caller, ind_callee): count}, names from nm."""
    by_addr = {}
    out = subprocess.run(["nm", "--defined-only", binary], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "tTwW":
            by_addr.setdefault(int(p[0], 16), p[2])
    pairs = Counter()
    with open(edges_file) as f:
        for line in f:
            p = line.split()
            if p[0] == "dropped":
                if p[1] != "0" or p[2] != "0":
                    raise ValueError("oracle dropped records: " + line.strip())
                continue
            caller = by_addr.get(int(p[0], 16), "ROOT")
            callee = by_addr.get(int(p[1], 16), p[1])
            if callee.startswith(IND_PREFIX):
                pairs[(caller, callee)] += int(p[2])
    return pairs


def clean_name(name):
    """Strip what symbolizers add: @plt, @@GLIBC..., +0x.. offsets, (),
    and callgrind's recursion level (name'2)."""
    name = name.strip().rstrip(";{").strip()
    name = re.sub(r"'\d+$", "", name)
    name = re.sub(r"\(\)$", "", name)
    name = re.sub(r"@.*$", "", name)
    name = re.sub(r"\+0x[0-9a-f]+$", "", name)
    return name


class StackWalk:
    """Feeds call/return events, keeps a stack, counts (innermost job
    function above, ind_* callee) pairs."""

    def __init__(self, jobfns):
        self.jobfns = jobfns
        self.stacks = defaultdict(list)
        self.pairs = Counter()
        self.calls = 0

    def call(self, name, tid=0, replace=False):
        st = self.stacks[tid]
        if replace and st:
            st.pop()
        if name.startswith(IND_PREFIX):
            caller = next((f for f in reversed(st) if f in self.jobfns), "ROOT")
            self.pairs[(caller, name)] += 1
        st.append(name)
        self.calls += 1

    def ret(self, tid=0):
        st = self.stacks[tid]
        if st:
            st.pop()


def pairs_from_dcg_csv(text, jobfns):
    """dcg-report csv: tid,seq,type,depth,from,to,caller,callee,flags,ts"""
    w = StackWalk(jobfns)
    for line in text.splitlines()[1:]:
        p = line.split(",")
        if len(p) < 9:
            continue
        kind, callee = p[2], clean_name(p[7])
        if kind in ("call", "async"):
            w.call(callee, p[0])
        elif kind == "tailcall":
            w.call(callee, p[0], replace=True)
        elif kind == "ret":
            w.ret(p[0])
    return w


def pairs_from_uftrace(text, jobfns):
    """uftrace replay -f none: "name() {", "} /* name */", "name();"."""
    w = StackWalk(jobfns)
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("}"):
            w.ret()
        elif s.endswith("{"):
            w.call(clean_name(s[:-1]))
        elif s.endswith(");"):
            w.call(clean_name(s[:-1]))
            w.ret()
    return w


def pairs_from_bpftrace(text, jobfns):
    """Our bpftrace script prints "TID -> NAME" and "TID <- NAME"."""
    w = StackWalk(jobfns)
    for line in text.splitlines():
        p = line.split()
        if len(p) != 3:
            continue
        if p[1] == "->":
            w.call(p[2].rsplit(":", 1)[-1], p[0])
        elif p[1] == "<-":
            w.ret(p[0])
    return w


def edges_from_callgrind(path):
    """{(caller, callee): calls} from a callgrind.out written with
    --compress-strings=no."""
    edges = Counter()
    fn = cfn = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("fn="):
                fn = clean_name(line[3:])
            elif line.startswith("cfn="):
                cfn = clean_name(line[4:])
            elif line.startswith("calls=") and fn and cfn:
                edges[(fn, cfn)] += int(line[6:].split()[0])
    return edges


def edges_from_stap(text):
    """The tapset's edge table: "edge 0xA NAME -> 0xB NAME COUNT"
    ("(root)" for the window's root)."""
    edges = Counter()
    for line in text.splitlines():
        m = re.match(r"edge 0x[0-9a-f]+ (\S+) -> 0x[0-9a-f]+ (\S+) (\d+)$",
                     line.strip())
        if m:
            edges[(clean_name(m.group(1)), clean_name(m.group(2)))] += \
                int(m.group(3))
    return edges


def reachable_pairs(edges, jobfns):
    """From an edge table: {(job caller A, ind_* T)} such that T is
    reached from A through non-job functions only; and calls per T."""
    succ = defaultdict(set)
    totals = Counter()
    for (a, b), n in edges.items():
        succ[a].add(b)
        if b.startswith(IND_PREFIX):
            totals[b] += n
    pairs = set()
    for a in list(succ):
        if a not in jobfns:
            continue
        seen, todo = set(), list(succ[a])
        while todo:
            b = todo.pop()
            if b in seen:
                continue
            seen.add(b)
            if b.startswith(IND_PREFIX):
                pairs.add((a, b))
            if b not in jobfns:
                todo.extend(succ.get(b, ()))
    return pairs, totals


def verdict(oracle, seen_pairs, totals):
    """oracle: {(A,T): n}; seen_pairs: set of (A,T); totals: {T: calls}."""
    if not oracle:
        return "n/a (no indirect calls)"
    missing = [p for p in oracle if p not in seen_pairs]
    want = Counter()
    for (a, t), n in oracle.items():
        want[t] += n
    wrong = ["%s %d/%d" % (t, totals.get(t, 0), n)
             for t, n in sorted(want.items()) if totals.get(t, 0) != n]
    if not missing and not wrong:
        return "yes (%d/%d edges, counts equal)" % (len(oracle), len(oracle))
    what = "%s (%d/%d edges" % ("no" if len(missing) == len(oracle)
                                else "partial", len(oracle) - len(missing),
                                len(oracle))
    if wrong:
        what += "; calls " + ", ".join(wrong)
    return what + ")"


def verdict_from_walk(oracle, walk):
    totals = Counter()
    for (a, t), n in walk.pairs.items():
        totals[t] += n
    return verdict(oracle, set(walk.pairs), totals)


def human_bytes(n):
    if n is None:
        return "-"
    if isinstance(n, str):
        return n
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return ("%d %s" % (n, unit)) if unit == "B" else \
                ("%.1f %s" % (n, unit))
        n /= 1024.0


def human_count(n):
    if n >= 1e6:
        return "%.2fM" % (n / 1e6)
    if n >= 1e4:
        return "%.1fk" % (n / 1e3)
    return str(n)


def dir_size(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total
