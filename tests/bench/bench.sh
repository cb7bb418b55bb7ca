#!/usr/bin/env bash
# bench.sh [REPEATS] [TERMS] — rules_gpu against nvcc -gencode and MLIR's gpu-module-to-binary, in one
# run, on the same 20 generated kernels (genkernels, TERMS arithmetic terms each, default 1500), for
# the same 4 chips (sm_75, sm_80, sm_86, sm_90) with the same CUDA toolkit. REPEATS (default 3) of:
#   - clean build of the GPU code: rules_gpu under Bazel (every compile and link action re-runs, and
#     the shared precompiled headers of clang's CUDA headers are made again; the helper itself stays
#     built) against `nvcc -fatbin`, one -gencode per chip, one process per kernel
#     run $(nproc) at a time; and against mlir-opt-21 --nvvm-attach-target (x4) --gpu-module-to-binary
#     for the MLIR version of the kernels; each pair on the same sources, one after the other, which
#     side first alternating between repeats; wall time and CPU time (Bazel's: its server's own and
#     its actions' processes'), and the ratios of each pair;
#   - adding one chip to one target: actions re-run and wall time, against nvcc recompiling that
#     kernel for all its chips;
# then, once: a clean build that fills a real remote cache (bazel-remote, started and stopped here)
# against a second checkout's build of the same from that cache (wall time, actions executed);
# and the helper's own time per compile action (gpubuild compile --trace: its wall time minus
# the tools it runs), and artifact sizes (our link, uncompressed / LZ4 / zstd, against fatbinary).
# Prints a Markdown report (docs/benchmarks.md keeps one). Runs inside the build environment:
#   env/env.sh run tests/bench/bench.sh
set -uo pipefail
repeats=${1:-3} terms=${2:-1500}
# shellcheck source=tests/userrepo.sh
. "$(dirname "$0")/../userrepo.sh"
# shellcheck source=tests/servers.sh
. "$(dirname "$0")/../servers.sh"
# shellcheck source=tests/bench/kernels.sh
. "$(dirname "$0")/kernels.sh"
# shellcheck source=tests/bench/cputime.sh
. "$(dirname "$0")/cputime.sh"
user_checkout "${BENCH_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_bench}" || exit 1
user_repo "$repo/tests/bench/workspace" || exit 1
out=$root/out
chips=("${bench_chips[@]}")
rm -rf "$out"; mkdir -p "$out"
genkernels both || exit 1
# new_sources: the same kernels with new constants, so that every GPU action is new to Bazel (a
# comment would not do: it does not reach the LLVM IR an MLIR module is lowered to once).
new_sources() { genkernels both -seed "$(now)" || exit 1; }

user_gpubuild "$out/gpubuild" || exit 1
g=$out/gpubuild
nbazel build //... >/dev/null 2>&1 || { nbazel build //... 2>&1 | tail -30; exit 1; }

gencode=(); for c in "${chips[@]}"; do gencode+=(-gencode "arch=compute_${c#sm_},code=$c"); done
gencode+=(-gencode "arch=compute_75,code=compute_75")  # the PTX a rules_gpu fatbin carries
nvcc_all() { printf '%s\n' "$ws"/k*.cu | xargs -P "$(nproc)" -I{} sh -c 'o=$1; shift; nvcc -fatbin -O3 "$@" -o "$o/$(basename "$0").nvcc.fatbin" "$0"' {} "$out" "${gencode[@]}"; }
cu_targets=(); for c in $(seq 0 19); do cu_targets+=("//:$(printf 'k%03d' "$c")_cu"); done
export CUDA_ROOT=/usr/lib/cuda
# new_pch: the shared PCHs (//rules/private:cuda_pch) are made again by the next build, as in a
# clean one: they depend on no kernel, so new sources alone would leave them built. (Bazel makes an
# output that is gone again.)
new_pch() { find "$ws/bazel-bin/external/" -path '*/rules/private/pch/*' -type f -delete; }

# Each repeat: new sources; rules_gpu and nvcc build the CUDA C++ kernels, then rules_gpu and mlir-opt
# the MLIR ones, each pair on the same sources, one after the other, which side first alternating
# between repeats; then all 40 targets from new sources.
t_cu=() t_mlir=() t_nvcc=() t_mlir_own=() t_all=() u_cu=() u_mlir=() u_nvcc=() u_mlir_own=() u_all=() s_cu=() s_mlir=()
for r in $(seq "$repeats"); do
  new_sources
  order="ours theirs"; [ $((r % 2)) = 0 ] && order="theirs ours"
  for side in $order; do
    if [ "$side" = ours ]; then new_pch; bazel_build "${cu_targets[@]}" || exit 1; t_cu+=("$wall") u_cu+=("$cpu") s_cu+=("$server_cpu")
    else timed nvcc_all || exit 1; t_nvcc+=("$wall") u_nvcc+=("$cpu"); fi
  done
  for side in $order; do
    if [ "$side" = ours ]; then bazel_build //... || exit 1; t_mlir+=("$wall") u_mlir+=("$cpu") s_mlir+=("$server_cpu")
    else timed mlir_own "$out" || exit 1; t_mlir_own+=("$wall") u_mlir_own+=("$cpu"); fi
  done
  new_sources
  new_pch
  bazel_build //... || exit 1; t_all+=("$wall") u_all+=("$cpu")
done

# Adding a chip to one target (k000_cu): a different chip each repeat, so that no compile of it is in
# Bazel's action cache from an earlier repeat; nvcc recompiles that kernel with the chip added.
added=(sm_89 sm_87 sm_90a sm_89 sm_87 sm_90a)
t_add=() t_add_nvcc=() acts=""
for r in $(seq "$repeats"); do
  c=${added[$(((r - 1) % ${#added[@]}))]}
  sed -i "0,/chips = \[\"sm_75\", \"sm_80\", \"sm_86\", \"sm_90\"\],/s//chips = [\"sm_75\", \"sm_80\", \"sm_86\", \"sm_90\", \"$c\"],/" "$ws/BUILD.bazel"
  s=$(now); nbazel build //... --execution_log_json_file="$out/exec.json" >/dev/null 2>&1 || exit 1; t_add+=("$(secs $(($(now) - s)))")
  acts="$acts $c: $(executed "$out/exec.json" GpuCompile) compile + $(executed "$out/exec.json" GpuLink) link;"
  sed -i "s/chips = \[\"sm_75\", \"sm_80\", \"sm_86\", \"sm_90\", \"$c\"\],/chips = [\"sm_75\", \"sm_80\", \"sm_86\", \"sm_90\"],/" "$ws/BUILD.bazel"
  nbazel build //... >/dev/null 2>&1
  s=$(now); nvcc -fatbin -O3 "${gencode[@]}" -gencode "arch=compute_${c#sm_},code=$c" -o "$out/add.fatbin" "$ws/k000.cu" || exit 1
  t_add_nvcc+=("$(secs $(($(now) - s)))")
done

# A warm remote cache (bazel-remote, tests/servers.sh): this checkout builds new kernels from clean
# (the helper too) with --remote_cache, filling it; then a second checkout at another path, with its
# own output root and nothing built, builds the same with the same cache. Its time counts from a
# started Bazel server (repositories fetched and analysis included); executed: its spawns that were
# not remote cache hits (execution log).
cache_server_start "$root/remote" >/dev/null || exit 1
new_sources
nbazel clean >/dev/null 2>&1
s=$(now); nbazel build //... --remote_cache="$cache_grpc" --execution_log_json_file="$out/first.json" >"$out/first.log" 2>&1 ||
  { echo "bench.sh: the build that fills the remote cache fails:" >&2; tail -30 "$out/first.log" >&2; exit 1; }
t_first=$(secs $(($(now) - s)))
first_spawns=$(execlog remote "$out/first.json" | awk '/remote cache hits/ { n += $2 + $6 } END { print n }')
second=$root/second
rm -rf "$second" "$root/second-output" && mkdir -p "$second" && cp -a "$repo/." "$second/" || exit 1
# not the first checkout's convenience symlinks (bazel-workspace, …): they point into its output base
find "$second" -name 'bazel-*' -type l -delete
t_second=$(
  ws=$second/tests/bench/workspace root=$root/second-output
  nbazel info release >/dev/null 2>&1
  s=$(now); nbazel build //... --remote_cache="$cache_grpc" --execution_log_json_file="$out/second.json" >"$out/second.log" 2>&1 ||
    { echo "bench.sh: the second checkout's build fails:" >&2; tail -30 "$out/second.log" >&2; exit 1; }
  secs $(($(now) - s))
  nbazel shutdown >/dev/null 2>&1
) || exit 1
second_ran=$(execlog remote "$out/second.json" | awk '/remote cache hits/ { h += $2; r += $6 } END { printf "%d spawns: %d remote cache hits, %d executed", h + r, h, r }')
servers_stop >/dev/null

# The helper's own time per compile action.
T=(--mlir-opt mlir-opt-21 --mlir-translate mlir-translate-21 --llc llc-21 --opt opt-21 --llvm-link llvm-link-21 --clang clang-21
  --libdevice /usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc --cuda-path /usr/lib/cuda)
for k in "$ws"/k00[0-4].mlir "$ws"/k00[0-4].cu; do
  for c in "${chips[@]}"; do
    "$g" compile --chip "$c" --toolkit "$(ptxas --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')" -O 3 "${T[@]}" --trace "$out/trace.jsonl" --out "$out/t.cubin" "$k" || exit 1
  done
done
overhead=$(python3 - "$out/trace.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
over = [r["total_ms"] - r["tools_ms"] for r in rows]
pct = [100 * (r["total_ms"] - r["tools_ms"]) / r["total_ms"] for r in rows]
ptxas = [sum(ms for s, ms in r["stages_ms"] if s == "ptxas") / r["total_ms"] * 100 for r in rows]
print(f"{len(rows)} compiles: helper's own time median {statistics.median(over):.1f} ms (max {max(over):.1f}), "
      f"{statistics.median(pct):.2f} % of the action (max {max(pct):.2f} %); ptxas is {statistics.median(ptxas):.0f} % of it")
PY
)

# Sizes: our link against fatbinary, over the 20 CUDA kernels' cubins and PTX as Bazel built them.
sizes=$(
  tot() { awk '{ s += $1 } END { print s }'; }
  ours_lz4=0 ours_none=0 ours_zstd=0 fb=0 fb_nc=0
  for k in "$ws"/k*.cu; do
    b=$(basename "$k" .cu)
    imgs=(); fbimgs=()
    for c in "${chips[@]}"; do imgs+=("$ws/bazel-bin/${b}_cu.$c.cubin"); fbimgs+=("--image3=kind=elf,sm=${c#sm_},file=$ws/bazel-bin/${b}_cu.$c.cubin"); done
    ptx=$ws/bazel-bin/${b}_cu.sm_75.ptx
    "$g" link -o "$out/n.fatbin" --compress none "${imgs[@]}" "$ptx"
    "$g" link -o "$out/z.fatbin" --compress zstd --compress-all "${imgs[@]}" "$ptx"
    fatbinary -64 --create="$out/f.fatbin" "${fbimgs[@]}" "--image3=kind=ptx,sm=75,file=$ptx"
    fatbinary -64 --create="$out/fn.fatbin" --compress=false "${fbimgs[@]}" "--image3=kind=ptx,sm=75,file=$ptx"
    echo "$(stat -c %s "$ws/bazel-bin/${b}_cu.fatbin") $(stat -c %s "$out/n.fatbin") $(stat -c %s "$out/z.fatbin") $(stat -c %s "$out/f.fatbin") $(stat -c %s "$out/fn.fatbin")"
  done | awk '{ a += $1; b += $2; c += $3; d += $4; e += $5 } END { printf "%d %d %d %d %d", a, b, c, d, e }'
)
read -r s_lz4 s_none s_zstd s_fb s_fbnc <<<"$sizes"
nbazel shutdown >/dev/null 2>&1

cat <<MD
Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); $(bazel --version); CUDA $(ptxas --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p'); LLVM/MLIR 21. Kernels: 20 generated, $terms terms each; chips: ${chips[*]} (+ compute_75 PTX). Repeats: $repeats (median, min, max).

| clean build of the GPU code | wall time | CPU time | wall ratio | CPU ratio |
|---|---|---|---|---|
| 20 CUDA C++ kernels, nvcc -fatbin, 5 -gencode, $(nproc) at a time | $(stats "${t_nvcc[@]}") | $(stats "${u_nvcc[@]}") | 1 | 1 |
| 20 CUDA C++ kernels, rules_gpu (Bazel) | $(stats "${t_cu[@]}") | $(stats "${u_cu[@]}") | $(ratios "${t_cu[*]}" "${t_nvcc[*]}") | $(ratios "${u_cu[*]}" "${u_nvcc[*]}") |
| 20 MLIR kernels, mlir-opt-21 gpu-module-to-binary (fatbin, 4 targets), $(nproc) at a time | $(stats "${t_mlir_own[@]}") | $(stats "${u_mlir_own[@]}") | 1 | 1 |
| 20 MLIR kernels, rules_gpu (Bazel), after the CUDA ones | $(stats "${t_mlir[@]}") | $(stats "${u_mlir[@]}") | $(ratios "${t_mlir[*]}" "${t_mlir_own[*]}") | $(ratios "${u_mlir[*]}" "${u_mlir_own[*]}") |
| all 40 targets, rules_gpu (Bazel) | $(stats "${t_all[@]}") | $(stats "${u_all[@]}") | | |

Ratios: the median of the repeats' ratios (smallest-largest); in each repeat both builds ran on the same sources, one after the other. CPU time: user + system; for Bazel, its server's own and its actions' processes'. Of it, Bazel's server's own: $(stats "${s_cu[@]}") in the CUDA C++ builds, $(stats "${s_mlir[@]}") in the MLIR ones.

| a second checkout, a warm remote cache | wall time | work |
|---|---|---|
| first checkout: all 40 targets and the helper, from clean, filling the cache | $t_first s | $first_spawns spawns |
| second checkout (another path and output root, nothing built): the same | $t_second s | $second_ran |

| add a chip to one target (k000_cu) | wall time | work |
|---|---|---|
| rules_gpu (Bazel) | $(stats "${t_add[@]}") | actions re-run:$acts |
| nvcc (that kernel, all 6 targets again) | $(stats "${t_add_nvcc[@]}") | 1 nvcc: 6 cicc + ptxas |

Helper overhead: $overhead.

| artifact size, 20 kernels (4 cubins + PTX each) | bytes | vs fatbinary default |
|---|---|---|
| fatbinary (CUDA $(ptxas --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p') default) | $s_fb | 1 |
| fatbinary --compress=false | $s_fbnc | $(awk -v a="$s_fbnc" -v b="$s_fb" 'BEGIN { printf "%.2f", a / b }') |
| gpubuild link, PTX LZ4 (rules_gpu's default) | $s_lz4 | $(awk -v a="$s_lz4" -v b="$s_fb" 'BEGIN { printf "%.2f", a / b }') |
| gpubuild link, uncompressed | $s_none | $(awk -v a="$s_none" -v b="$s_fb" 'BEGIN { printf "%.2f", a / b }') |
| gpubuild link, zstd, cubins too | $s_zstd | $(awk -v a="$s_zstd" -v b="$s_fb" 'BEGIN { printf "%.2f", a / b }') |
MD
