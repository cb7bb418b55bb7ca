#!/usr/bin/env bash
# sandboxes.sh [ROUNDS] — does Bazel's sandboxing cost the clean MLIR build its time? bench.sh's 20
# MLIR kernels (1500 terms, 4 chips), every kernel new before each build, built under each of
# Bazel's spawn strategies and sandbox options below, interleaved, ROUNDS (default 3) times, with
# MLIR's own pipeline (2 at a time) in each round. For each build: its wall time, the Bazel server's
# own CPU and its actions' processes' CPU (from /proc: the server's user + system time, and its
# reaped children's). Runs inside the build environment:
#   env/env.sh run tests/bench/sandboxes.sh
set -uo pipefail
rounds=${1:-3}
# shellcheck source=tests/userrepo.sh
. "$(dirname "$0")/../userrepo.sh"
# shellcheck source=tests/bench/kernels.sh
. "$(dirname "$0")/kernels.sh"
user_checkout "${BENCH_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_bench}" || exit 1
user_repo "$repo/tests/bench/workspace" || exit 1
out=$root/out; rm -rf "$out"; mkdir -p "$out"
genkernels mlir || exit 1
export CUDA_ROOT=/usr/lib/cuda
nbazel build //... >/dev/null 2>&1 || { nbazel build //... 2>&1 | tail -20; exit 1; }
options=("--spawn_strategy=linux-sandbox" "--spawn_strategy=local" "--spawn_strategy=processwrapper-sandbox"
  "--spawn_strategy=linux-sandbox --experimental_reuse_sandbox_directories"
  "--spawn_strategy=linux-sandbox --noincompatible_sandbox_hermetic_tmp")
echo "| round | build | wall s | Bazel server CPU s | actions' CPU s |"
echo "|---|---|---|---|---|"
for r in $(seq "$rounds"); do
  for o in "${options[@]}"; do
    genkernels mlir -seed "$(now)" || exit 1
    # shellcheck disable=SC2086 # the options are words
    bazel_build //... $o || { echo "sandboxes.sh: the build with $o fails" >&2; exit 1; }
    echo "| $r | Bazel \`$o\` | $wall | $server_cpu | $actions_cpu |"
  done
  TIMEFORMAT='%3R %3U %3S'
  t=$( { time mlir_own "$out"; } 2>&1 ) || exit 1
  awk -v r="$r" -v t="$t" 'BEGIN { split(t, x, " "); printf "| %s | MLIR: mlir-opt-21, 2 at a time | %.1f | | %.1f |\n", r, x[1], x[2] + x[3] }'
done
nbazel shutdown >/dev/null 2>&1
