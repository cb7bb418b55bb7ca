#!/usr/bin/env bash
# pch.sh [RUNS] — what a precompiled header would save on a CUDA C++ source's per-chip device compile
# (clang -x cuda --cuda-device-only, as gpubuild compile runs it): every CUDA source's compile
# first parses the headers clang's driver includes into it (__clang_cuda_runtime_wrapper.h: CUDA's
# headers and libstdc++'s math headers), once per chip; a PCH of them, made once per chip and set
# of options, would be loaded instead. In CPU time (user + system), medians of RUNS (default 5),
# the two ways interleaved, for sm_80:
#   - a source with one line of device code, and generated kernels of 100 and 1500 terms
#     (genkernels), without and with the PCH; the script fails unless the PTX is byte-identical
#     both ways (the same compile);
#   - the PCH's own build;
# then what decides whether one PCH can serve many actions, each checked with clang and printed:
#   - a PCH of another chip: clang must refuse it;
#   - a -D on the compile that the PCH was made without: a macro that the headers could depend on;
#   - a PCH made in one directory from a header there, named by a relative path, then loaded in
#     another with the same relative paths: two Bazel sandboxes, which see the execroot's files (a
#     hermetic toolkit's headers) at different absolute paths; the same without clang's validation
#     of the PCH's input files; and the same with every path clang sees under a fixed virtual root
#     (-ivfsoverlay): are two directories' PCHs the same bytes, and is a moved one accepted?
# Prints Markdown (docs/benchmarks-history.md keeps it: step 8). Runs inside the build environment:
#   env/env.sh run tests/bench/pch.sh
set -uo pipefail
# shellcheck source=tests/bench/cputime.sh
. "$(dirname "$0")/cputime.sh"
runs=${1:-5}
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/pch.XXXXXX")
trap 'rm -rf "$out"' EXIT
cd "$out" || exit 1
for t in 100 1500; do
  (cd "$repo" && go run ./tests/bench/genkernels -n 1 -terms "$t" -lang cuda -chips sm_80 -out "$out/g$t") >/dev/null || exit 1
  cp "$out/g$t/k000.cu" "$out/k$t.cu"
done
printf '__global__ void k(float *x) { x[threadIdx.x] = sqrtf(x[threadIdx.x]); }\n' >"$out/k1.cu"
: >"$out/nothing.cu"
clang() { clang-21 -x cuda --cuda-device-only --cuda-gpu-arch="$1" -O3 --cuda-feature=+ptx70 --cuda-path="${cuda:-/usr/lib/cuda}" -Wno-unknown-cuda-version "${@:2}"; }
usepch() { echo -Xclang -include-pch -Xclang "$1"; }

b=(); for _ in $(seq "$runs"); do b+=("$(cpu clang sm_80 -S -Xclang -emit-pch -o sm_80.pch nothing.cu)") || exit 1; done
rows=""
for k in k1 k100 k1500; do
  without=() with=()
  for _ in $(seq "$runs"); do
    without+=("$(cpu clang sm_80 -S -o "$k.ptx" "$k.cu")") || exit 1
    # shellcheck disable=SC2046 # the option's words
    with+=("$(cpu clang sm_80 -S $(usepch sm_80.pch) -o "$k.pch.ptx" "$k.cu")") || exit 1
  done
  cmp -s "$k.ptx" "$k.pch.ptx" || { echo "pch.sh: $k.cu: the PTX with the PCH differs from the PTX without" >&2; exit 1; }
  w=$(median "${without[@]}") p=$(median "${with[@]}")
  rows+="| $k.cu ($(grep -c . "$k.cu") lines) | $w | $p | $(awk -v w="$w" -v p="$p" 'BEGIN { print w - p }') |"$'\n'
done

# What one PCH may serve.
# shellcheck disable=SC2046
if clang sm_86 -S $(usepch sm_80.pch) -o /dev/null k1.cu 2>"$out/chip.err"; then chip="accepted (wrong: another chip's PCH)"
else chip="refused: $(grep -m1 -o 'error: .*' "$out/chip.err")"; fi
# shellcheck disable=SC2046
if clang sm_80 -S -DCUDA_API_PER_THREAD_DEFAULT_STREAM $(usepch sm_80.pch) -o /dev/null k1.cu 2>"$out/def.err"; then
  define="accepted without a word: the headers in the PCH were parsed without the macro, so a PCH may only serve compiles whose preprocessor options are its own"
else define="refused: $(grep -m1 -o 'error: .*' "$out/def.err")"; fi
# A Bazel action sees its inputs under its sandbox's execroot, at another absolute path in every
# sandbox, and names them by relative paths: a PCH made in one sandbox from a header there, loaded in
# another with the same relative paths.
mkdir -p s1/hdr && printf '__device__ inline float twice(float x) { return 2 * x; }\n' >s1/hdr/extra.h
(cd s1 && clang sm_80 -S -I hdr -include extra.h -Xclang -emit-pch -o moved.pch ../nothing.cu) || exit 1
mv s1 s2
# shellcheck disable=SC2046
if (cd s2 && clang sm_80 -S -I hdr -include extra.h $(usepch moved.pch) -o moved.ptx ../k1.cu 2>../moved.err); then moved="accepted"
else moved="refused: $(grep -m1 -o 'error: .*' "$out/moved.err" | sed "s|$out/||g")"; fi
# The same without clang's validation of the PCH's input files (-fno-validate-pch), for a source that
# includes none of the PCH's headers itself, and for one that includes one (as most CUDA code
# includes cuda_runtime.h).
printf '#include "extra.h"\n__global__ void k(float *x) { x[threadIdx.x] = twice(x[threadIdx.x]); }\n' >k2.cu
novalidate=()
for k in k1 k2; do
  # shellcheck disable=SC2046
  if (cd s2 && clang sm_80 -S -I hdr -include extra.h -Xclang -fno-validate-pch $(usepch moved.pch) -o /dev/null "../$k.cu" 2>../nv.err); then novalidate+=("accepted")
  else novalidate+=("refused: $(grep -m1 -o 'error: .*' "$out/nv.err" | sed "s|$out/||g")"); fi
done
# The same through clang's virtual file system: every path clang sees is under a fixed root
# (/rgpu), mapped onto the directory by an overlay at the same relative path in each (-ivfsoverlay).
# The driver looks for its input on the real file system, so this runs its -cc1 command (-###)
# with the main file and the overlay virtual. Made in two directories (are the PCHs the same bytes?),
# then one moved and loaded by a source that includes cuda_runtime.h, <cmath> and a header in the PCH.
for d in v1 v2; do
  mkdir -p "$d/hdr" "$d/pch" && printf '#pragma once\n__device__ inline float twice(float x) { return 2 * x; }\n' >"$d/hdr/extra.h"
  : >"$d/pch/nothing.cu"
  printf '#include <cuda_runtime.h>\n#include <cmath>\n#include "extra.h"\n__global__ void k(float *x) { x[threadIdx.x] = twice(std::sqrt(x[threadIdx.x])); }\n' >"$d/k.cu"
  printf '{"version":0,"case-sensitive":"true","use-external-names":false,"roots":[{"name":"/rgpu","type":"directory-remap","external-contents":"%s"}]}\n' "$out/$d" >"$d/overlay.yaml"
done
# vcc1 DIR MAIN OUT [CC1ARG...]: in DIR, the driver's -cc1 command for MAIN (a relative path) to OUT,
# run with MAIN as /rgpu/MAIN and DIR's overlay
vcc1() {
  local d=$1 main=$2 o=$3 a
  shift 3
  # shellcheck disable=SC2016
  mapfile -t a < <(cd "$d" && clang sm_80 -S -isystem /rgpu/hdr -o OUT.s "$main" -### 2>&1 | grep -F '"-cc1"' |
    python3 -c 'import shlex, sys; print("\n".join(shlex.split(sys.stdin.read())))')
  a=("${a[@]/#$main//rgpu/$main}") && a=("${a[@]/#OUT.s/$o}")
  (cd "$d" && "${a[@]}" -ivfsoverlay overlay.yaml -fno-pch-timestamp "$@")
}
vfs="not made"
if vcc1 v1 pch/nothing.cu p.pch -emit-pch && vcc1 v2 pch/nothing.cu p.pch -emit-pch; then
  cmp -s v1/p.pch v2/p.pch && vfs="the PCHs made in two directories are byte-identical" || vfs="the PCHs made in two directories differ"
  mv v1 v3 && sed -i "s|$out/v1|$out/v3|" v3/overlay.yaml
  if vcc1 v3 k.cu k.pch.ptx -include-pch /rgpu/p.pch 2>"$out/vfs.err" && vcc1 v3 k.cu k.ptx; then
    cmp -s v3/k.ptx v3/k.pch.ptx && vfs+="; one moved is accepted, and the PTX is the same as without it" || vfs+="; one moved is accepted, but the PTX differs"
    (cd v3 && clang sm_80 -S -I hdr -o plain.ptx k.cu) && cmp -s v3/plain.ptx v3/k.ptx || vfs+=" (and the overlay's PTX is not the plain driver's)"
  else vfs+="; one moved is refused: $(grep -m1 -o 'error: .*' "$out/vfs.err" | sed "s|$out/||g")"; fi
fi
cat <<EOF
Machine: $(nproc) cores, load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(clang-21 --version | head -1); CUDA $(ptxas --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p'). CPU ms (user + system), medians of $runs, interleaved; sm_80, -O3.

| clang -x cuda --cuda-device-only -S, one chip | without a PCH | with the PCH | saved |
|---|---|---|---|
$rows
Building the PCH (the driver's implicit includes, for sm_80): $(median "${b[@]}") ms, $(stat -c %s sm_80.pch) bytes. The PTX is byte-identical with and without it for all three sources.

- Another chip's PCH (sm_80's, for sm_86): $chip.
- A -D on the compile that the PCH was made without: $define.
- A PCH made in one directory from a header there (by a relative path), loaded in another with the same relative paths (two Bazel sandboxes): $moved. With -fno-validate-pch: a source that includes none of the PCH's headers: ${novalidate[0]}; one that includes one of them: ${novalidate[1]}.
- The same through clang's virtual file system (every path under a fixed root, /rgpu, mapped onto the directory by an overlay at the same relative path; the driver's -cc1 command): $vfs.
EOF
