#!/usr/bin/env bash
# mlir.sh [REPEATS] — rules_gpu against MLIR's own pipeline on the same MLIR programs (examples/mlir:
# every .mlir there, host code and kernels), built into executables linked with the same runtime:
#   - by rules_gpu under Bazel (gpu_test's NAME_program targets, chips sm_80 and sm_90, fatbin), in
#     a copy of this checkout with its own output root (the helper and the runtime stay built from
#     one build to the next, as in a developer's repository), and
#   - by MLIR alone, as MLIR's integration tests build them: `mlir-opt --gpu-lower-to-nvvm-pipeline`
#     (device side serialized by MLIR: one chip per program, since a gpu.binary selects one object:
#     sm_90, and then once per chip the program's gpu_binary declares), mlir-translate, llc, clang
#     linking the runtime's C archive; the programs in parallel, $(nproc) at a time, as make -j would.
# REPEATS (default 3) of: every program edited (see stamp: every action of every program re-runs,
# the helper and the runtime stay built), then nothing changed; wall times and Bazel's actions
# (execution log). Prints a Markdown report (docs/benchmarks.md keeps one).
# Runs inside the build environment:
#   env/env.sh run tests/bench/mlir.sh 3
set -uo pipefail
repeats=${1:-3}
# shellcheck source=tests/userrepo.sh
. "$(dirname "$0")/../userrepo.sh"
# shellcheck source=tests/bench/stats.sh
. "$(dirname "$0")/stats.sh"
user_checkout "${BENCH_MLIR_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_bench_mlir}" || exit 1
ws=$repo
out=$root/out
ex=$repo/examples/mlir
rm -rf "$out"; mkdir -p "$out/orig" "$out/mlir"
mapfile -t progs < <(cd "$ex" && ls ./*.mlir | sed 's#^\./##; s#\.mlir$##')
for p in "${progs[@]}"; do cp "$ex/$p.mlir" "$out/orig/"; done
targets=$(nbazel query "kind(gpu_binary, //examples/mlir:all)" 2>"$out/query.log") || { cat "$out/query.log"; exit 1; }
# chips.txt: "PROG CHIP" for each chip of each program (the first gpu_binary of the program's source).
nbazel query --output=build "kind(gpu_binary, //examples/mlir:all)" 2>/dev/null | python3 -c '
import re, sys
seen = set()
for block in sys.stdin.read().split("\n)\n"):
    src = re.search(r"src = \"//examples/mlir:(\w+)\.mlir\"", block)
    chips = re.search(r"chips = \[([^\]]*)\]", block)
    if src and chips and src.group(1) not in seen:
        seen.add(src.group(1))
        for c in re.findall(r"\"(sm_\w+)\"", chips.group(1)):
            print(src.group(1), c)
' >"$out/chips.txt"
[ -s "$out/chips.txt" ] || { echo "mlir.sh: no chips read from the gpu_binary targets" >&2; exit 1; }
# stamp: every program as checked out plus one more gpu.module whose kernel stores a new constant,
# inside the top-level module (before the file's last "}"). The constant reaches every chip's
# code, so every action of every program re-runs, under Bazel as for MLIR; a comment would not do
# (Bazel stops where an action's output is unchanged: the lowering would re-run, nothing after it).
stamp() {
  local p v
  for p in "${progs[@]}"; do
    v=$((($(now) / 1000) % 2147483647))
    python3 - "$out/orig/$p.mlir" "$ex/$p.mlir" "$v" <<'PY'
import sys
src, dst, v = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(src).read()
i = text.rindex("}")
module = ("  gpu.module @bench_stamp {\n    gpu.func @stamp(%m: memref<1xi32>) kernel {\n"
          "      %c0 = arith.constant 0 : index\n      %v = arith.constant " + v + " : i32\n"
          "      memref.store %v, %m[%c0] : memref<1xi32>\n      gpu.return\n    }\n  }\n")
open(dst, "w").write(text[:i] + module + text[i:])
PY
  done
}
ran() {
  local m n s=""
  for m in GpuLower GpuCompile GpuLink GpuCheck MlirHostCompile CppLink; do
    n=$(executed "$1" "$m"); [ "$n" = 0 ] || s="$s${s:+ + }$n $m"
  done
  echo "${s:-none}"
}
# mlir_one PROG CHIP: one program through MLIR's own pipeline for one chip.
mlir_one() {
  local p=$1 chip=$2 o=$out/mlir/$1.$2
  mlir-opt-21 "$ex/$p.mlir" --gpu-lower-to-nvvm-pipeline="cubin-chip=$chip cubin-format=fatbin opt-level=2" -o "$o.mlir" &&
    mlir-translate-21 --mlir-to-llvmir "$o.mlir" -o "$o.ll" &&
    llc-21 -filetype=obj -relocation-model=pic -O2 "$o.ll" -o "$o.o" &&
    clang-21 "$o.o" "$out/libmlirrt.a" -lcuda -lpthread -ldl -o "$o"
}
export -f mlir_one
export ex out
# mlir_all CHIP: every program for CHIP; mlir_all: every program for each chip its gpu_binary declares.
mlir_all() {
  if [ $# -eq 1 ]; then printf '%s\n' "${progs[@]}" | sed "s/\$/ $1/"; else cat "$out/chips.txt"; fi |
    xargs -P "$(nproc)" -n 2 bash -c 'mlir_one "$0" "$1"'
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
# Warm-up, not timed: the helper, the runtime and the rest Bazel needs; the runtime's archive for MLIR's.
stamp
nbazel build $targets >"$out/bazel.log" 2>&1 || { tail -30 "$out/bazel.log"; exit 1; }
(cd "$repo" && go build -tags cuda -buildmode=c-archive -o "$out/libmlirrt.a" ./tools/internal/mlirrt/archive) || exit 1
export CUDA_ROOT=${CUDA_ROOT:-/usr/lib/cuda}
mlir_all sm_90 || exit 1

t_bazel_edit=() t_bazel_noop=() cp_edit=() t_mlir90=() t_mlir2=()
for r in $(seq "$repeats"); do
  stamp
  s=$(now); nbazel build $targets --execution_log_json_file="$out/exec.json" >"$out/bazel.log" 2>&1 || { tail -30 "$out/bazel.log"; exit 1; }
  t_bazel_edit+=("$(secs $(($(now) - s)))")
  cp_edit+=("$(sed -n 's/.*Critical Path: \([0-9.]*\)s.*/\1/p' "$out/bazel.log")")
  acts_edit=$(ran "$out/exec.json")
  s=$(now); nbazel build $targets --execution_log_json_file="$out/exec.json" >"$out/bazel.log" 2>&1 || exit 1
  t_bazel_noop+=("$(secs $(($(now) - s)))")
  acts_noop=$(ran "$out/exec.json")
  s=$(now); mlir_all sm_90 || exit 1
  t_mlir90+=("$(secs $(($(now) - s)))")
  s=$(now); mlir_all || exit 1
  t_mlir2+=("$(secs $(($(now) - s)))")
done
nbazel shutdown >/dev/null 2>&1
for p in "${progs[@]}"; do cp "$out/orig/$p.mlir" "$ex/"; done

cat <<MD
Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); $(bazel --version); $(mlir-opt-21 --version | grep -m1 -o 'LLVM version [0-9.]*'); CUDA $(ptxas --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p'). Load average (1, 5, 15 min) before: $load0, after: $(cut -d' ' -f1-3 /proc/loadavg). Programs: ${#progs[@]} (examples/mlir: $(xargs <<<"${progs[*]}")). Repeats: $repeats (median, min, max).

| build of every program | wall time | rules_gpu / MLIR (sm_90) |
|---|---|---|
| rules_gpu (Bazel), every program edited: per module, a cubin per declared chip (sm_80 + sm_90; cluster: sm_90) and the lowest chip's PTX | $(stats "${t_bazel_edit[@]}"); critical path $(median "${cp_edit[@]}") s | $(ratio "$(median "${t_bazel_edit[@]}")" "$(median "${t_mlir90[@]}")") |
| rules_gpu (Bazel), nothing changed | $(stats "${t_bazel_noop[@]}") | |
| MLIR's pipeline, sm_90 only (one program per chip), $(nproc) at a time | $(stats "${t_mlir90[@]}") | 1.00 |
| MLIR's pipeline, each chip the program declares (one program per chip: $(wc -l <"$out/chips.txt") for ${#progs[@]} sources), $(nproc) at a time | $(stats "${t_mlir2[@]}") | $(ratio "$(median "${t_bazel_edit[@]}")" "$(median "${t_mlir2[@]}")") |

Actions Bazel ran: every program edited: $acts_edit; nothing changed: $acts_noop.
MD
