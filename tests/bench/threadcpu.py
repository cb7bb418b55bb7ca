#!/usr/bin/env python3
"""threadcpu.py PID SECONDS: where a process's CPU time goes, by thread, over SECONDS.

Reads each thread's user and system time from /proc/PID/task/*/stat before and after, groups the
threads by name with the digits taken out (a JVM's "skyframe-evaluator-12" and "-13" are one group;
/proc gives the first 15 characters of a name) and prints the total and the 15 groups that used the
most, in seconds: user, system, threads. Used on the Bazel server during a build of the monorepo
benchmark (docs/benchmarks.md, "Monorepo scale"): the server's pid is in
OUTPUT_BASE/server/server.pid.txt.
"""

import collections
import os
import re
import sys
import time


def snapshot(pid):
    """{tid: (group, user ticks, system ticks)} of the threads of pid."""
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended between the listing and the read
            continue
        threads[tid] = (re.sub(r"[0-9#]+", "N", name), int(fields[11]), int(fields[12]))
    return threads


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: threadcpu.py PID SECONDS")
    pid, seconds = sys.argv[1], float(sys.argv[2])
    hz = os.sysconf("SC_CLK_TCK")
    before = snapshot(pid)
    time.sleep(seconds)
    after = snapshot(pid)
    groups = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for tid, (name, user, system) in after.items():
        _, user0, system0 = before.get(tid, (name, 0, 0))
        g = groups[name]
        g[0] += (user - user0) / hz
        g[1] += (system - system0) / hz
        g[2] += 1
    user = sum(g[0] for g in groups.values())
    system = sum(g[1] for g in groups.values())
    print(f"over {seconds:.0f} s: user {user:.1f} s, system {system:.1f} s")
    print("   user  system  threads  name")
    for name, (u, s, n) in sorted(groups.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:15]:
        print(f"{u:7.1f} {s:7.1f}  {n:7d}  {name}")


if __name__ == "__main__":
    main()
