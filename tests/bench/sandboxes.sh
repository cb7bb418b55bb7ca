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
user_checkout "${BENCH_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_bench}" || exit 1
user_repo "$repo/tests/bench/workspace" || exit 1
out=$root/out; rm -rf "$out"; mkdir -p "$out"
chips=(sm_75 sm_80 sm_86 sm_90)
now() { date +%s%N; }
genkernels() { (cd "$repo" && go run ./tests/bench/genkernels -n 20 -terms 1500 -lang mlir -chips "$(IFS=,; echo "${chips[*]}")" -out "$ws" "$@") >/dev/null; }
genkernels || exit 1
pipe="builtin.module($(for c in "${chips[@]}"; do printf 'nvvm-attach-target{chip=%s O=3},' "$c"; done)gpu.module(strip-debuginfo,convert-scf-to-cf,convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts),reconcile-unrealized-casts,gpu-module-to-binary{format=fatbin})"
export CUDA_ROOT=/usr/lib/cuda
tk=$(getconf CLK_TCK)
# cpuof PID: the process's own CPU ms and its reaped children's
cpuof() { awk -v tk="$tk" '{ printf "%d %d", ($14 + $15) * 1000 / tk, ($16 + $17) * 1000 / tk }' "/proc/$1/stat"; }
nbazel build //... >/dev/null 2>&1 || { nbazel build //... 2>&1 | tail -20; exit 1; }
options=("--spawn_strategy=linux-sandbox" "--spawn_strategy=local" "--spawn_strategy=processwrapper-sandbox"
  "--spawn_strategy=linux-sandbox --experimental_reuse_sandbox_directories"
  "--spawn_strategy=linux-sandbox --noincompatible_sandbox_hermetic_tmp")
echo "| round | build | wall s | Bazel server CPU s | actions' CPU s |"
echo "|---|---|---|---|---|"
for r in $(seq "$rounds"); do
  for o in "${options[@]}"; do
    genkernels -seed "$(now)" || exit 1
    pid=$(nbazel info server_pid 2>/dev/null)
    read -r a0 c0 < <(cpuof "$pid")
    s=$(now)
    # shellcheck disable=SC2086 # the options are words
    nbazel build //... $o >/dev/null 2>&1 || { echo "sandboxes.sh: the build with $o fails" >&2; exit 1; }
    w=$(($(now) - s))
    read -r a1 c1 < <(cpuof "$pid")
    awk -v r="$r" -v o="$o" -v w="$w" -v a=$((a1 - a0)) -v c=$((c1 - c0)) 'BEGIN { printf "| %s | Bazel `%s` | %.1f | %.1f | %.1f |\n", r, o, w / 1e9, a / 1e3, c / 1e3 }'
  done
  TIMEFORMAT='%3R %3U %3S'
  t=$( { time (printf '%s\n' "$ws"/k*.mlir | xargs -P "$(nproc)" -I{} sh -c 'mlir-opt-21 "$0" --pass-pipeline="$2" -o "$1/$(basename "$0").own.mlir"' {} "$out" "$pipe"); } 2>&1 ) || exit 1
  awk -v r="$r" -v t="$t" 'BEGIN { split(t, x, " "); printf "| %s | MLIR: mlir-opt-21, 2 at a time | %.1f | | %.1f |\n", r, x[1], x[2] + x[3] }'
done
nbazel shutdown >/dev/null 2>&1
