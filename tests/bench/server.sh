#!/usr/bin/env bash
# server.sh [BUILDS] — Bazel's server's own CPU in clean builds of bench.sh's 20 MLIR kernels
# (genkernels, 1500 terms, 120 actions), against its actions' processes':
#   - one new server, BUILDS (default 10) clean builds one after another (new constants in every
#     kernel each time, so that every action re-runs): how the server's CPU per build falls as its
#     JVM compiles its own code; then a build with nothing changed;
#   - Bazel's options that might lower it, each in a new server (one clean build to start it,
#     then three measured, the median): the default; no JSON trace profile; --watchfs and no
#     checks of output and external files; sandbox directories reused; the serial garbage
#     collector; BLAKE3 digests; and, to weigh the sandbox itself, no sandbox (local).
# Prints Markdown (docs/benchmarks.md keeps it). Runs inside the build environment:
#   env/env.sh run tests/bench/server.sh
set -uo pipefail
builds=${1:-10} terms=1500
# shellcheck source=tests/userrepo.sh
. "$(dirname "$0")/../userrepo.sh"
# shellcheck source=tests/bench/cputime.sh
. "$(dirname "$0")/cputime.sh"
# shellcheck source=tests/bench/kernels.sh
. "$(dirname "$0")/kernels.sh"
user_checkout "${BENCH_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_server}" || exit 1
user_repo "$repo/tests/bench/workspace" || exit 1
out=$root/out
rm -rf "$out"; mkdir -p "$out"
export CUDA_ROOT=/usr/lib/cuda
genkernels mlir || exit 1
nbazel build //... >/dev/null 2>&1 || { nbazel build //... 2>&1 | tail -20; exit 1; }
seed=$(now)
fresh() { seed=$((seed + 1)); genkernels mlir -seed "$seed" || exit 1; }

nbazel shutdown >/dev/null 2>&1
trend=""
for r in $(seq "$builds"); do
  fresh
  bazel_build //... || exit 1
  trend+="| $r | $server_cpu | $actions_cpu | $wall |"$'\n'
done
bazel_build //... || exit 1
trend+="| nothing changed | $server_cpu | $actions_cpu | $wall |"$'\n'

variants=""
variant() {
  local name=$1 s=() a=() r
  shift
  user_repo "$ws" "$@"
  nbazel shutdown >/dev/null 2>&1
  fresh
  nbazel build //... >/dev/null 2>&1 || { nbazel build //... 2>&1 | tail -20; exit 1; }
  for r in 1 2 3; do
    fresh
    bazel_build //... || exit 1
    s+=("$server_cpu") a+=("$actions_cpu")
  done
  variants+="| $name | ${s[*]} | $(median "${s[@]}") | $(median "${a[@]}") |"$'\n'
}
variant "default"
variant "\`--nogenerate_json_trace_profile\`" 'common --nogenerate_json_trace_profile'
variant "\`--watchfs\`, \`--noexperimental_check_output_files\`, \`--noexperimental_check_external_repository_files\`" \
  'common --watchfs' 'build --noexperimental_check_output_files' 'build --noexperimental_check_external_repository_files'
variant "\`--experimental_reuse_sandbox_directories\`" 'build --experimental_reuse_sandbox_directories'
variant "\`--host_jvm_args=-XX:+UseSerialGC\`" 'startup --host_jvm_args=-XX:+UseSerialGC'
variant "\`--digest_function=blake3\`" 'startup --digest_function=blake3'
variant "no sandbox (\`--spawn_strategy=local\`)" 'build --spawn_strategy=local'
nbazel shutdown >/dev/null 2>&1

cat <<MD
Machine: $(nproc) cores, load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(bazel --version). Kernels: 20 MLIR, $terms terms, 120 actions a clean build.

| clean build in one server | Bazel's server, CPU s | its actions' processes, CPU s | wall s |
|---|---|---|---|
$trend
| each in a new server: one clean build, then three | server CPU s, builds 2-4 | median | actions' CPU s, median |
|---|---|---|---|
$variants
MD
