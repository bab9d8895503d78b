#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dcg_stap_check.py - reductions the dyncg.stap tests compare.

  oracle BINARY HOOKLOG STAPTEXT ROOT
      Reduce the -finstrument-functions log (HOOKLOG) and the tapset's
      text trace (STAPTEXT) of the same run to per-thread sequences of
      (parent, callee) calls, restricted to instrumented functions and to
      activations of ROOT.  Prints both and exits 0 iff they are equal.
      The hook log's addresses are named with `nm BINARY` (the log's
      "self" line gives the load bias), independently of stap.

  edges TRACE CSV
      Compare the EDGE records of a binary trace (written by the module's
      edge table) with (caller, callee) call counts recomputed from the
      events, as dcg-report lists them in CSV (CSV), with the caller of a
      call taken from a per-thread stack of call/ret/tailcall rows.
      Exits 0 iff they agree.

  count TRACE
      Print the number of records of each type in a binary trace, the
      sum of the LOST counts, and the STATS totals.

  same CSV1 CSV2 BINARY
      Reduce two dcg-report CSV listings (e.g. of the kernel host in the
      guest and of dcg-trace on the host, same binary) to per-thread
      (caller, callee) sequences of BINARY's own functions (libc and
      ld.so differ between the two CPUs: IFUNC picks other variants),
      threads in order of appearance, and compare them (calls of the
      -finstrument-functions hooks left out).

  threads TRACE
      The THREAD records of a binary trace, per thread: one line
        thread T pid P WHAT,WHAT...
      per thread id T, in order of first appearance (WHAT is start,
      exit or exec), then one line "shape S1 S2 ..." with the sorted
      WHAT sequences alone, which two hosts' traces of the same program
      share whatever their thread ids.  Exits 0.

  maps TRACE
      The files of the MAP records of a binary trace, one line each in
      order of first appearance:
        map PATH buildid HEX
      (HEX "-" when the record has none); several records of one path
      must agree, else the line says "buildids HEX,HEX...".  Exits 0.

  windows CSV NAME...
      One line per window of a dcg-report CSV listing (a window starts at
      a call of its thread flagged root), in the order they open:
        window N tid T root F events E calls C1,C2... last TYPE:CALLEE end K
      C1,C2... are the window's direct calls (depth 2) of the NAMEs, in
      order; "last" is its final event not flagged "end", K the number
      of events flagged "end" (the returns the runtime writes when it
      stops a window early, e.g. at an exec); " (events after the end)"
      follows if a real event came after one of those.  Exits 0.

  profile TRACE
      Per window of a binary trace (a thread's ROOT call up to its
      PROFILE record flagged last): the instructions the events give
      (the last event's insns minus the root call's: the root's
      inclusive count, which is the sum of every frame's self count)
      against the sum of count * ninsns, plus dropped, over the
      window's PROFILE records.  One line per window:
        window N tid T events E insns I profile P records R dropped D
      Exits 0 iff every window has PROFILE records and the two agree,
      and there is at least one window.

Both reductions are independent of the code under test: the oracle is
the compiler's instrumentation, the counts are recomputed from events.
"""
import collections
import csv
import re
import struct
import subprocess
import sys

ROOT = "(root)"


def die(msg):
    print("dcg_stap_check: " + msg, file=sys.stderr)
    sys.exit(2)


def nm_symbols(binary):
    """address -> one name, and name -> address for every alias."""
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True,
                         text=True, check=True).stdout
    names, addrs = {}, {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TtWw":
            a = int(f[0], 16)
            names.setdefault(a, f[2])
            addrs[f[2]] = a
    return names, addrs


def hook_seq(binary, hooklog, root):
    """Functions are identified by address (aliases such as C1/C2
    constructors share one); their names are only for display."""
    names, addrs = nm_symbols(binary)
    if "__cyg_profile_func_enter" not in addrs or root not in addrs:
        die(binary + ": no __cyg_profile_func_enter or " + root + " symbol")
    root_addr = addrs[root]
    bias = None
    stacks = collections.defaultdict(list)
    seq = collections.defaultdict(list)
    instrumented = set()
    with open(hooklog) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "self":
                bias = int(w[1], 16) - addrs["__cyg_profile_func_enter"]
                continue
            if w[0] == "dropped":
                die(hooklog + ": the hook dropped records")
            if w[0] not in ("enter", "exit") or bias is None:
                die(hooklog + ": bad line: " + line.strip())
            tid, fn, cfa = int(w[1]), int(w[2], 16) - bias, int(w[4], 16)
            st = stacks[tid]
            if w[0] == "enter":
                instrumented.add(fn)
                while st and st[-1][1] <= cfa:
                    st.pop()        # longjmp/unwinding skipped its exit
                inwin = any(a == root_addr for a, _ in st)
                if fn == root_addr and not inwin:
                    seq[tid].append((ROOT, names.get(fn, hex(fn))))
                elif inwin:
                    seq[tid].append((names.get(st[-1][0], hex(st[-1][0])),
                                     names.get(fn, hex(fn))))
                st.append((fn, cfa))
            else:
                while st:
                    a, _ = st.pop()
                    if a == fn:
                        break
    return seq, instrumented, names, addrs


LINE = re.compile(r"^\s*\d+ (.*)\((\d+)\):( *)(->|<-|=>|~>) (\S+)")


def nearest(stack, instrumented, names):
    for a in reversed(stack):
        if a in instrumented:
            return names[a]
    return ROOT


def stap_seq(text, instrumented, names, addrs):
    """The tapset prints symbol names; map them back to addresses with
    the same nm table, so that aliases compare equal.  The indentation of
    a line is the depth of its frame (1 = the window's root): a call at
    depth d has the frames 1..d-1 above it, whatever came before."""
    stacks = collections.defaultdict(list)
    seq = collections.defaultdict(list)
    with open(text, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            tid, depth = int(m.group(2)), len(m.group(3))
            arrow, name = m.group(4), m.group(5)
            if arrow == "<-" or depth < 1:
                continue
            st = stacks[tid]
            del st[depth - 1:]
            a = addrs.get(name, name)
            if a in instrumented:
                seq[tid].append((nearest(st, instrumented, names), names[a]))
            st.append(a)
    return seq


def show(title, seq):
    print("== " + title)
    for tid in sorted(seq):
        for p, c in seq[tid]:
            print("%d %s %s" % (tid, p, c))


def cmd_oracle(binary, hooklog, text, root):
    want, instrumented, names, addrs = hook_seq(binary, hooklog, root)
    got = stap_seq(text, instrumented, names, addrs)
    # The hook log is written by the process that started (hook.c):
    # forked children are traced by stap but absent from the log.
    for tid in sorted(set(got) - set(want)):
        print("NOTE: thread %d unknown to the oracle (a forked child?), "
              "%d calls not compared" % (tid, len(got[tid])))
        del got[tid]
    show("oracle", want)
    show("stap", got)
    calls = sum(len(v) for v in want.values())
    if calls == 0:
        print("MISMATCH: the oracle saw no call of " + root)
        return 1
    if dict(want) != dict(got):
        for tid in sorted(set(want) | set(got)):
            a, b = want.get(tid, []), got.get(tid, [])
            for i in range(max(len(a), len(b))):
                x = a[i] if i < len(a) else None
                y = b[i] if i < len(b) else None
                if x != y:
                    print("MISMATCH: tid %d call %d: oracle %s, stap %s"
                          % (tid, i, x, y))
                    break
        return 1
    print("MATCH: %d calls in %d threads" % (calls, len(want)))
    return 0


def records(path):
    data = open(path, "rb").read()
    pos = 0
    while pos + 8 <= len(data):
        typ, size, tid = struct.unpack_from("<HHI", data, pos)
        if size < 8 or size % 8 or pos + size > len(data):
            die("%s: bad record at offset %d" % (path, pos))
        yield typ, tid, data[pos:pos + size]
        pos += size
    if pos != len(data):
        die("%s: %d trailing bytes" % (path, len(data) - pos))


def cmd_edges(trace, csv):
    table = collections.Counter()
    for typ, _, rec in records(trace):
        if typ == 8:
            caller, callee, count = struct.unpack_from("<QQQ", rec, 8)
            table[(caller, callee)] += count
    stacks = collections.defaultdict(list)
    counted = collections.Counter()
    with open(csv) as f:
        head = f.readline().strip().split(",")
        col = {n: i for i, n in enumerate(head)}
        for line in f:
            w = line.rstrip("\n").split(",")
            tid, typ, to = w[col["tid"]], w[col["type"]], int(w[col["to"]], 16)
            st = stacks[tid]
            if typ == "call" or typ == "async":
                if typ == "call":
                    counted[(st[-1] if st else 0, to)] += 1
                st.append(to)
            elif typ == "tailcall":
                # the callee nests under the function that jumped
                counted[(st[-1] if st else 0, to)] += 1
                if st:
                    st.pop()
                st.append(to)
            elif typ == "ret":
                if st:
                    st.pop()
    for k in sorted(set(table) | set(counted)):
        print("%#x -> %#x: table %d, events %d"
              % (k[0], k[1], table.get(k, 0), counted.get(k, 0)))
    if not table:
        print("MISMATCH: no EDGE records")
        return 1
    if table != counted:
        print("MISMATCH")
        return 1
    print("MATCH: %d edges, %d calls" % (len(table), sum(table.values())))
    return 0


def cmd_count(trace):
    c = collections.Counter()
    lost = 0
    stats = None
    for typ, _, rec in records(trace):
        c[typ] += 1
        if typ == 6:
            lost += struct.unpack_from("<Q", rec, 16)[0]
        if typ == 7:
            stats = struct.unpack_from("<6Q", rec, 8)
    names = {1: "header", 2: "event", 3: "map", 4: "ksym", 5: "thread",
             6: "lost", 7: "stats", 8: "edge"}
    print(" ".join("%s=%d" % (names.get(t, str(t)), n)
                   for t, n in sorted(c.items())))
    print("lost_sum=%d" % lost)
    if stats:
        print("stats stops=%d produced=%d written=%d dropped=%d "
              "resyncs=%d decode_errors=%d" % stats)
    return 0


def cmd_profile(trace):
    wins = []           # [tid, events, first insns, last insns, prof, recs, dropped, closed]
    open_ = {}
    for typ, tid, rec in records(trace):
        if typ == 2:
            flags, insns = rec[41], struct.unpack_from("<Q", rec, 48)[0]
            w = open_.get(tid)
            if flags & 0x20 or w is None:
                w = [tid, 0, insns, insns, 0, 0, 0, False]
                wins.append(w)
                open_[tid] = w
            w[1] += 1
            w[3] = insns
        elif typ == 11:
            w = open_.get(tid)
            if w is None:
                print("PROFILE of thread %d outside a window" % tid)
                w = [tid, 0, 0, 0, 0, 0, 0, False]
                wins.append(w)
                open_[tid] = w
            dropped, nent, flags = struct.unpack_from("<QII", rec, 16)
            if len(rec) != 32 + 24 * nent:
                die("%s: PROFILE of size %d with %d entries" %
                    (trace, len(rec), nent))
            for i in range(nent):
                _, n, _, count = struct.unpack_from("<QIIQ", rec, 32 + 24 * i)
                w[4] += n * count
            w[5] += 1
            w[6] += dropped
            if flags & 1:
                w[7] = True
                del open_[tid]
    bad = 0
    for i, w in enumerate(wins):
        tid, events, first, last, prof, recs, dropped, closed = w
        ok = closed and recs and prof + dropped == last - first
        bad += not ok
        print("window %d tid %d events %d insns %d profile %d records %d "
              "dropped %d%s%s" % (i + 1, tid, events, last - first,
                                  prof + dropped, recs, dropped,
                                  "" if closed else " (no last PROFILE)",
                                  "" if ok else " MISMATCH"))
    if bad or not wins:
        print("MISMATCH: %d of %d windows" % (bad, len(wins)))
        return 1
    print("MATCH: %d windows, %d insns" %
          (len(wins), sum(w[3] - w[2] for w in wins)))
    return 0


def cmd_threads(trace):
    names = {1: "start", 2: "exit", 3: "exec"}
    seqs = collections.OrderedDict()
    pids = {}
    for typ, tid, rec in records(trace):
        if typ == 5:
            what, pid = struct.unpack_from("<II", rec, 16)
            seqs.setdefault(tid, []).append(names.get(what, str(what)))
            pids[tid] = pid
    for tid, seq in seqs.items():
        print("thread %d pid %d %s" % (tid, pids[tid], ",".join(seq)))
    print("shape " + " ".join(sorted(",".join(s) for s in seqs.values())))
    return 0


def cmd_maps(trace):
    ids = collections.OrderedDict()
    for typ, _, rec in records(trace):
        if typ == 3:
            n = rec[32]
            path = rec[64:].split(b"\0", 1)[0].decode("utf-8", "replace")
            ids.setdefault(path, [])
            h = rec[40:40 + n].hex() if n else "-"
            if h not in ids[path]:
                ids[path].append(h)
    for path, hs in ids.items():
        print("map %s buildid%s %s" % (path, "s" if len(hs) > 1 else "",
                                       ",".join(hs)))
    return 0


# The oracle's own hooks: a .function() probe of -O0 code sits after the
# prologue, which already called the entry hook, while dcg-trace stops at
# the first instruction; they are not part of the program's call graph.
HOOKS = "__cyg_profile_func_"


def csv_seq(path, keep):
    """Per-thread (caller, callee) sequences of the functions in @keep,
    the caller being the nearest kept frame (or ROOT)."""
    stacks = collections.defaultdict(list)
    seq = collections.defaultdict(list)
    order = []
    with open(path) as f:
        head = f.readline().strip().split(",")
        col = {n: i for i, n in enumerate(head)}
        for line in f:
            w = line.rstrip("\n").split(",")
            tid, typ, name = w[col["tid"]], w[col["type"]], w[col["callee"]]
            if tid not in seq:
                order.append(tid)
                seq[tid] = []
            st = stacks[tid]
            if typ in ("call", "async", "tailcall"):
                if typ == "tailcall" and st:
                    st.pop()
                if name in keep and not name.startswith(HOOKS):
                    parent = ROOT
                    for n in reversed(st):
                        if n in keep and not n.startswith(HOOKS):
                            parent = n
                            break
                    seq[tid].append((parent, name))
                st.append(name)
            elif typ == "ret" and st:
                st.pop()
    return [seq[t] for t in order]


def cmd_same(a, b, binary):
    _, addrs = nm_symbols(binary)
    keep = set(addrs)
    x, y = csv_seq(a, keep), csv_seq(b, keep)
    n = sum(len(t) for t in x)
    if x == y and n:
        print("MATCH: %d calls in %d threads" % (n, len(x)))
        return 0
    for i, (p, q) in enumerate(zip(x, y)):
        for j in range(max(len(p), len(q))):
            u = p[j] if j < len(p) else None
            v = q[j] if j < len(q) else None
            if u != v:
                print("MISMATCH: thread %d call %d: %s vs %s" % (i, j, u, v))
                return 1
    print("MISMATCH: %d vs %d threads, %d calls" % (len(x), len(y), n))
    return 1


def cmd_windows(path, names):
    """Threads interleave in the listing: each row belongs to the
    current window of its thread."""
    keep = set(names)
    wins, cur = [], {}
    try:
        f = open(path)
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
    with f:
        rows = csv.reader(f)
        head = next(rows, [])
        col = {n: i for i, n in enumerate(head)}
        for k in ("tid", "type", "depth", "callee", "flags"):
            if k not in col:
                die("%s: not a dcg-report csv listing (no %s column)"
                    % (path, k))
        for n, w in enumerate(rows, 2):
            if len(w) != len(head):
                die("%s:%d: %d fields, want %d" % (path, n, len(w), len(head)))
            tid, typ, callee = w[col["tid"]], w[col["type"]], w[col["callee"]]
            flags = w[col["flags"]].split("|")
            if typ == "call" and "root" in flags:
                cur[tid] = {"tid": tid, "root": callee, "events": 0,
                            "calls": [], "last": "-", "end": 0,
                            "end_then_more": False}
                wins.append(cur[tid])
            win = cur.get(tid)
            if win is None:
                continue
            win["events"] += 1
            if "end" in flags:
                win["end"] += 1
                continue
            if win["end"]:
                win["end_then_more"] = True
            win["last"] = typ + ":" + callee
            if (typ in ("call", "tailcall") and w[col["depth"]] == "2"
                    and callee in keep):
                win["calls"].append(callee)
    for i, win in enumerate(wins, 1):
        print("window %d tid %s root %s events %d calls %s last %s end %d%s"
              % (i, win["tid"], win["root"], win["events"],
                 ",".join(win["calls"]) or "-", win["last"], win["end"],
                 " (events after the end)" if win["end_then_more"] else ""))
    return 0


def main(argv):
    if len(argv) == 6 and argv[1] == "oracle":
        return cmd_oracle(*argv[2:])
    if len(argv) == 4 and argv[1] == "edges":
        return cmd_edges(*argv[2:])
    if len(argv) == 3 and argv[1] == "count":
        return cmd_count(argv[2])
    if len(argv) == 5 and argv[1] == "same":
        return cmd_same(argv[2], argv[3], argv[4])
    if len(argv) == 3 and argv[1] == "profile":
        return cmd_profile(argv[2])
    if len(argv) == 3 and argv[1] == "threads":
        return cmd_threads(argv[2])
    if len(argv) == 3 and argv[1] == "maps":
        return cmd_maps(argv[2])
    if len(argv) >= 3 and argv[1] == "windows":
        return cmd_windows(argv[2], argv[3:])
    die("usage: oracle BINARY HOOKLOG STAPTEXT ROOT | edges TRACE CSV | "
        "count TRACE | profile TRACE | threads TRACE | maps TRACE | same CSV1 CSV2 BINARY | "
        "windows CSV NAME...")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
