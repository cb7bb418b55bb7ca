#!/usr/bin/env python3
"""program_flags.py DIR — reads `bazel query --output=build` of gpu_binary targets on stdin and writes,
for each program source NAME.mlir, DIR/NAME.passes (its target's passes, one a line) and DIR/NAME.chips
(its chips): build.sh's reference builds of examples/mlir take them from the targets, so that the
passes a program needs are written once, in its BUILD file. The sparsifier is given sm_90 and no
PTX features of its own, as the reference builds for sm_90."""
import ast
import re
import sys


def main(out):
    rule = {}
    for line in sys.stdin:
        m = re.match(r"\s+(src|passes|chips) = (.*),$", line)
        if m:
            rule[m[1]] = ast.literal_eval(m[2])
        elif line.startswith(")") and "src" in rule:
            name = rule["src"].split(":")[1].removesuffix(".mlir")
            with open(f"{out}/{name}.passes", "w") as f:
                for p in rule.get("passes", []):
                    p = re.sub(r"gpu-chip=\S+", "gpu-chip=sm_90", p)
                    f.write(re.sub(r" gpu-features=\S+", "", p) + "\n")
            with open(f"{out}/{name}.chips", "w") as f:
                f.write(" ".join(rule.get("chips", [])) + "\n")
            rule = {}


if __name__ == "__main__":
    main(sys.argv[1])
