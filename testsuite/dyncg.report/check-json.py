#!/usr/bin/env python3
"""check-json.py - parse dcg-report's machine outputs with a real JSON
parser and check what the formats require.  Prints PASS:/FAIL: lines.

  check-json.py chrome N_X N_I FILE...   Trace Event JSON; N_X complete
                                         and N_I instant events in all
  check-json.py speedscope TOTAL FILE    weights add up to TOTAL
  check-json.py jsonl CSV FILE           same events as the CSV file
  check-json.py folded TOTAL FILE        "a;b;c N" lines, N adding up
"""
import csv
import json
import re
import sys


def report(ok, what):
    print("%s: %s" % ("PASS" if ok else "FAIL", what))


def chrome_meta(ev, tids):
    """A metadata event: process_name, or thread_name of a thread that
    has events (in this file or an earlier part)."""
    if not isinstance(ev.get("args", {}).get("name"), str) or "pid" not in ev:
        return False
    if ev["name"] == "process_name":
        return "tid" not in ev
    return ev["name"] == "thread_name" and ev.get("tid") in tids


def chrome(nx, ni, files):
    xs = is_ = 0
    ok = named = True
    tids = set()
    for name in files:
        with open(name) as f:
            doc = json.load(f)
        evs = doc["traceEvents"]
        tids |= {ev.get("tid") for ev in evs if ev.get("ph") != "M"}
        meta = [ev for ev in evs if ev.get("ph") == "M"]
        named = named and all(chrome_meta(ev, tids) for ev in meta) and \
            sum(ev["name"] == "process_name" for ev in meta) == 1
        for ev in evs:
            if ev.get("ph") == "M":
                continue
            for key in ("ph", "ts", "pid", "tid", "name"):
                if key not in ev:
                    ok = False
            if ev["ph"] == "X":
                xs += 1
                ok = ok and isinstance(ev["dur"], (int, float))
            elif ev["ph"] == "i":
                is_ += 1
    report(ok, "chrome: every event has ph, ts, pid, tid, name")
    report(named, "chrome: every file names the process once, and only threads it has")
    report(xs == nx and is_ == ni,
           "chrome: %d complete and %d instant events in %d file(s) (got %d, %d)"
           % (nx, ni, len(files), xs, is_))


def speedscope(total, name):
    with open(name) as f:
        doc = json.load(f)
    prof = doc["profiles"][0]
    frames = doc["shared"]["frames"]
    ok = all(0 <= i < len(frames) for s in prof["samples"] for i in s)
    report(ok and len(prof["samples"]) == len(prof["weights"]),
           "speedscope: samples index frames, one weight each")
    report(sum(prof["weights"]) == total,
           "speedscope: weights add up to %d (got %d)" % (total, sum(prof["weights"])))


def jsonl(csvname, name):
    with open(csvname) as f:
        rows = list(csv.DictReader(f))
    with open(name) as f:
        objs = [json.loads(line) for line in f]
    same = len(rows) == len(objs)
    for r, o in zip(rows, objs):
        for k in r:
            if str(o[k]) != r[k]:
                same = False
    report(same, "jsonl: %d lines parse and match the CSV event for event" % len(rows))


def folded(total, name):
    pat = re.compile(r"^(\S[^;]*)(;[^;]+)* (\d+)$")
    s = 0
    ok = True
    with open(name) as f:
        for line in f:
            m = pat.match(line.rstrip("\n"))
            if not m:
                ok = False
            else:
                s += int(m.group(3))
    report(ok, "folded: every line is 'frame;frame... N'")
    report(s == total, "folded: values add up to %d (got %d)" % (total, s))


def main():
    what = sys.argv[1]
    if what == "chrome":
        chrome(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
    elif what == "speedscope":
        speedscope(int(sys.argv[2]), sys.argv[3])
    elif what == "jsonl":
        jsonl(sys.argv[2], sys.argv[3])
    elif what == "folded":
        folded(int(sys.argv[2]), sys.argv[3])


if __name__ == "__main__":
    main()
