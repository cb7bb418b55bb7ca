#!/usr/bin/env bash
# resident.sh [KERNELS] [TERMS] — what a resident LLVM would save on an MLIR module's per-chip
# compiles (issue 17 item 4), in CPU time (user + system):
#   - per (kernel, chip), sm_75 sm_80 sm_86 sm_90: the action's process tree as rules_gpu runs it
#     today (gpubuild compile --format isa: gpubuild and one clang -cc1 from LLVM IR to PTX), and
#     that clang -cc1 alone with the same command line;
#   - the same compiles in one process that loads LLVM once (resident/ptx.c, through LLVM's C API):
#     its start-up once, then each compile;
#   - that the resident process writes byte-identical PTX for every pair (else it fails): the
#     same work, so the difference is what starting clang costs.
# Kernels: genkernels, TERMS terms (default 1500), KERNELS of them (default 5). Prints Markdown
# (docs/benchmarks-history.md keeps it: step 4). Runs inside the build environment:
#   env/env.sh run tests/bench/resident.sh
set -uo pipefail
# shellcheck source=tests/bench/cputime.sh
. "$(dirname "$0")/cputime.sh"
kernels=${1:-5} terms=${2:-1500}
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/resident.XXXXXX")
trap 'rm -rf "$out"' EXIT
chips=(sm_75 sm_80 sm_86 sm_90)
libdevice=/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc
export CUDA_ROOT=/usr/lib/cuda

(cd "$repo" && go build -o "$out/gpubuild" ./tools/cmd/gpubuild &&
  go run ./tests/bench/genkernels -n "$kernels" -terms "$terms" -lang mlir -out "$out/k" >/dev/null) || exit 1
gcc -O2 -o "$out/ptx" "$repo/tests/bench/resident/ptx.c" "$(ldconfig -p | awk '/libLLVM\.so\.21\.1 / { print $NF; exit }')" ||
  { echo "resident.sh: cannot build resident/ptx.c against libLLVM.so.21.1" >&2; exit 1; }

sum() { printf '%s\n' "$@" | awk '{ s += $1 } END { print s + 0 }'; }

T=(--toolkit 12.4 -O 3 --ptxas ptxas --clang clang-21 --llc llc-21 --llvm-link llvm-link-21 --mlir-opt mlir-opt-21
  --mlir-translate mlir-translate-21 --opt opt-21 --libdevice "$libdevice")
action=() clang=() pairs=()
mkdir -p "$out/resident"
for k in "$out"/k/k*.mlir; do
  b=${k%.mlir}
  "$out/gpubuild" compile --target //:k --format llvm "${T[@]}" -o "$b.ll" "$k" || exit 1
  for c in "${chips[@]}"; do
    action+=("$(cpu "$out/gpubuild" compile --target //:k --chip "$c" --format isa "${T[@]}" -o "$b.$c.ptx" "$b.ll")") || exit 1
    feature=+ptx$(sed -n 's/^\.version \([0-9]*\)\.\([0-9]*\)$/\1\2/p' "$b.$c.ptx")
    clang+=("$(cpu clang-21 -cc1 -triple nvptx64-nvidia-cuda -target-cpu "$c" -target-feature "$feature" -O3 -S -x ir "$b.ll" \
      -mlink-builtin-bitcode "$libdevice" -o "$b.$c.clang.ptx")") || exit 1
    cmp -s "$b.$c.ptx" "$b.$c.clang.ptx" || { echo "resident.sh: clang alone wrote other PTX than the action for $b $c" >&2; exit 1; }
    pairs+=("$c:$feature:$b.ll")
  done
done
total=$(cpu "$out/ptx" "$libdevice" "$out/resident" "${pairs[@]}") || exit 1
"$out/ptx" "$libdevice" "$out/resident" "${pairs[@]}" >"$out/times" || exit 1
for p in "${pairs[@]}"; do
  c=${p%%:*} f=${p##*:}
  b=${f%.ll}
  cmp -s "$b.$c.ptx" "$out/resident/$(basename "$b").$c.ptx" ||
    { echo "resident.sh: the resident process wrote other PTX than clang for $(basename "$b") $c" >&2; exit 1; }
done
mapfile -t resident < <(awk '$1 == "compile" { print $2 }' "$out/times")
start=$(awk '$1 == "start" { print $2 }' "$out/times")
n=${#pairs[@]}
cat <<EOF
Machine: $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg); $(clang-21 --version | head -1); CUDA $(ptxas --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p'). Kernels: $kernels of $terms terms, chips ${chips[*]}: $n compiles from LLVM IR to PTX, each byte-identical three ways. CPU time (user + system).

| LLVM IR to PTX, one (kernel, chip) | CPU ms, median |
|---|---|
| the action's processes (gpubuild compile --format isa: gpubuild + clang -cc1) | $(median "${action[@]}") |
| clang -cc1 alone, the same command line | $(median "${clang[@]}") |
| one compile in a resident process (LLVM loaded once) | $(median "${resident[@]}") |

| all $n compiles | CPU ms |
|---|---|
| as processes: the actions' | $(sum "${action[@]}") |
| as processes: clang -cc1 alone | $(sum "${clang[@]}") |
| one resident process, its start-up included ($start ms: loader, LLVM's initialisers, NVPTX set-up) | $total |
EOF
