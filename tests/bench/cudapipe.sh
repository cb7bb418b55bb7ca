#!/usr/bin/env bash
# cudapipe.sh [RUNS] [TERMS] — the per-chip device compile of a CUDA C++ kernel two ways, interleaved
# RUNS times (default 6) on one generated kernel (genkernels, TERMS terms, default 1500), for sm_80:
#   A: clang -emit-llvm (optimised at -O3, libdevice linked), then opt -O3, then llc: what gpubuild
#      compile ran until 2026-12-01;
#   B: clang -S --cuda-feature=+ptx70: clang's own back end writes the PTX, in one process (now).
# Prints each run's milliseconds, the medians, and ptxas's time and the cubin size for both PTX files.
# Runs inside the build environment: env/env.sh run tests/bench/cudapipe.sh
set -euo pipefail
runs=${1:-6} terms=${2:-1500}
repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/bench/stats.sh
. "$(dirname "$0")/stats.sh"
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
(cd "$repo" && go run ./tests/bench/genkernels -n 1 -terms "$terms" -lang cuda -chips sm_80 -out "$d/ws") >/dev/null
cd "$d"
clang=(clang-21 -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -O3 --cuda-path=/usr/lib/cuda -Wno-unknown-cuda-version)
ms() { echo $((($(date +%s%N) - $1) / 1000000)); }
a=() b=()
for _ in $(seq "$runs"); do
  s=$(date +%s%N)
  "${clang[@]}" -S -emit-llvm -o k.ll ws/k000.cu
  opt-21 -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 k.ll -o k.bc
  llc-21 -O3 -mcpu=sm_80 -mattr=+ptx70 k.bc -o a.ptx
  a+=("$(ms "$s")")
  s=$(date +%s%N)
  "${clang[@]}" -S --cuda-feature=+ptx70 -o b.ptx ws/k000.cu
  b+=("$(ms "$s")")
done
echo "A clang -emit-llvm + opt + llc: ${a[*]} ms; median $(median "${a[@]}") ms"
echo "B clang -S (PTX):               ${b[*]} ms; median $(median "${b[@]}") ms"
for x in a b; do
  s=$(date +%s%N); ptxas -arch=sm_80 "$x.ptx" -o "$x.cubin"
  echo "ptxas $x.ptx: $(ms "$s") ms, cubin $(stat -c %s "$x.cubin") bytes, PTX $(grep -c . "$x.ptx") lines"
done
