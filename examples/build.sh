#!/usr/bin/env bash
# build.sh — builds every example and shows what was produced and where it runs. Runs inside the
# build environment:
#   env/env.sh run examples/build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${RULES_GPU_IN_ENV:-}" ] || { echo "run me inside the environment: env/env.sh run $0" >&2; exit 2; }

bazel build //examples/... //tools/cmd/gpubuild
g=bazel-bin/tools/cmd/gpubuild/gpubuild_/gpubuild
runners=sm_75,sm_80,sm_86,sm_89,sm_90,sm_100,sm_120
driver=13.0
# show FILE: its images (gpubuild inspect) and the GPUs it loads on (gpubuild check).
show() {
  local f=$1 line="" v r how
  printf '\n== %s (%s bytes)\n' "$f" "$(stat -c %s "$f")"
  "$g" inspect "$f" | sed 's/^/   /'
  while read -r v; do
    r=$(sed 's/.*"runner":"\([^"]*\)".*/\1/' <<<"$v")
    if grep -q '"loads":true' <<<"$v"; then
      how=$(sed 's/.*"how":"\([^"]*\)".*/\1/' <<<"$v")
      case "$how" in "PTX JIT") r="$r(JIT)" ;; esac
      line="$line $r"
    else
      line="$line -${r}"
    fi
  done < <("$g" check --json --runs-on "$runners" --driver "$driver" "$f" 2>/dev/null || true)
  echo "   runs on (driver $driver):$line   (-sm_XX: does not load; (JIT): the driver compiles its PTX)"
}
mapfile -t files < <(bazel cquery 'kind(gpu_module, //examples/...)' --output=files 2>/dev/null)
for f in "${files[@]}"; do show "$f"; done

printf '\n== CUDA C++ with host code (cuda_library): the fatbins that their host code carries\n'
mapfile -t files < <(bazel cquery 'kind(cuda_library, //examples/...)' --output=files 2>/dev/null | grep '\.fatbin$')
for f in "${files[@]}"; do show "$f"; done
printf '\n== the GPU tests (gpu_cc_test): built here, run on a GPU (tests/gpu/run.sh); the system library versions their programs need\n'
bazel build //examples/cuda:cuda_test_runner_abi >/dev/null 2>&1
cat bazel-bin/examples/cuda/cuda_test_runner_abi.abi.txt

printf '\n== MLIR programs (gpu_binary, gpu_test): each module of each program, as a fatbin the program carries\n'
for p in $(bazel query 'kind(gpu_binary, //examples/...)' 2>/dev/null); do
  d=bazel-bin/$(sed 's#^//##; s#:#/#' <<<"$p")_modules/fatbin
  printf '\n== %s: the program %s\n' "$p" "$(sed 's#^//##; s#:#/#' <<<"$p")"
  fatbins=("$d"/*.fatbin)
  # A program with no kernels of its own (only GPU library calls: cuSPARSE) has no modules.
  [ -e "${fatbins[0]}" ] || { echo "   no modules of its own: it only calls GPU libraries"; continue; }
  for f in "${fatbins[@]}"; do show "$f"; done
done

printf '\n== the gpu_module targets of examples/ (gpubuild chips)\n'
"$g" chips --repo . //examples/...
printf '\n== the same fatbin inside host programs: Go (gpu_go_library) and C (gpu_cc_library)\n'
bazel build //examples/saxpy:saxpy_gpu //examples/saxpy:saxpy_cc >/dev/null 2>&1
sed -n '1,4p' bazel-bin/examples/saxpy/saxpy_gpu_embed/saxpy_gpu.go
sed -n '2p' bazel-bin/examples/saxpy/saxpy_cc.h
