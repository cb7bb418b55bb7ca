#!/usr/bin/env bash
# mlirsteps.sh [KERNELS] [TERMS] — where an MLIR kernel's clean-build time goes, rules_gpu against
# MLIR's own gpu-module-to-binary, counted in CPU time (user + system of each process, so that other
# work on the machine changes the numbers little, unlike wall time):
#   - each tool's start-up alone (--version, or an empty module): what one more process costs;
#   - per kernel (genkernels, TERMS terms, default 1500), for sm_75 sm_80 sm_86 sm_90 + sm_75 PTX:
#     MLIR's pipeline in one mlir-opt process, against the processes of rules_gpu's actions run one
#     after another outside Bazel with the same command lines (GpuLower, the PTX, each chip's
#     cubin, the link), each action's gpubuild and the tools it starts;
#   - the same kernel as the actions run it since step 6: gpubuild compile --chips, one mlir-opt
#     that lowers it and writes every chip's PTX (nvvm-attach-target per chip,
#     gpu-module-to-binary{format=isa}: MLIR's own serializer, stopped before ptxas), then a cubin
#     action per chip from its PTX and the link; the script fails unless that PTX is the per-chip
#     clang -cc1's but for comments and blank lines, and ptxas makes the same cubins of it;
#   - the work both do, apart: MLIR's pipeline stopped before ptxas (format=isa: the lowering and
#     every chip's LLVM back end), ptxas alone over each chip's PTX, and fatbinary as MLIR runs it
#     (MLIR's alone), so that what rules_gpu adds is what is left;
#   - Bazel's own part of the same actions: the 20-kernel build of bench.sh's workspace with
#     --profile, its sandbox set-up per action (sandbox.createFileSystem and
#     sandbox.filterInputsAndDirsToCreate), the actions' processes' share of the build's wall time,
#     and how many ran at once.
#   - what keeping every tool resident could save at most: one mlir-opt over the kernels joined
#     (--split-input-file; the script fails unless its lowering is the per-kernel processes'),
#     ptxas's and gpubuild's start-ups; against Bazel's server's own CPU in its 20-kernel build
#     (beside its actions' processes' and MLIR's pipeline's over the same 20 kernels): the floor of
#     per-chip actions with every tool resident.
# Prints Markdown (docs/benchmarks.md keeps the latest floor; the earlier tables are in
# docs/benchmarks-history.md, steps 3, 6, 7 and 10). Runs inside the build environment:
#   env/env.sh run tests/bench/mlirsteps.sh
set -uo pipefail
kernels=${1:-5} terms=${2:-1500}
# shellcheck source=tests/userrepo.sh
. "$(dirname "$0")/../userrepo.sh"
# shellcheck source=tests/bench/cputime.sh
. "$(dirname "$0")/cputime.sh"
# shellcheck source=tests/bench/kernels.sh
. "$(dirname "$0")/kernels.sh"
user_checkout "${BENCH_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_mlirsteps}" || exit 1
user_repo "$repo/tests/bench/workspace" || exit 1
out=$root/out
rm -rf "$out"; mkdir -p "$out"
chips=("${bench_chips[@]}")
genkernels mlir || exit 1
user_gpubuild "$out/gpubuild" || exit 1
g=$out/gpubuild
export CUDA_ROOT=/usr/lib/cuda


echo 'target triple = "nvptx64-nvidia-cuda"' >"$out/empty.ll"
starts=("clang-21 -cc1 -triple nvptx64-nvidia-cuda -target-cpu sm_80 -O3 -S -x ir $out/empty.ll -o $out/empty.s"
  "llc-21 -O3 -mcpu=sm_80 $out/empty.ll -o $out/empty2.s" "opt-21 -O3 $out/empty.ll -o $out/empty.bc"
  "mlir-opt-21 --version" "mlir-translate-21 --version" "ptxas --version" "$g --help")
start_rows=""
declare -A start_ms  # by the command's first word
for c in "${starts[@]}"; do
  v=(); for _ in $(seq 10); do v+=("$(cpu $c)") || exit 1; done
  start_ms[${c%% *}]=$(median "${v[@]}")
  start_rows+="| \`${c//$out\//}\` | ${start_ms[${c%% *}]} |"$'\n'
done

T=(--toolkit 12.4 -O 3 --ptxas ptxas --clang clang-21 --llc llc-21 --llvm-link llvm-link-21 --mlir-opt mlir-opt-21
  --mlir-translate mlir-translate-21 --opt opt-21 --libdevice /usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc)
pipe=$(mlir_pipeline fatbin)
isapipe=$(mlir_pipeline isa)
# code FILE: PTX less comments and blank lines (clang's back end prints comments MLIR's leaves out).
code() { sed 's|[[:space:]]*//.*||' "$1" | grep -v '^[[:space:]]*$'; }
own=() ownisa=() ptxas4=() fatbin4=() lower=() ptx=() bin75=() chipbin=() link=() ours=() isalow=() isabin=() isa_sum=()
for i in $(seq 0 $((kernels - 1))); do
  k=$ws/$(printf 'k%03d' "$i").mlir b=$out/$(basename "$k" .mlir)
  own+=("$(cpu mlir-opt-21 "$k" --pass-pipeline="$pipe" -o "$b.own.mlir")") || exit 1
  ownisa+=("$(cpu mlir-opt-21 "$k" --pass-pipeline="$isapipe" -o "$b.ownisa.mlir")") || exit 1
  lower+=("$(cpu "$g" compile --target //:k --format llvm "${T[@]}" -o "$b.ll" "$k")") || exit 1
  ptx+=("$(cpu "$g" compile --target //:k --chip sm_75 --format isa "${T[@]}" -o "$b.sm_75.ptx" "$b.ll")") || exit 1
  bin75+=("$(cpu "$g" compile --target //:k --chip sm_75 --format bin "${T[@]}" -o "$b.sm_75.cubin" "$b.sm_75.ptx")") || exit 1
  s=0
  for c in sm_80 sm_86 sm_90; do
    v=$(cpu "$g" compile --target //:k --chip "$c" --format bin "${T[@]}" -o "$b.$c.cubin" "$b.ll") || exit 1
    chipbin+=("$v"); s=$((s + v))
    "$g" compile --target //:k --chip "$c" --format isa "${T[@]}" -o "$b.$c.clang.ptx" "$b.ll" || exit 1
  done
  cp "$b.sm_75.ptx" "$b.sm_75.clang.ptx"
  link+=("$(cpu "$g" link --target //:k --compress lz4 -o "$b.fatbin" "$b".sm_*.cubin "$b.sm_75.ptx")") || exit 1
  ours+=("$((${lower[-1]} + ${ptx[-1]} + ${bin75[-1]} + s + ${link[-1]}))")
  # Step 6's shape, as the actions run it now: one gpubuild compile --chips (one mlir-opt)
  # writes every chip's PTX, which must be the per-chip clang's code; each chip's cubin is then
  # ptxas over it, and must be the same bytes.
  isalow+=("$(cpu "$g" compile --target //:k --format isa --chips "$(IFS=,; echo "${chips[*]}")" "${T[@]}" -o "$b.chips" "$k")") || exit 1
  for c in "${chips[@]}"; do
    cp "$b.chips/$c.ptx" "$b.$c.isa.ptx"
    diff -q <(code "$b.$c.isa.ptx") <(code "$b.$c.clang.ptx") >/dev/null ||
      { echo "mlirsteps.sh: $b: $c: the lowering's PTX is not clang's (less comments and blank lines)" >&2; exit 1; }
  done
  s=0
  for c in "${chips[@]}"; do
    v=$(cpu "$g" compile --target //:k --chip "$c" --format bin "${T[@]}" -o "$b.$c.isa.cubin" "$b.$c.isa.ptx") || exit 1
    isabin+=("$v"); s=$((s + v))
    cmp -s "$b.$c.isa.cubin" "$b.$c.cubin" || { echo "mlirsteps.sh: $b: $c: the cubin from MLIR's PTX differs from the actions'" >&2; exit 1; }
  done
  isa_sum+=("$((${isalow[-1]} + s + ${link[-1]}))")
  # The work both do, apart: ptxas alone over each chip's PTX (MLIR's runs ptxas with these
  # options), and MLIR's own last step, fatbinary per chip.
  s=0 f=0
  for c in "${chips[@]}"; do
    v=$(cpu ptxas -arch "$c" --opt-level 3 "$b.$c.isa.ptx" -o "$b.$c.alone.cubin") || exit 1
    s=$((s + v))
    cmp -s "$b.$c.alone.cubin" "$b.$c.cubin" || { echo "mlirsteps.sh: $b: $c: ptxas alone makes another cubin than the action" >&2; exit 1; }
    v=$(cpu fatbinary -64 --image3=kind=elf,sm="${c#sm_}",file="$b.$c.cubin" --image3=kind=ptx,sm="${c#sm_}",file="$b.$c.isa.ptx" --create "$b.$c.fatbin") || exit 1
    f=$((f + v))
  done
  ptxas4+=("$s") fatbin4+=("$f")
done

# What a resident lowering saves: one mlir-opt over the same kernels joined (--split-input-file), the
# pipeline stopped before ptxas as above, does their lowering without a process each; its output
# must be theirs, joined the same way (less MLIR's timing property).
joined=$out/joined.mlir
for i in $(seq 0 $((kernels - 1))); do
  [ "$i" = 0 ] || echo '// -----'
  cat "$ws/$(printf 'k%03d' "$i").mlir"
done >"$joined"
untimed() { sed 's/LLVMIRToISATimeInMs = [0-9]* : i64, //g' "$@"; }
resident=()
for _ in 1 2 3; do
  resident+=("$(cpu mlir-opt-21 --split-input-file "$joined" --pass-pipeline="$isapipe" -o "$out/joined.isa.mlir")") || exit 1
done
for i in $(seq 0 $((kernels - 1))); do
  [ "$i" = 0 ] || echo '// -----'
  untimed "$out/$(printf 'k%03d' "$i").ownisa.mlir"
done | cmp -s - <(untimed "$out/joined.isa.mlir") ||
  { echo "mlirsteps.sh: one mlir-opt over the joined kernels writes another lowering than one per kernel" >&2; exit 1; }
resident_one=$(awk -v t="$(median "${resident[@]}")" -v n="$kernels" 'BEGIN { printf "%d", t / n }')

# Bazel's own part: the 20 kernels under Bazel, profiled (the helper built first, outside the clock,
# then one clean build more, so that the server has built these actions once), and MLIR's pipeline
# over the same 20 kernels after it.
nbazel build //... >/dev/null 2>&1 || { nbazel build //... 2>&1 | tail -20; exit 1; }
genkernels mlir -seed "$(now)" || exit 1
nbazel build //... >/dev/null 2>&1 || exit 1
genkernels mlir -seed "$(($(now) + 1))" || exit 1
bazel_build //... --profile="$out/build.prof" || exit 1
b_server=$server_cpu b_actions=$actions_cpu b_cpu=$cpu
nbazel shutdown >/dev/null 2>&1
mkdir -p "$out/own20"
timed mlir_own "$out/own20" || exit 1
own20=$cpu
sandbox=$(python3 - "$out/build.prof" <<'PY'
import gzip, json, sys
try:
    d = json.load(gzip.open(sys.argv[1]))
except OSError:
    d = json.load(open(sys.argv[1]))
ev = [e for e in d["traceEvents"] if e.get("ph") == "X"]
run = [e for e in ev if e.get("name") == "subprocess.run"]
setup = sum(e["dur"] for e in ev if e.get("name") in ("sandbox.createFileSystem", "sandbox.filterInputsAndDirsToCreate"))
t0 = min(e["ts"] for e in ev)
wall = max(e["ts"] + e["dur"] for e in ev) - t0
# How long 0, 1, 2, ... actions' processes ran at once.
edges = sorted([(e["ts"], 1) for e in run] + [(e["ts"] + e["dur"], -1) for e in run])
at, n, last = {}, 0, t0
for t, d in edges:
    at[n] = at.get(n, 0) + t - last
    n, last = n + d, t
at[0] = at.get(0, 0) + t0 + wall - last
shares = ", ".join(f"{k} for {v / wall * 100:.0f} %" for k, v in sorted(at.items()))
print(f"{len(run)} actions in {wall / 1e6:.1f} s; sandbox set-up {setup / 1e3 / len(run):.1f} ms per action (wall); "
      f"the actions' processes {sum(e['dur'] for e in run) / 1e6:.1f} s in all; processes running at once: {shares} of the build")
PY
)

n=${#own[@]} o=$(median "${own[@]}") r=$(median "${ours[@]}")
cat <<EOF
Machine: $(nproc) cores, load average before the Bazel build: $(cut -d' ' -f1-3 /proc/loadavg); $(mlir-opt-21 --version | grep -o 'LLVM version [0-9.]*'); CUDA $(ptxas --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p'). Kernels: $n of $terms terms; CPU time (user + system), medians.

| one process that does nothing | CPU ms |
|---|---|
$start_rows
| one MLIR kernel, sm_75 sm_80 sm_86 sm_90 + sm_75 PTX (rules_gpu: the actions before step 6) | CPU ms |
|---|---|
| MLIR: one mlir-opt, gpu-module-to-binary{format=fatbin} | $o |
| rules_gpu: GpuLower (gpubuild, mlir-opt, mlir-translate) | $(median "${lower[@]}") |
| rules_gpu: sm_75 PTX (gpubuild, clang -cc1) | $(median "${ptx[@]}") |
| rules_gpu: sm_75 cubin from that PTX (gpubuild, ptxas) | $(median "${bin75[@]}") |
| rules_gpu: each other chip's cubin (gpubuild, clang -cc1, ptxas), x3 | $(median "${chipbin[@]}") |
| rules_gpu: GpuLink (gpubuild) | $(median "${link[@]}") |
| rules_gpu: all 7 actions' processes | $r ($(awk -v a="$r" -v b="$o" 'BEGIN { printf "%.2f", a / b }') x MLIR) |

| the same kernel, the actions as they are since step 6: the lowering writes every chip's PTX | CPU ms |
|---|---|
| one action: gpubuild compile --chips, one mlir-opt (lowering, nvvm-attach-target per chip, gpu-module-to-binary{format=isa}) | $(median "${isalow[@]}") |
| each chip's cubin from its PTX (gpubuild, ptxas), x4 | $(median "${isabin[@]}") |
| the link (as above) | $(median "${link[@]}") |
| all 6 actions' processes | $(median "${isa_sum[@]}") ($(awk -v a="$(median "${isa_sum[@]}")" -v b="$o" 'BEGIN { printf "%.2f", a / b }') x MLIR) |

| the work both do, apart | CPU ms |
|---|---|
| MLIR's pipeline stopped before ptxas (gpu-module-to-binary{format=isa}): the lowering and 4 LLVM back ends | $(median "${ownisa[@]}") |
| ptxas alone over each chip's PTX, x4 | $(median "${ptxas4[@]}") |
| fatbinary as MLIR runs it, x4 (MLIR's alone) | $(median "${fatbin4[@]}") |

Bazel, the same kernels (20) under linux-sandbox: $sandbox.

The 20-kernel build's CPU: Bazel's server ${b_server} s, its actions' processes ${b_actions} s, in all ${b_cpu} s; MLIR's pipeline over the same 20 kernels, after it, ${own20} s ($(awk -v a="$b_cpu" -v b="$own20" 'BEGIN { printf "%.2f", a / b }') x).

EOF
# The floor of per-chip actions, per kernel: the actions' processes, less what keeping every tool
# resident could save at most, plus Bazel's server's share of the build.
# (Medians of an even count are halves: whole milliseconds from here.)
ms() { awk -v x="$1" 'BEGIN { printf "%d", x + 0.5 }'; }
a=$(ms "$(median "${isa_sum[@]}")") low=$(ms "$(median "${ownisa[@]}")")
save_low=$((low - resident_one)) save_px=$((4 * $(ms "${start_ms[ptxas]}"))) save_gb=$((6 * $(ms "${start_ms[$g]}")))
srv=$(ms "$(awk -v s="$b_server" 'BEGIN { print s * 1000 / 20 }')")
floor=$((a - save_low - save_px - save_gb + srv))
cat <<EOF
| one MLIR kernel: what keeping every tool resident could save at most | CPU ms |
|---|---|
| MLIR's pipeline: one mlir-opt, gpu-module-to-binary{format=fatbin} | $o |
| rules_gpu: its 6 actions' processes, as above | $a |
| a resident lowering: one mlir-opt per kernel ($low) against one over all $kernels joined, per kernel ($resident_one) | -$save_low |
| ptxas as a library: its start-up, x4 | -$save_px |
| a resident helper: gpubuild's start-up, x6 | -$save_gb |
| Bazel's server: its own CPU in the 20-kernel build, per kernel | +$srv |
| per-chip actions with every tool resident, Bazel's server kept | $floor ($(awk -v a="$floor" -v b="$o" 'BEGIN { printf "%.2f", a / b }') x MLIR) |
EOF
