#!/usr/bin/env bash
# cuda.sh [REPEATS] [PROJECT] — rules_gpu against nvcc on the same CUDA C++ project, in one run, for
# the same chips (sm_80 and sm_90 cubins + sm_80 PTX) with the same CUDA toolkit. PROJECT is
#   cuda          (the default) the example project examples/cuda and its test program
#                 //examples/cuda:cuda_test (every .cu of it; poly's as relocatable device code,
#                 clang's and nvcc's), or
#   nvcc_project  examples/nvcc_project, written for nvcc, whose targets gazelle writes with
#                 compiler = "nvcc": //examples/nvcc_project:app_test, nvcc end to end against
#                 nvcc + make (OpenMP, static cuBLAS, a .cu included by another),
# built
#   - by rules_gpu under Bazel, in a copy of this checkout with its own output root (the helper,
#     gpubuild, stays built from one build to the next, as in a developer's repository), and
#   - by tests/bench/PROJECT/Makefile: one `nvcc -c` per source with both -gencode (cuda: poly with
#     -rdc=true and `nvcc -dlink`), linked by nvcc with the static CUDA runtime; make -j$(nproc), and
#     the same with nvcc --threads $(nproc). The script first checks that the Makefile builds the
#     sources Bazel does, each the same way (rdc, its own module, or included by another).
# REPEATS (default 3) of: a clean build (every action of the project's sources re-runs: see stamp
# below), editing one .cu and rebuilding, editing another and rebuilding (cuda: axpy.cu, a module
# of its own, and poly/apply.cu, relocatable device code; nvcc_project: stats.cu, the library, and
# app_test.cu, the program), and rebuilding with nothing changed; wall times, Bazel's critical
# path, and the actions each build ran (Bazel's execution log; the commands make ran). Then the size
# of both linked test programs and of the device code in them. Prints a Markdown report
# (docs/benchmarks.md keeps one). Runs inside the build environment:
#   env/env.sh run tests/bench/cuda.sh 3 [nvcc_project]
set -uo pipefail
repeats=${1:-3} project=${2:-cuda}
# Each project: its directory, the test program, and the two edits (FILE:WHAT).
case $project in
  cuda) ex_rel=examples/cuda prog=cuda_test edits=("axpy.cu:its own module" "poly/apply.cu:rdc") ;;
  nvcc_project) ex_rel=examples/nvcc_project prog=app_test edits=("stats.cu:the library, nvcc end to end" "app_test.cu:the program, nvcc end to end") ;;
  *) echo "usage: cuda.sh [REPEATS] [cuda|nvcc_project]" >&2; exit 2 ;;
esac
# shellcheck source=tests/userrepo.sh
. "$(dirname "$0")/../userrepo.sh"
# shellcheck source=tests/bench/stats.sh
. "$(dirname "$0")/stats.sh"
user_checkout "${BENCH_CUDA_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_bench_cuda}" || exit 1
edit_file() { echo "${edits[$1]%%:*}"; }
# The workspace is the checkout itself, with its own MODULE.bazel and .bazelrc (nbazel builds in $ws).
ws=$repo
out=$root/out
ex=$repo/$ex_rel
target=//$ex_rel:$prog
rm -rf "$out"; mkdir -p "$out"
mk() { make -C "$repo/tests/bench/$project" ROOT="$repo" "$@"; }
# The project's CUDA sources as Bazel sees them (rdc, each its own module, or included by another)
# must be the Makefile's.
cu() { nbazel cquery "filter('\.cu\$', $1)" --output=label 2>"$out/cquery.log" | sed 's/ (null)$//; s|^//'"$ex_rel"':||' | sort; }
every=$(cu "kind('source file', deps($target))") && rdc=$(cu "labels(srcs, attr(rdc, 1, deps($target)))") &&
  textual=$(cu "labels(textual_hdrs, attr(textual_hdrs, '.', deps($target)))") || { cat "$out/cquery.log"; exit 1; }
all=$(comm -23 <(echo "$every") <(echo "$textual"))
want=$(comm -23 <(echo "$all") <(echo "$rdc") | sed 's/^/whole /'; sed 's/^/rdc /' <<<"$rdc"; sed 's/^/textual /' <<<"$textual")
want=$(grep -v '^[a-z]* $' <<<"$want")
if [ "$(sort <<<"$want")" != "$(mk -s sources | sort)" ]; then
  diff <(sort <<<"$want") <(mk -s sources | sort)
  echo "cuda.sh: the sources of $target (<, Bazel) are not the Makefile's (>): update tests/bench/cuda/Makefile" >&2
  exit 1
fi
mapfile -t srcs <<<"$all"
for f in "${srcs[@]}"; do mkdir -p "$out/orig/$(dirname "$f")" && cp "$ex/$f" "$out/orig/$f" || exit 1; done
# stamp SRC: SRC as checked out plus a __device__ variable with a new value. The value reaches the
# device code (PTX and cubins of every chip) and the host object (which registers the variable), so
# every action downstream of SRC has new inputs and re-runs, under Bazel as under make; a comment
# would not do (a compile whose output is unchanged stops Bazel there). Both builds compile the same
# stamped sources.
stamp() { { cat "$out/orig/$1"; printf '__device__ int bench_stamp_%s = %d;\n' "$(basename "$1" .cu)" "$((($(now) / 1000) % 2147483647))"; } >"$ex/$1"; }
# ran LOG: the actions a Bazel build ran, by mnemonic, from its execution log.
ran() {
  local m n s=""
  for m in GpuCompile GpuLink CudaHostCompile CudaRegister CppCompile CppArchive CppLink GoCompilePkg GoLink; do
    n=$(executed "$1" "$m"); [ "$n" = 0 ] || s="$s${s:+ + }$n $m"
  done
  echo "${s:-none}"
}
# made LOG: the commands make ran.
made() { awk '/^nvcc .* -c /{c++} /^nvcc .* -dlink /{d++} /^nvcc .* -cudart static /{l++} END { printf "%d nvcc -c + %d nvcc -dlink + %d nvcc link", c, d, l }' "$1"; }
nv=(OUT="$out/nvcc") nvt=(OUT="$out/nvcc-t" THREADS="$(nproc)")

load0=$(cut -d' ' -f1-3 /proc/loadavg)
# Warm-up, not timed: the helper and everything else Bazel needs, and one make of the project.
for f in "${srcs[@]}"; do stamp "$f"; done
nbazel build "$target" >"$out/bazel.log" 2>&1 || { tail -30 "$out/bazel.log"; exit 1; }
{ mk -j"$(nproc)" "${nv[@]}" && mk -j"$(nproc)" "${nvt[@]}"; } >"$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }

# build STEP: one rules_gpu build, one make and one make THREADS=$(nproc), each timed (appended to
# t_bazel_STEP, t_make_STEP and t_maket_STEP); Bazel's critical path goes to cp_STEP, and the work
# each did to $out/acts_STEP (every distinct answer over the repeats).
build() {
  local s a
  s=$(now); nbazel build "$target" --execution_log_json_file="$out/exec.json" >"$out/bazel.log" 2>&1 || { tail -30 "$out/bazel.log"; exit 1; }
  eval "t_bazel_$1+=($(secs $(($(now) - s))))"
  eval "cp_$1+=($(sed -n 's/.*Critical Path: \([0-9.]*\)s.*/\1/p' "$out/bazel.log"))"
  s=$(now); mk -j"$(nproc)" "${nv[@]}" >"$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
  eval "t_make_$1+=($(secs $(($(now) - s))))"
  s=$(now); mk -j"$(nproc)" "${nvt[@]}" >/dev/null 2>&1 || exit 1
  eval "t_maket_$1+=($(secs $(($(now) - s))))"
  a="rules_gpu: $(ran "$out/exec.json"); make: $(made "$out/make.log")"
  grep -qxF "$a" "$out/acts_$1" 2>/dev/null || echo "$a" >>"$out/acts_$1"
}
steps=(clean edit1 edit2 noop)
for st in "${steps[@]}"; do eval "t_bazel_$st=() t_make_$st=() t_maket_$st=() cp_$st=()"; done
for r in $(seq "$repeats"); do
  for f in "${srcs[@]}"; do stamp "$f"; done
  mk clean "${nv[@]}" >/dev/null; mk clean "${nvt[@]}" >/dev/null
  build clean
  stamp "$(edit_file 0)"; build edit1
  stamp "$(edit_file 1)"; build edit2
  build noop
done
acts() { sed 's/$/<br>/' "$out/acts_$1" | tr -d '\n' | sed 's/<br>$//'; }
# row STEP TITLE: a line of the wall-time table.
row() {
  local b m t c
  eval "b=(\"\${t_bazel_$1[@]}\") m=(\"\${t_make_$1[@]}\") t=(\"\${t_maket_$1[@]}\") c=(\"\${cp_$1[@]}\")"
  printf '| %s | %s | %.2f s | %s | %s | %s |\n' "$2" "$(stats "${b[@]}")" "$(median "${c[@]}")" "$(stats "${m[@]}")" "$(stats "${t[@]}")" "$(ratio "$(median "${b[@]}")" "$(median "${m[@]}")")"
}

# The linked programs and their device code (every cubin and PTX cuobjdump finds in them).
bin_rg=$(readlink -f "$ws/bazel-bin/$ex_rel/$prog") bin_nv=$out/nvcc/$prog
sizes() {
  local d=$out/x.$2 sec
  rm -rf "$d"; mkdir -p "$d"
  (cd "$d" && cuobjdump -xelf all -xptx all "$1" >/dev/null) || exit 1
  sec=$(size -A "$1" | awk '$1 == ".nv_fatbin" { f = $2 } $1 == "__nv_relfatbin" { r = $2 } END { printf "%d | %d", f, r }')
  strip -o "$d.stripped" "$1"
  printf '%s | %s | %s | %s cubins, %s bytes | %s PTX, %s bytes | %s' "$(stat -c %s "$1")" "$(stat -c %s "$d.stripped")" "$sec" \
    "$(find "$d" -name '*.cubin' | wc -l)" "$(find "$d" -name '*.cubin' -exec cat {} + | wc -c)" \
    "$(find "$d" -name '*.ptx' | wc -l)" "$(find "$d" -name '*.ptx' -exec cat {} + | wc -c)" \
    "$(cuobjdump -lelf -lptx "$1" | awk '{ print $NF }' | sed 's/^'"$prog"'\.[0-9]*\.//' | sort | uniq -c | awk '{ printf "%s%s × %s", (NR > 1 ? ", " : ""), $1, $2 }')"
}
size_rg=$(sizes "$bin_rg" rg) || exit 1
size_nv=$(sizes "$bin_nv" nv) || exit 1
nbazel shutdown >/dev/null 2>&1
for f in "${srcs[@]}"; do cp "$out/orig/$f" "$ex/$f"; done

cuda=$(ptxas --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
cat <<MD
Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); $(bazel --version); CUDA $cuda (nvcc $(nvcc --version | sed -n 's/.*, V\([0-9.]*\)$/\1/p'), host compiler $(/usr/lib/nvidia-cuda-toolkit/bin/g++ --version | head -1)); $(clang-21 --version | head -1); $(make --version | head -1). Load average (1, 5, 15 min) before: $load0, after: $(cut -d' ' -f1-3 /proc/loadavg). Project: $ex_rel, $target: $(comm -23 <(echo "$all") <(echo "$rdc") | xargs)${rdc:+, $(xargs <<<"$rdc") (rdc)}${textual:+, $(xargs <<<"$textual") (included)}; chips sm_80, sm_90 (+ sm_80 PTX). Repeats: $repeats (median, min, max).

| build of the test program | rules_gpu (Bazel) | Bazel's critical path (median) | nvcc + make -j$(nproc) | nvcc --threads $(nproc) + make -j$(nproc) | rules_gpu / nvcc |
|---|---|---|---|---|---|
$(row clean "clean (every source new)")
$(row edit1 "edit $(edit_file 0) (${edits[0]#*:})")
$(row edit2 "edit $(edit_file 1) (${edits[1]#*:})")
$(row noop "nothing changed")

| build | actions run (every distinct count over the repeats) |
|---|---|
| clean | $(acts clean) |
| edit $(edit_file 0) | $(acts edit1) |
| edit $(edit_file 1) | $(acts edit2) |
| nothing changed | $(acts noop) |

| linked test program | bytes | stripped | .nv_fatbin | __nv_relfatbin | cubins (cuobjdump -xelf) | PTX (cuobjdump -xptx) | images |
|---|---|---|---|---|---|---|---|
| rules_gpu | $size_rg |
| nvcc | $size_nv |
MD
