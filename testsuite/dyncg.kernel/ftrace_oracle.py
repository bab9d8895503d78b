#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ftrace_oracle.py - ftrace's function_graph as the oracle of a dyncg
kernel window (testsuite/dyncg.kernel/ftrace-oracle.exp).

  ftrace_oracle.py SYSMAP AFF NAME FTRACE_TXT BIN [--irq LOG CONFIG]

SYSMAP is the guest's System.map (from its /proc/kallsyms), AFF the
guest's available_filter_functions, FTRACE_TXT the function_graph trace
of one run of the workload (set_graph_function = the root, one task),
BIN the dyncg binary trace of another run of the same workload (a
window on the same root).  Activations are compared in order: the k-th
root call of ftrace with the k-th window of dyncg.

Each call is a (parent, child) pair of function entries; a tail call
(dyncg "=>") counts as a call from the function that made it, as
ftrace's return hook sees it.  Checks, one PASS:/FAIL: line each:
  - every ftrace pair appears in dyncg's activation (a dyncg call under
    functions that ftrace does not trace counts as a call from its
    nearest traced ancestor, as ftrace's graph shows it), except in the
    subtrees that legitimately differ between two runs (SCHED_ROOTS:
    whether and where the task is preempted or sleeps, and what the
    scheduler finds to do; RCU_ROOTS: a grace period asking this CPU for
    a quiescent state; PAGE_AGE_ROOTS and LRU_DRAIN_ROOTS: below), said
    by name;
  - every function dyncg shows that ftrace does not is explained: not
    in available_filter_functions (notrace, assembly, no fentry), or
    inside one of those subtrees, or under a function ftrace does not
    trace (its callees are then not reached by ftrace's graph either).
With --irq (a path with interrupts likely inside), the interrupts
dyncg marks (DCG_REC_IRQ) are checked against the guest's own counts:
LOG holds /proc/interrupts, /proc/softirqs and /proc/stat read in the
guest right before and after the dyncg run (between DCG-CNT-0,
DCG-CNT-1 and DCG-CNT-END lines), CONFIG the guest kernel's .config
(CONFIG_HZ, the tick).  Checks:
  - at least one IRQ record, each on a valid CPU, ending at or after its
    start, at an address in a kernel function;
  - per kind, dyncg's sum is at most the guest's delta over the run
    (timer <= LOC, ipi <= RES+CAL+TLB, nmi <= NMI, device <= the
    numbered lines, softirq <= /proc/softirqs; all <= /proc/stat intr);
  - every window that was on the CPU for 3 ticks or more (its span less
    the time its SWITCH records say it was off) shows a timer interrupt.
Nothing is derived from dyncg's own output: names come from System.map,
the traceable set from the guest.
"""
import re
import struct
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from ktrace import (SysMap, read_records, events, windows, check, results,  # noqa: E402
                    SCHED_ROOTS, RCU_ROOTS, EV_CALL, EV_RET, EV_TAIL,
                    EV_ASYNC, EVF_ROOT)

# Callees that depend on the page's age, which every read changes: the
# page's referenced/active flags and the per-CPU LRU batches decide
# whether folio_mark_accessed activates it (folio_activate,
# workingset_activation).  Seen: activated in the ftrace run and not in
# the dyncg run that followed.  The root itself must be in both.
PAGE_AGE_ROOTS = {"folio_mark_accessed", "mark_page_accessed"}

# Interrupts: dyncg never steps them (every IDT gate clears TF).  ftrace
# runs with funcgraph-irqs and its "==========>" ... "<==========" marks
# them; the lines between are dropped.  (With nofuncgraph-irqs, what
# runs at an interrupt's entry and exit outside hardirq context still
# showed under the interrupted function: irq_enter_rcu, softirqs,
# idle_cpu.)  These names are a second line of defence.
IRQ_ROOTS = {"irq_enter_rcu", "irq_enter", "irq_exit_rcu", "irq_exit",
             "handle_softirqs", "__do_softirq", "do_softirq",
             "__irq_exit_rcu"}
IRQ_PREFIXES = ("sysvec_", "__sysvec_", "asm_sysvec_", "common_interrupt",
                "__common_interrupt", "asm_common_interrupt")
# Waiting: whether a pipe read must wait for the writer (here: the EOF
# read, for the child's exit to close its end) is a matter of timing.
# Seen: the EOF read waited in the ftrace run and not in the dyncg run.
# What runs at an interrupt's exit, traced, as siblings of the
# interrupt after irq_enter_rcu() and __sysvec_*() (the entry and exit
# code itself is noinstr, so ftrace prints no "==========>" marks).
IRQ_EXIT_SIBLINGS = {"idle_cpu", "irq_exit_rcu", "__irq_exit_rcu",
                     "handle_softirqs", "__do_softirq", "wakeup_softirqd",
                     "tick_nohz_irq_exit", "rcu_irq_exit",
                     "raise_softirq", "raise_softirq_irqoff",
                     "preempt_schedule_irq"}
# The same, by family: the generic entry code's exit path
# (irqentry_exit_cond_resched and its static-call and raw_ forms) and,
# from 7.0 on, the hrtimer rearm that the timer interrupt defers to its
# exit (__hrtimer_rearm_deferred).  Seen on sid's 7.2 as siblings of
# __sysvec_apic_timer_interrupt under the interrupted function.
IRQ_EXIT_PREFIXES = ("irqentry_", "raw_irqentry_", "dynamic_irqentry_",
                     "__hrtimer_rearm", "hrtimer_rearm")
# Exceptions: dyncg never steps them either (the #PF gate clears TF
# too); a window marks a page fault with an IRQ record's faults count.
# The #PF handler's entry is noinstr, so ftrace shows what it calls under
# the function that faulted.  A fault in one run and not in the other
# is a matter of which pages were touched before.  These are called by
# the fault handler only (handle_mm_fault also by get_user_pages(),
# which dyncg steps and then shows).
PF_ROOTS = {"lock_mm_and_find_vma", "lock_vma_under_rcu", "handle_mm_fault",
            "do_user_addr_fault", "do_kern_addr_fault",
            "bad_area_nosemaphore", "__bad_area_nosemaphore"}

# Per-CPU LRU batches: a new page waits in this CPU's batch, and the
# batch goes to the LRU lists (under the lruvec lock, one move per page)
# only when it is full, so whether a write's folio_add_lru drains it
# depends on what ran on the CPU before.  Seen on sid's 7.x: the ftrace
# run's __folio_batch_add_and_move drained (folio_batch_move_lru ->
# lru_add, folio_lruvec_lock_irqsave) and the dyncg run's did not.  The
# drain itself is the call that may be missing: 5.10's pagevec names,
# 6.x's folio_batch names, and the per-page move functions they call.
LRU_DRAIN_ROOTS = {"folio_batch_move_lru", "__pagevec_lru_add",
                   "pagevec_lru_move_fn", "lru_add_fn", "lru_add",
                   "lru_add_drain", "lru_add_drain_cpu"}

# Lock contention: whether an unlock finds a waiter (and wakes it, with
# the scheduler's enqueue path under it) depends on where the other
# task was.  Seen on sid's 7.2: the child's exit (pipe_release) waited
# for pipe->mutex while the stepped reader held it, so the reader's
# mutex_unlock took __mutex_unlock_slowpath in the dyncg run and not
# in the ftrace run.
CONTENTION_PREFIXES = ("__mutex_unlock_slowpath", "__mutex_lock_slowpath",
                       "rwsem_down_read_slowpath", "rwsem_down_write_slowpath",
                       "rwsem_wake")
WAIT_FUNCS = {"init_wait_entry", "prepare_to_wait_event", "finish_wait",
              "prepare_to_wait", "autoremove_wake_function"}

FT_LINE = re.compile(r"^\s*(\d+)\)\s+(?:\S+-\d+\s+\|\s+)?[^|]*\|(\s*)(.*?)\s*$")


def mark_interrupts(act):
    """(parent, name, depth, in_irq): an interrupt starts at a line
    irq_enter_rcu() or an IRQ_ROOTS/IRQ_PREFIXES name at depth d and
    takes the following siblings at d that are interrupt exit code, each
    with its subtree."""
    out = []
    seq = None          # depth of the interrupt sequence
    sub = None          # depth of a dropped subtree's root
    for parent, name, depth in act:
        if sub is not None and depth > sub:
            out.append((parent, name, depth, True))
            continue
        sub = None
        if seq is not None and depth < seq:
            seq = None
        if irq_name(name) or (seq == depth and irq_exit_name(name)):
            seq = depth
            sub = depth
            out.append((parent, name, depth, True))
            continue
        if seq == depth:
            seq = None
        out.append((parent, name, depth, False))
    return out


# Preemption at an interrupt's exit: preempt_schedule_irq() and
# __schedule() are notrace on 7.x, so what __schedule calls shows in
# ftrace as siblings under the interrupted function.  Seen on sid's 7.2:
# vfs_read -> rcu_note_context_switch, _raw_spin_lock, update_rq_clock,
# pick_task_fair in the ftrace run, preempted, and not in the dyncg run.
# A run of such siblings (locks between them) is a preemption.
SCHED_INTERNALS = {"rcu_note_context_switch", "migrate_disable_switch",
                   "update_rq_clock", "pick_task_fair", "pick_next_task",
                   "pick_next_task_fair", "__pick_next_task", "pick_eevdf",
                   "put_prev_task_fair", "put_prev_entity", "put_prev_task",
                   "set_next_task_fair", "set_next_entity", "set_next_task",
                   "dequeue_task", "dequeue_task_fair", "psi_task_switch",
                   "prepare_task_switch", "finish_task_switch",
                   "__switch_to", "__switch_to_asm", "context_switch",
                   "__traceiter_sched_switch", "preempt_schedule_irq",
                   "__schedule", "pick_next_entity", "update_curr"}
LOCK_FUNCS = {"_raw_spin_lock", "_raw_spin_unlock", "_raw_spin_lock_irq",
              "_raw_spin_unlock_irq", "_raw_spin_lock_irqsave",
              "_raw_spin_unlock_irqrestore", "raw_spin_rq_lock_nested",
              "raw_spin_rq_unlock"}


def sched_internal(n):
    return n.split(".")[0] in SCHED_INTERNALS


def mark_preemptions(marked):
    """The same list, with the 4th field "preemption" for runs of
    sibling scheduler internals (and locks between them) with their
    subtrees."""
    out = list(marked)
    kids = {}           # parent line index -> its children's indices
    stack = []
    for i, (_, _, depth, _) in enumerate(marked):
        stack = stack[:depth]
        kids.setdefault(stack[-1] if stack else -1, []).append(i)
        stack.append(i)
    ends = {}           # line index -> index after its subtree
    for i, (_, _, depth, _) in enumerate(marked):
        j = i + 1
        while j < len(marked) and marked[j][2] > depth:
            j += 1
        ends[i] = j
    for members in kids.values():
        run = []
        for i in members + [None]:
            name = marked[i][1] if i is not None else ""
            if i is not None and (sched_internal(name) or name in LOCK_FUNCS):
                run.append(i)
                continue
            if any(sched_internal(marked[r][1]) for r in run):
                for r in run:
                    for j in range(r, ends[r]):
                        if not out[j][3]:
                            out[j] = out[j][:3] + ("preemption",)
            run = []
    return out


def ftrace_activations(path, root):
    """Activations of @root: lists of (depth, name, kind) with kind
    'call' for an entry, 'end' for its closing brace."""
    acts = []
    cur = None
    stack = []
    irq = 0
    for line in open(path, errors="replace"):
        if line.startswith("#"):
            continue
        # funcgraph-irqs: an interrupt's code between its markers
        if "==========>" in line:
            irq += 1
            continue
        if "<==========" in line:
            irq = max(0, irq - 1)
            continue
        if irq:
            continue
        m = FT_LINE.match(line)
        if not m:
            continue
        body = m.group(3)
        depth = (len(m.group(2)) - 1) // 2
        e = re.match(r"^([\w.]+)\(\) \{$", body)
        leaf = re.match(r"^([\w.]+)\(\);$", body)
        if e or leaf:
            name = (e or leaf).group(1)
            if depth == 0 and name == root and e:
                cur = []
                acts.append(cur)
                stack = []
            if cur is None:
                continue
            while len(stack) > depth:
                stack.pop()
            parent = stack[-1] if stack else None
            cur.append((parent, name, depth))
            if e:
                stack.append(name)
        elif body.startswith("}") and cur is not None:
            # The brace closes the frame at its own depth, not the top
            # of the stack: an interrupt taken in a function that had
            # no callee yet shows at that function's depth (bullseye:
            # irq_enter_rcu() beside an open rcu_read_unlock_strict(),
            # whose brace then reads "} /* rcu_read_unlock_strict */"),
            # and the leaf's line has already popped the function.
            del stack[depth:]
            if not stack:
                cur = None
    return acts


def dyncg_activation(win, sm):
    """(parent, child) pairs of one window, names as System.map gives
    them (all aliases of an entry), with the depth of the child."""
    pairs = []
    stack = []              # [entry, pushed by a tail call?]
    for e in win:
        k = e["kind"]
        if k in (EV_CALL, EV_ASYNC):
            to = sm.entry(e["to"])
            pairs.append((stack[-1][0] if stack else None, to, len(stack)))
            stack.append([to, False])
        elif k == EV_TAIL:
            to = sm.entry(e["to"])
            pairs.append((stack[-1][0] if stack else None, to, len(stack)))
            stack.append([to, True])
        elif k == EV_RET:
            while stack and stack[-1][1]:
                stack.pop()
            if stack:
                stack.pop()
    return pairs


def irq_name(n):
    return n in IRQ_ROOTS or n.startswith(IRQ_PREFIXES)


def irq_exit_name(n):
    return n in IRQ_EXIT_SIBLINGS or n.startswith(IRQ_EXIT_PREFIXES)


def differs(chain, c, volatile, page_age, sm, extra=()):
    """Why the subtree at c (chain: c and its ancestors, entries; extra:
    their names as ftrace gives them) may differ between two runs, or
    None."""
    names = {n for a in chain if a for n in sm.aliases.get(a, [])}
    names |= set(extra)
    if chain & volatile:
        return "scheduler/RCU"
    if (chain - {c}) & page_age:
        return "page age"
    if names & LRU_DRAIN_ROOTS:
        return "LRU batch"
    if any(irq_name(n) for n in names):
        return "interrupt"
    if names & PF_ROOTS:
        return "page fault"
    if any(n.startswith(CONTENTION_PREFIXES) for n in names):
        return "lock contention"
    if names & WAIT_FUNCS:
        return "wait"
    return None


def read_aff(path):
    names = set()
    for line in open(path, errors="replace"):
        p = line.split()
        if p:
            names.add(p[0])
    return names


def read_counters(path):
    """The guest's counters before and after: two dicts of sums."""
    snaps, cur = [], None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line in ("DCG-CNT-0", "DCG-CNT-1"):
            cur = {"device": 0, "softirq": 0}
            snaps.append(cur)
            continue
        if line == "DCG-CNT-END":
            cur = None
            continue
        if cur is None:
            continue
        p = line.split()
        if not p:
            continue
        if p[0] in ("intr", "softirq") and len(p) > 1 and p[1].isdigit():
            cur["stat_" + p[0]] = int(p[1])
            continue
        if not p[0].endswith(":"):
            continue
        nums = []
        for x in p[1:]:
            if not x.isdigit():
                break
            nums.append(int(x))
        key = p[0][:-1]
        if key.isdigit():                       # /proc/interrupts irq line
            cur["device"] += sum(nums)
        elif key.isupper() and key in ("HI", "TIMER", "NET_TX", "NET_RX",
                                       "BLOCK", "IRQ_POLL", "TASKLET",
                                       "SCHED", "HRTIMER", "RCU"):
            cur["softirq"] += sum(nums)         # /proc/softirqs
        else:
            cur[key] = sum(nums)
    return snaps


def config_hz(path):
    for line in open(path, errors="replace"):
        m = re.match(r"^CONFIG_HZ=(\d+)$", line.strip())
        if m:
            return int(m.group(1))
    return 0


KINDS = ("timer", "ipi", "device", "nmi", "other", "softirq")


def check_irqs(recs, sm, log, config):
    """The IRQ records of a dyncg trace against the guest's counters."""
    snaps = read_counters(log)
    hz = config_hz(config)
    check(len(snaps) == 2 and "LOC" in snaps[0] and "stat_intr" in snaps[0],
          "irq: the guest's counters before and after the run (%d)" % len(snaps))
    check(hz > 0, "irq: the guest kernel's tick: CONFIG_HZ=%d" % hz)
    if len(snaps) != 2 or hz <= 0:
        return
    b, a = snaps

    def delta(*keys):
        return sum(a.get(k, 0) - b.get(k, 0) for k in keys)

    truth = {"timer": delta("LOC"), "ipi": delta("RES", "CAL", "TLB"),
             "nmi": delta("NMI"), "device": delta("device"),
             "softirq": delta("softirq")}
    tot = dict.fromkeys(KINDS, 0)
    irqs = []
    # per window (from its ROOT call): [first ts, last ts, off CPU ns, timer]
    wins = []
    for typ, tid, raw in recs:
        if typ == 2:
            ts, frm, to, sp, kind, flags = struct.unpack_from("<QQQQBB", raw, 8)
            if kind == EV_CALL and flags & EVF_ROOT:
                wins.append([ts, ts, 0, 0])
            elif wins:
                wins[-1][1] = ts
        elif typ == 9 and wins:
            out_ts, in_ts = struct.unpack_from("<QQ", raw, 8)
            wins[-1][2] += in_ts - out_ts
        elif typ == 10:
            start, end, ip, cpu = struct.unpack_from("<QQQH", raw, 8)
            v = struct.unpack_from("<6I", raw, 36)
            irqs.append((start, end, ip, cpu, v))
            for k, x in zip(KINDS, v):
                tot[k] += x
            if wins:
                wins[-1][3] += v[0]
    nhard = len([i for i in irqs if any(i[4][:5])])
    check(nhard >= 1, "irq: the window shows interrupt markers (%d)" % nhard)
    bad = [i for i in irqs
           if i[1] < i[0] or i[3] >= 64 or not sm.entry(i[2])]
    check(not bad, "irq: every marker ends after it starts, on a CPU < 64, "
          "in a kernel function (%s)" %
          ", ".join("%s %d..%d" % (sm.name(i[2]), i[0], i[1]) for i in irqs[:4]))
    for k in ("timer", "ipi", "nmi", "device", "softirq"):
        check(tot[k] <= truth[k], "irq: %s: dyncg %d <= the guest's %d"
              % (k, tot[k], truth[k]))
    hard = sum(tot[k] for k in KINDS[:5])
    check(hard <= delta("stat_intr"), "irq: all: dyncg %d <= /proc/stat intr %d"
          % (hard, delta("stat_intr")))
    tick = 1000000000 // hz
    long_wins = [w for w in wins if w[1] - w[0] - w[2] >= 3 * tick]
    quiet = [w for w in long_wins if not w[3]]
    # Not every long window: QEMU TCG raises the guest's APIC timer from
    # its main-loop thread, and on a loaded host that thread can wait
    # longer than 3 ticks while the vCPU thread runs on, so the guest
    # itself goes that long without a tick (seen 2026-12-02 with seven
    # agents on two cores: one window of 4 on the CPU for 15.9 ms with
    # no tick).  What no host load excuses: long windows and no tick in
    # any of them.  Exact per-window counts are checked where the
    # workload fixes them (vfs-read.exp: page faults).
    check(not long_wins or len(quiet) < len(long_wins),
          "irq: windows on the CPU for 3 ticks (%d ms) or more have timer "
          "interrupts (%d such windows, %d without: %s ms on CPU)"
          % (3 * tick // 1000000, len(long_wins), len(quiet),
             ", ".join("%.1f" % ((w[1] - w[0] - w[2]) / 1e6) for w in quiet[:4])))


def main(argv):
    irq = None
    if len(argv) == 9 and argv[6] == "--irq":
        irq = argv[7:9]
        argv = argv[:6]
    if len(argv) != 6:
        print(__doc__)
        return 2
    sysmap, aff, root, ftxt, binpath = argv[1:]
    sm = SysMap(sysmap)
    traceable = read_aff(aff)
    check(len(traceable) > 1000, "guest's available_filter_functions read (%d)"
          % len(traceable))
    fa = ftrace_activations(ftxt, root)
    recs, whole = read_records(binpath)
    wins = windows(events(recs))
    check(len(fa) > 0 and len(fa) == len(wins),
          "%s: ftrace and dyncg saw the same activations (%d, %d)" %
          (root, len(fa), len(wins)))
    volatile = {sm.byname[n] for n in SCHED_ROOTS | RCU_ROOTS if n in sm.byname}
    page_age = {sm.byname[n] for n in PAGE_AGE_ROOTS if n in sm.byname}

    def names(a):
        return sm.aliases.get(a, ["%#x" % a])

    def ftrace_sees(a):
        return any(x in traceable for x in names(a))

    for k in range(min(len(fa), len(wins))):
        dpairs = dyncg_activation(wins[k], sm)
        dset = {(p, c) for p, c, _ in dpairs}
        # ftrace's graph hangs a call under its nearest traced ancestor:
        # dyncg's C under an untraceable P (fault_in_iov_iter_readable)
        # under a traced Q is ftrace's Q -> C
        dstack = []
        for p, c, depth in dpairs:
            dstack = dstack[:depth]
            up = [a for a in dstack if a is not None and ftrace_sees(a)]
            if p is not None and not ftrace_sees(p) and up:
                dset.add((up[-1], c))
            dstack.append(c)
        # ftrace pairs, by address; ancestors for the exclusions
        missing, allowed, n = [], [], 0
        chain = []
        nchain = []
        for parent, name, depth, in_irq in mark_preemptions(mark_interrupts(fa[k])):
            chain = chain[:depth]
            nchain = nchain[:depth]
            nchain.append(name)
            c = sm.byname.get(name)
            p = sm.byname.get(parent) if parent else None
            anc = set(chain)
            chain.append(c)
            if parent is None:
                continue
            n += 1
            if (p, c) in dset:
                continue
            why = in_irq if isinstance(in_irq, str) else \
                "interrupt" if in_irq else \
                differs(anc | {c}, c, volatile, page_age, sm, nchain)
            if why:
                allowed.append("%s->%s (%s)" % (parent, name, why))
                continue
            missing.append("%s->%s" % (parent, name))
        check(not missing and n > 0,
              "%s activation %d: every ftrace call is in dyncg under the same parent "
              "(%d calls, %d in subtrees that differ between runs%s%s)" %
              (root, k, n, len(allowed),
               ": " + ", ".join(sorted(set(allowed))[:6]) if allowed else "",
               "; missing: " + ", ".join(missing[:8]) if missing else ""))
        # the other way: what dyncg shows and ftrace does not
        fnames = {name for _, name, _ in fa[k]}
        stack = []
        unexplained, reasons = [], {}
        for parent, child, depth in dpairs:
            stack = stack[:depth]
            anc = list(stack)
            stack.append(child)
            ns = names(child)
            if any(x in fnames for x in ns):
                continue
            if not any(x in traceable for x in ns):
                why = "not in available_filter_functions"
            elif differs(set(anc) | {child}, child, volatile, page_age, sm):
                why = differs(set(anc) | {child}, child, volatile, page_age,
                              sm) + " subtree"
            elif any(not any(x in traceable for x in names(a)) for a in anc
                     if a is not None):
                why = "under an untraceable function"
            else:
                unexplained.append("/".join(ns))
                continue
            reasons[why] = reasons.get(why, 0) + 1
        check(not unexplained,
              "%s activation %d: every function dyncg shows that ftrace does not is "
              "explained (%s)%s" %
              (root, k, ", ".join("%d %s" % (v, r) for r, v in sorted(reasons.items()))
               or "none",
               "; unexplained: " + ", ".join(sorted(set(unexplained))[:8])
               if unexplained else ""))
    if irq:
        check_irqs(recs, sm, irq[0], irq[1])
    return 1 if results["fail"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
