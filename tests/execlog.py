#!/usr/bin/env python3
"""execlog.py VERB EXEC_LOG [ARGS] — the one reader of Bazel's JSON execution log
(--execution_log_json_file: a stream of JSON objects, one per spawn) for the tests. Actions that
Bazel's action cache found up to date are not in the log; those it ran, or fetched from a disk or
remote cache (the same action, already run elsewhere), are.

  count LOG MNEMONIC   how many spawns of MNEMONIC the build had (run or fetched)
  remote LOG [RE]      per mnemonic, how many spawns were remote cache hits and how many ran; exits
                       1, listing them, when any spawn (of the mnemonics that RE matches; default:
                       all) was not a remote cache hit
  runners LOG          how many spawns each runner ran, by mnemonic: "N RUNNER MNEMONIC" (runners:
                       remote, remote cache hit, linux-sandbox, local, ...)
  platform LOG         each spawn's execution platform properties (what a remote executor routes
                       by): "MNEMONIC TARGET key=value,..." ("-" for none)
  outputs LOG [SKIP]   every output of every spawn with its digest, sorted: "PATH HASH", the output
                       directory's configuration segment (bazel-out/k8-fastbuild-ST-.../) kept;
                       without the spawns whose mnemonic the regular expression SKIP matches
  ondisk LOG DIR       every output of the log, as a file under DIR (a workspace: bazel-out/ is its
                       link to the output tree), has the log's digest (SHA-256); exits 1 when one
                       differs or is missing (but C++ compiles' .d files, which Bazel deletes once
                       it has read them), else prints how many were compared
  abspaths LOG [RE]    spawns whose command line, environment or inputs name an absolute path (a
                       path of the machine that ran the build: an action key that no other machine
                       can share), of the mnemonics that RE matches (default: all); exits 1,
                       listing each, when any does

Used by tests/userrepo.sh (`executed`, `execlog`), tests/integration/*_test.sh, tests/remote.sh and the
benchmarks."""
import collections
import hashlib
import json
import os
import re
import signal
import sys


def spawns(path):
    dec, text, i = json.JSONDecoder(), open(path).read(), 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            break
        spawn, i = dec.raw_decode(text, i)
        yield spawn


def count(log, mnemonic):
    print(sum(s.get("mnemonic") == mnemonic for s in spawns(log)))
    return 0


def remote(log, mnemonics=".*"):
    hits, ran, misses, must = collections.Counter(), collections.Counter(), [], re.compile(mnemonics)
    for s in spawns(log):
        m = s.get("mnemonic", "?")
        if s.get("runner") == "remote cache hit":
            hits[m] += 1
        else:
            ran[m] += 1
            if must.fullmatch(m):
                misses.append("%s %s %s" % (m, s.get("targetLabel", "?"), " ".join(s.get("listedOutputs", [])[:1])))
    for m in sorted(set(hits) | set(ran)):
        print("%-24s %4d remote cache hits, %d run" % (m, hits[m], ran[m]))
    if misses:
        print("not remote cache hits:", *misses, sep="\n  ")
        return 1
    return 0


def runners(log):
    n = collections.Counter((s.get("runner", "?"), s.get("mnemonic", "?")) for s in spawns(log))
    for (runner, mnemonic), k in sorted(n.items()):
        print("%4d %s %s" % (k, runner, mnemonic))
    return 0


def platform(log):
    for s in spawns(log):
        props = s.get("platform", {}).get("properties", [])
        print(s.get("mnemonic", "?"), s.get("targetLabel", "?"),
              ",".join("%s=%s" % (p["name"], p.get("value", "")) for p in props) or "-")
    return 0


def outputs(log, skip="(?!)"):
    skip = re.compile(skip)
    for line in sorted("%s %s" % (o["path"], o.get("digest", {}).get("hash", "-"))
                       for s in spawns(log) if not skip.fullmatch(s.get("mnemonic", ""))
                       for o in s.get("actualOutputs", [])):
        print(line)
    return 0


def ondisk(log, root):
    seen, bad = 0, []
    for s in spawns(log):
        for o in s.get("actualOutputs", []):
            want = o.get("digest", {}).get("hash")
            path = os.path.join(root, o["path"])
            if not want or os.path.isdir(path):
                continue
            if s.get("mnemonic") == "CppCompile" and path.endswith(".d") and not os.path.exists(path):
                continue  # a dependency file: Bazel reads it for the headers used, then deletes it
            try:
                with open(path, "rb") as f:
                    got = hashlib.sha256(f.read()).hexdigest()
            except OSError as e:
                bad.append("%s: %s" % (o["path"], e.strerror))
                continue
            seen += 1
            if got != want:
                bad.append("%s: sha256 %s, the log says %s" % (o["path"], got, want))
    if bad:
        print(*bad[:10], sep="\n")
        return 1
    print("%d files on disk byte-identical" % seen)
    return 0 if seen else 1


# An absolute path: "/" at the start of a word, or after "=", ":" or "," (a flag's value, a search
# path); "/" inside a value (a separator) is not one, nor is "//" (a Bazel label: //pkg:name).
ABSOLUTE = re.compile(r"(?:^|[\s=:,])(/(?!/)[^\s:,]+)")


def abspaths(log, mnemonics=".*"):
    bad, want = 0, re.compile(mnemonics)
    for s in spawns(log):
        if not want.fullmatch(s.get("mnemonic", "")):
            continue
        found = []
        for arg in s.get("commandArgs", []):
            found += ["argument " + p for p in ABSOLUTE.findall(arg)]
        for var in s.get("environmentVariables", []):
            found += ["environment %s=%s" % (var["name"], p) for p in ABSOLUTE.findall(var.get("value", ""))]
        for inp in s.get("inputs", []):
            if inp["path"].startswith("/"):
                found.append("input " + inp["path"])
        if found:
            bad += 1
            print("%s %s:" % (s.get("mnemonic", "?"), s.get("targetLabel", "?")), *sorted(set(found))[:8], sep="\n  ")
    return 1 if bad else 0


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # | head: stop quietly
    verbs = {"count": count, "remote": remote, "runners": runners, "platform": platform, "outputs": outputs, "ondisk": ondisk, "abspaths": abspaths}
    if len(sys.argv) < 3 or sys.argv[1] not in verbs:
        sys.exit(__doc__)
    sys.exit(verbs[sys.argv[1]](*sys.argv[2:]))


if __name__ == "__main__":
    main()
