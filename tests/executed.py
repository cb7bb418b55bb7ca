#!/usr/bin/env python3
"""executed.py EXEC_LOG MNEMONIC — how many actions of MNEMONIC a build had to run, from the JSON
execution log it wrote (--execution_log_json_file): a stream of JSON objects, one per spawn. Actions
that Bazel's action cache found up to date are not in the log; those it ran, or fetched from a disk or
remote cache (the same action, already run elsewhere), are. Used through tests/userrepo.sh (`executed`)
by tests/scenarios.sh and tests/bench/bench.sh."""
import json
import sys


def main():
    path, mnemonic = sys.argv[1], sys.argv[2]
    dec, text, n, i = json.JSONDecoder(), open(path).read(), 0, 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            break
        spawn, i = dec.raw_decode(text, i)
        n += spawn.get("mnemonic") == mnemonic
    print(n)


if __name__ == "__main__":
    main()
