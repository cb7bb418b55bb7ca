#!/usr/bin/env bash
# build.sh DIR — prepares a device run (run.sh) on the Debian 12 host: builds gpubuild (static) and
# gpurun (cgo against the build environment's cuda.h and stub libcuda, so that it runs on the GPU
# machine's older-or-equal glibc), and the artifacts of the fatbin matrix with CUDA 12.4's ptxas and
# our own `gpubuild link`. Then, with the device tool:
#   run(command="bash tests/gpu/run.sh DIR", carry=["DIR"])
set -euo pipefail
out=${1:?usage: build.sh DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
env_root=${RULES_GPU_ENV:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/rules_gpu/env}/rootfs
[ -f "$env_root/usr/include/cuda.h" ] || env/env.sh setup
rm -rf "$out"; mkdir -p "$out/bin" "$out/artifacts" "$out/src"
inc=$(mktemp -d); trap 'rm -rf "$inc"' EXIT
cp "$env_root/usr/include/cuda.h" "$inc/"
CGO_ENABLED=0 go build -o "$out/bin/gpubuild" ./tools/cmd/gpubuild
CGO_ENABLED=0 go build -o "$out/bin/filecheck" ./tools/cmd/filecheck
CGO_CFLAGS="-I$inc" CGO_LDFLAGS="-L$env_root/usr/lib/x86_64-linux-gnu/stubs" \
  go build -tags cuda -o "$out/bin/gpurun" ./tools/cmd/gpurun
cp examples/saxpy/saxpy.ptx tools/internal/artifact/testdata/scale.cu "$out/src/"

# The fatbin matrix: saxpy built by CUDA 12.4's ptxas, linked by gpubuild in every shape.
env/env.sh run bash -c '
  set -euo pipefail
  cd "$1"; a=artifacts; g=bin/gpubuild
  for sm in sm_80 sm_90; do ptxas -arch=$sm -o $a/saxpy.$sm.cubin src/saxpy.ptx; done
  $g link -o $a/cubin_sm90.fatbin --compress none $a/saxpy.sm_90.cubin
  $g link -o $a/ptx_only.fatbin --compress none src/saxpy.ptx
  $g link -o $a/ptx_lz4.fatbin --compress lz4 src/saxpy.ptx
  $g link -o $a/ptx_zstd.fatbin --compress zstd src/saxpy.ptx
  $g link -o $a/cubin_ptx.fatbin --compress none $a/saxpy.sm_80.cubin $a/saxpy.sm_90.cubin src/saxpy.ptx
  $g link -o $a/lz4_all.fatbin --compress lz4 --compress-all $a/saxpy.sm_80.cubin $a/saxpy.sm_90.cubin src/saxpy.ptx
  $g link -o $a/zstd_all.fatbin --compress zstd --compress-all $a/saxpy.sm_80.cubin $a/saxpy.sm_90.cubin src/saxpy.ptx
  $g link -o $a/sm80_only.fatbin $a/saxpy.sm_80.cubin
  $g inspect $a/*.fatbin
' _ "$(cd "$out" && pwd)"
# The examples, built by Bazel with rules_gpu.
mkdir -p "$out/examples"
env/env.sh run bash -c '
  set -euo pipefail
  bazel build //examples/... >/dev/null 2>&1 || bazel build //examples/...
  for f in $(bazel cquery "kind(gpu_module, //examples/...) except //examples/seed/..." --output=files 2>/dev/null); do cp "$f" "$1/"; done
' _ "$(cd "$out" && pwd)/examples"
ls "$out/examples"

# A host program that carries its GPU code: gpu_cc_library's header and source for saxpy_mlir's
# fatbin, and saxpy_host.c, compiled on the GPU machine against its cuda.h and libcuda.
mkdir -p "$out/embed/examples/saxpy"
env/env.sh run bash -c '
  set -euo pipefail
  bazel build //examples/saxpy:saxpy_cc >/dev/null 2>&1 || bazel build //examples/saxpy:saxpy_cc
  cp bazel-bin/examples/saxpy/saxpy_cc.h bazel-bin/examples/saxpy/saxpy_cc.c examples/saxpy/saxpy_host.c "$1/examples/saxpy/"
' _ "$(cd "$out" && pwd)/embed"
ls "$out/embed/examples/saxpy"

# The seed scenario: refused at build time for sm_90; the artifacts forced through, for the GPU.
mkdir -p "$out/seed"
env/env.sh run bash -c '
  bazel build //examples/seed:seed_bin --@rules_gpu//gpu:runners=sm_90 --@rules_gpu//gpu:driver=13.0 2>&1 |
    grep -E "^(FAIL|OK|     fix:)|checks fail" | sed "s#bazel-out/[^ ]*/##" >"$1/refusal.txt"
  bazel build //examples/seed/... >/dev/null 2>&1
  for f in $(bazel cquery //examples/seed/... --output=files 2>/dev/null); do cp "$f" "$1/"; done
' _ "$(cd "$out" && pwd)/seed"
cat "$out/seed/refusal.txt"; ls "$out/seed"

# The GPU tests of the examples (tagged gpu, as gpu_cc_test does): each test program with its
# runfiles, as `bazel test` would run it, and the seed program in runtime-API form, refused at build
# time for an sm_90 runner and then built without the check to show what happens on the GPU.
mkdir -p "$out/bazel"
env/env.sh run bash -c '
  set -euo pipefail
  tests=$(bazel query "attr(tags, \"\\bgpu\\b\", tests(//examples/...))")
  bazel build $tests //examples/cuda:seed_runtime >/dev/null 2>&1 || bazel build $tests //examples/cuda:seed_runtime
  : >"$1/tests.txt"
  for t in $tests //examples/cuda:seed_runtime; do
    p=${t#//}; p=${p/://}
    mkdir -p "$1/$p.runfiles"
    cp -L "bazel-bin/$p" "$1/$p"
    [ -d "bazel-bin/$p.runfiles" ] && cp -rL "bazel-bin/$p.runfiles/." "$1/$p.runfiles/"
    [ "$t" = //examples/cuda:seed_runtime ] || echo "$t" >>"$1/tests.txt"
  done
  bazel build //examples/cuda:seed_runtime --@rules_gpu//gpu:runners=sm_90 --@rules_gpu//gpu:driver=13.0 2>&1 |
    grep -E "^(FAIL|OK|     fix:)|checks fail" | sed "s#bazel-out/[^ ]*/##" >"$1/seed_refusal.txt" || true
' _ "$(cd "$out" && pwd)/bazel"
cat "$out/bazel/tests.txt" "$out/bazel/seed_refusal.txt"

# A repository written for rules_cuda (tests/integration/migrate), moved by `gpubuild migrate` as the
# migrate scenario does (its .bazelrc's archs: compute_80 PTX, sm_80 and sm_86 cubins), then built
# with rules_gpu in a snapshot of this checkout: its GPU test, with runfiles, as section 8's.
mkdir -p "$out/migrate"
env/env.sh run bash -c '
  set -euo pipefail
  . tests/userrepo.sh
  user_checkout "$HOME/.cache/rules_gpu_gpu_migrate"
  user_repo "$repo/tests/integration/migrate"
  user_gpubuild "$root/gpubuild"
  echo "build --@rules_cuda//cuda:archs=compute_80:compute_80,sm_80,sm_86" >>"$ws/.bazelrc"
  "$root/gpubuild" migrate "$ws" >/dev/null
  t=//kernels:saxpy_test p=kernels/saxpy_test
  nbazel build "$t" >/dev/null 2>&1 || nbazel build "$t"
  mkdir -p "$1/$(dirname "$p")" "$1/$p.runfiles"
  cp -L "$ws/bazel-bin/$p" "$1/$p"
  cp -rL "$ws/bazel-bin/$p.runfiles/." "$1/$p.runfiles/"
  echo "$t" >"$1/tests.txt"
  nbazel shutdown >/dev/null 2>&1
' _ "$(cd "$out" && pwd)/migrate"
cat "$out/migrate/tests.txt"

# The same MLIR examples serialized by MLIR itself (gpu-module-to-binary), for comparison.
mkdir -p "$out/mlir_own"
env/env.sh run bash -c '
  set -euo pipefail
  for k in saxpy reduce; do
    CUDA_ROOT=/usr/lib/cuda mlir-opt-21 examples/$k/$k.mlir \
      --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-format=bin opt-level=3" -o "$2/$k.mlir"
    "$1/bin/gpubuild" extract -o "$2" "$2/$k.mlir"
  done
' _ "$(cd "$out" && pwd)" "$(cd "$out" && pwd)/mlir_own"
ls "$out/mlir_own"
# MLIR programs (gpu_binary, gpu_test): their GPU tests are in bazel/ with the others. Here: the
# runtime's own tests (package mlirrt, cgo against the environment's cuda.h, as gpurun), the seed
# program (sm_80 cubins only) refused at build time for sm_90 and built without runners, and the
# same programs lowered and serialized by MLIR's own pipeline (mlir-opt --gpu-lower-to-nvvm-pipeline)
# and linked with our runtime, to compare their output.
mkdir -p "$out/mlir/own" "$out/mlir/mlirrt"
CGO_CFLAGS="-I$inc" CGO_LDFLAGS="-L$env_root/usr/lib/x86_64-linux-gnu/stubs" \
  go test -c -tags cuda -o "$out/mlir/mlirrt/mlirrt.test" ./tools/internal/mlirrt
cp -r tools/internal/mlirrt/testdata "$out/mlir/mlirrt/"
env/env.sh run bash -c '
  set -euo pipefail
  bazel build //examples/mlir:seed_bin --@rules_gpu//gpu:runners=sm_90 --@rules_gpu//gpu:driver=13.0 2>&1 |
    grep -E "^(FAIL|OK|     fix:)|checks fail" | sed "s#bazel-out/[^ ]*/##" >"$1/seed_refusal.txt" || true
  bazel build //examples/mlir:seed_bin >/dev/null 2>&1 || bazel build //examples/mlir:seed_bin
  cp -L bazel-bin/examples/mlir/seed_bin "$1/"
  go build -tags cuda -buildmode=c-archive -o "$1/own/libmlirrt.a" ./tools/internal/mlirrt/archive
  # Each program'"'"'s passes and chips, from its target (the sparsifier given sm_90 and no PTX
  # features of its own, as the chips here decide).
  bazel query --output=build "kind(gpu_binary, //examples/mlir:all)" 2>/dev/null | python3 tests/gpu/program_flags.py "$1/own"
  for src in examples/mlir/*.mlir; do
    k=$(basename "$src" .mlir)
    # A program whose target has passes runs them first, as MLIR'"'"'s own tests do: the sparsifier
    # with its own GPU target and serialization (upstream'"'"'s sparse GPU tests), for sm_90 here.
    # The sm_90a programs are built for sm_90a with the PTX ISA it needs. async_execute has no
    # reference: its coroutines need the split that only mlir-runner'"'"'s JIT pipeline does.
    [ "$k" = async_execute ] && continue
    first=() target="cubin-chip=sm_90"
    mapfile -t first <"$1/own/$k.passes"
    [[ " $(cat "$1/own/$k.chips") " == *" sm_90a "* ]] && target="cubin-chip=sm_90a cubin-features=+ptx80"
    rm -f "$1/own/$k.passes" "$1/own/$k.chips"
    in=$src
    if [ ${#first[@]} -gt 0 ]; then
      CUDA_ROOT=/usr/lib/cuda mlir-opt-21 "${first[@]}" "$src" -o "$1/own/$k.first.mlir"
      in=$1/own/$k.first.mlir
    fi
    CUDA_ROOT=/usr/lib/cuda mlir-opt-21 "$in" --gpu-lower-to-nvvm-pipeline="$target cubin-format=fatbin opt-level=2" -o "$1/own/$k.lowered.mlir"
    mlir-translate-21 --mlir-to-llvmir "$1/own/$k.lowered.mlir" -o "$1/own/$k.ll"
    llc-21 -filetype=obj -relocation-model=pic -O2 "$1/own/$k.ll" -o "$1/own/$k.o"
    clang-21 "$1/own/$k.o" "$1/own/libmlirrt.a" -lcuda -lpthread -ldl -o "$1/own/$k"
    cp "$src" "$1/own/"
    rm -f "$1/own/$k.first.mlir" "$1/own/$k.lowered.mlir" "$1/own/$k.ll" "$1/own/$k.o"
  done
' _ "$(cd "$out" && pwd)/mlir"
cat "$out/mlir/seed_refusal.txt"; ls "$out/mlir" "$out/mlir/own"
echo "build.sh: $out is ready ($(du -sh "$out" | cut -f1))"
