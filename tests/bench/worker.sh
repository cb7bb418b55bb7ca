#!/usr/bin/env bash
# worker.sh [ROUNDS] [TERMS] — clean builds of bench.sh's 20 MLIR and 20 CUDA C++ kernels (4 chips
# each) with gpubuild as sandboxed processes (the default) and as sandboxed persistent workers
# (--@rules_gpu//gpu:worker --worker_sandboxing, docs/workers.md), interleaved, ROUNDS each (default
# 3): wall time, and the spawns by runner from the execution log. Every round edits every kernel, so
# every GPU action runs again; the helper is built first, outside the clock. Prints Markdown
# (docs/benchmarks-history.md keeps it: step 5). Runs inside the build environment:
#   env/env.sh run tests/bench/worker.sh
set -uo pipefail
rounds=${1:-3} terms=${2:-1500}
# shellcheck source=tests/userrepo.sh
. "$(dirname "$0")/../userrepo.sh"
# shellcheck source=tests/bench/kernels.sh
. "$(dirname "$0")/kernels.sh"
user_checkout "${BENCH_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_worker}" || exit 1
user_repo "$repo/tests/bench/workspace" || exit 1
out=$root/out
rm -rf "$out"; mkdir -p "$out"
genkernels both -seed "$(now)" || exit 1
nbazel build //... >/dev/null 2>&1 || { nbazel build //... 2>&1 | tail -20; exit 1; }
nbazel build //... --@rules_gpu//gpu:worker >/dev/null 2>&1 || exit 1  # the worker's params files' configuration
declare -A times
for r in $(seq "$rounds"); do
  for mode in processes worker; do
    flags=()
    [ "$mode" = worker ] && flags=(--@rules_gpu//gpu:worker --worker_sandboxing)
    genkernels both -seed "$(now)" || exit 1
    s=$(now)
    nbazel build //... "${flags[@]}" --execution_log_json_file="$out/$mode.json" >"$out/$mode.log" 2>&1 || { tail -20 "$out/$mode.log"; exit 1; }
    times[$mode]+="$(awk -v n=$(($(now) - s)) 'BEGIN { printf "%.2f", n / 1e9 }') "
  done
done
nbazel shutdown >/dev/null 2>&1
runners() { python3 "$repo/tests/execlog.py" runners "$out/$1.json" | awk '{ n[$2] += $1 } END { for (r in n) printf "%d %s, ", n[r], r }' | sed 's/, $//'; }
cat <<EOM
Machine: $(nproc) cores, load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(bazel --version). Kernels: 20 MLIR + 20 CUDA C++ of $terms terms, 4 chips each. Rounds: $rounds, interleaved; wall time of \`bazel build //...\` after every kernel changed, median (all rounds).

| gpubuild runs as | wall time | spawns (last round) |
|---|---|---|
| sandboxed processes (default) | $(median ${times[processes]}) s (${times[processes]% }) | $(runners processes) |
| sandboxed persistent workers | $(median ${times[worker]}) s (${times[worker]% }) | $(runners worker) |
EOM
