# kernels.sh — sourced, not run: the generated kernels and MLIR's own pipeline over them, as the
# benchmarks that build bench.sh's workspace share them (bench.sh, mlirsteps.sh, sandboxes.sh,
# worker.sh). The sourcing script has sourced userrepo.sh and called user_checkout and user_repo
# ($repo, $ws), and may set terms (default 1500). It sources stats.sh (now, median, stats, ...).
#
#   bench_chips             the chips every kernel is built for
#   genkernels LANG [ARG..] 20 kernels of $terms terms in LANG (mlir, cuda or both) and their
#                           BUILD.bazel, written into $ws; ARGs go to tests/bench/genkernels (-seed N:
#                           the same kernels with new constants, so that every GPU action is new)
#   mlir_pipeline FORMAT    MLIR's own pipeline for bench_chips: nvvm-attach-target per chip, the device
#                           lowering, gpu-module-to-binary{format=FORMAT}
#   mlir_own DIR            that pipeline (fatbin) over $ws/k*.mlir, one mlir-opt-21 per kernel,
#                           $(nproc) at a time, writing into DIR
#   bazel_build ARG...      nbazel build ARG..., timed: sets wall (s), and from /proc the Bazel
#                           server's own CPU (server_cpu, s), its actions' processes' (actions_cpu,
#                           s: the server's reaped children) and their sum (cpu, s)

# shellcheck source=tests/bench/stats.sh
. "$(dirname "${BASH_SOURCE[0]}")/stats.sh"

bench_chips=(sm_75 sm_80 sm_86 sm_90)

genkernels() {
  local lang=${1:?usage: genkernels LANG [ARG...]}
  shift
  (cd "$repo" && go run ./tests/bench/genkernels -n 20 -terms "${terms:-1500}" -lang "$lang" \
    -chips "$(IFS=,; echo "${bench_chips[*]}")" -out "$ws" "$@") >/dev/null
}

mlir_pipeline() {
  local c attach=""
  for c in "${bench_chips[@]}"; do attach+="nvvm-attach-target{chip=$c O=3},"; done
  echo "builtin.module(${attach}gpu.module(strip-debuginfo,convert-scf-to-cf,convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts),reconcile-unrealized-casts,gpu-module-to-binary{format=${1:?usage: mlir_pipeline FORMAT}})"
}

mlir_own() {
  printf '%s\n' "$ws"/k*.mlir | CUDA_ROOT=${CUDA_ROOT:-/usr/lib/cuda} xargs -P "$(nproc)" -I{} \
    sh -c 'mlir-opt-21 "$0" --pass-pipeline="$2" -o "$1/$(basename "$0").own.mlir"' {} "${1:?usage: mlir_own DIR}" "$(mlir_pipeline fatbin)"
}

# _server_cpu PID: the process's own CPU ms and its reaped children's
_server_cpu() {
  awk -v tk="$(getconf CLK_TCK)" '{ printf "%d %d\n", ($14 + $15) * 1000 / tk, ($16 + $17) * 1000 / tk }' "/proc/$1/stat"
}

bazel_build() {
  local pid a0 c0 a1 c1 s
  pid=$(nbazel info server_pid 2>/dev/null) && read -r a0 c0 < <(_server_cpu "$pid") || return 1
  s=$(now)
  nbazel build "$@" >/dev/null 2>&1 || return 1
  wall=$(secs $(($(now) - s)))
  read -r a1 c1 < <(_server_cpu "$pid") || return 1
  server_cpu=$(awk -v ms=$((a1 - a0)) 'BEGIN { printf "%.2f", ms / 1e3 }')
  actions_cpu=$(awk -v ms=$((c1 - c0)) 'BEGIN { printf "%.2f", ms / 1e3 }')
  cpu=$(awk -v ms=$((a1 - a0 + c1 - c0)) 'BEGIN { printf "%.2f", ms / 1e3 }')
}
