#!/usr/bin/env bash
# programs.sh build DIR | run DIR — the GPU programs of issues 30 and 31 that the standard batch
# (build.sh, run.sh) does not carry, in one device call:
#   - examples/nvcc_project (written for nvcc, targets by gazelle): app_test (nvcc end to end) and
#     app_clang_test (clang over nvcc's library), beside nvcc's own build of the same sources;
#   - tests/integration/migrate in the shapes of rules_cuda's examples (basic, basic_macros, rdc,
#     thrust, if_cuda), migrated by `gpubuild migrate` alone, beside nvcc's build of each;
#   - examples/mlir's gpu_tests of gpu_test's check modes, the TensorCore product and passes
#     (assert_test, exit_status_test, printf_test, tensorcore_test, linalg_test), the sparse
#     programs (sparse_codegen_test, spmv_test, sparse_lib_test, spmm_2to4_test), the async
#     dialect (async_execute_test) and the sm_90a programs (tma_load_test, wgmma_test), run as
#     Bazel runs a test: the script in its runfiles.
# build (on this host, in the build environment) fills DIR (~50 MB: within the device tool's
# 64 MiB; DIR ignored by git, e.g. .device-programs); run (on the GPU machine) prints the results:
#   env/env.sh run tests/gpu/programs.sh build .device-programs
#   device tool: run(command="bash tests/gpu/programs.sh run .device-programs", carry=[".device-programs"])
set -uo pipefail
mode=${1:?usage: programs.sh build|run DIR} dir=${2:?usage: programs.sh build|run DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mlir_tests=(assert_test exit_status_test printf_test tensorcore_test linalg_test sparse_codegen_test spmv_test sparse_lib_test spmm_2to4_test async_execute_test tma_load_test wgmma_test sparse_rt_test)
rc_programs=(basic basic_macros rdc thrust if_cuda)

build() {
  cd "$repo" || exit 1
  rm -rf "$dir"; mkdir -p "$dir/nvp" "$dir/mlir" "$dir/rc/src"
  local t
  local targets=(//examples/nvcc_project:app_test //examples/nvcc_project:app_clang_test)
  for t in "${mlir_tests[@]}"; do targets+=("//examples/mlir:$t"); done
  bazel build "${targets[@]}" >/dev/null 2>&1 || bazel build "${targets[@]}" || exit 1
  for t in app_test app_clang_test; do
    cp -L "bazel-bin/examples/nvcc_project/$t" "$dir/nvp/" && cp -rL "bazel-bin/examples/nvcc_project/$t.runfiles" "$dir/nvp/" || exit 1
  done
  cp examples/nvcc_project/*.cu examples/nvcc_project/*.cuh "$dir/nvp/"
  # One copy of filecheck (2.6 MB) for every test, put back in place by run: the bundle stays
  # within the device tool's 64 MiB.
  local fc=tools/cmd/filecheck/filecheck_/filecheck
  for t in "${mlir_tests[@]}"; do
    cp -L "bazel-bin/examples/mlir/$t" "$dir/mlir/" && cp -rL "bazel-bin/examples/mlir/$t.runfiles" "$dir/mlir/" || exit 1
    mv "$dir/mlir/$t.runfiles/_main/$fc" "$dir/mlir/filecheck" || exit 1
  done
  # The rules_cuda-shaped repository, migrated by gpubuild migrate alone (as tests/integration:migrate_test).
  # shellcheck source=tests/userrepo.sh
  . "$repo/tests/userrepo.sh"
  user_checkout "${HOME:-/root}/.cache/rules_gpu_programs" || exit 1
  user_repo "$repo/tests/integration/migrate"
  user_gpubuild "$dir/gpubuild" || exit 1
  cat "$ws/rules_cuda_examples.bazelrc" >>"$ws/.bazelrc"
  "$dir/gpubuild" migrate "$ws" >/dev/null || exit 1
  rm "$dir/gpubuild"
  local p
  for p in "${rc_programs[@]}"; do
    nbazel build "//$p:main" >/dev/null 2>&1 || { nbazel build "//$p:main"; exit 1; }
    cp -L "$ws/bazel-bin/$p/main" "$dir/rc/${p}_main" && cp -r "$ws/$p" "$dir/rc/src/" || exit 1
  done
  nbazel build //if_cuda:main --enable_cuda=False >/dev/null 2>&1 && cp -L "$ws/bazel-bin/if_cuda/main" "$dir/rc/if_cuda_main_off" || exit 1
  nbazel shutdown >/dev/null 2>&1
  # Compressed: the bundle must stay within the device tool's 64 MiB.
  tar -C "$dir" -czf "$dir/programs.tgz" nvp mlir rc && rm -rf "$dir/nvp" "$dir/mlir" "$dir/rc" || exit 1
  du -sh "$dir"
}

run() {
  cd "$dir" || exit 1
  tar -xzf programs.tgz || exit 1
  local t p a b
  failed=$PWD/failed  # a line per program that did not pass
  : >"$failed"
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
  echo "# the CUDA libraries MLIR's sparse runtime loads by soname (issue 31)"
  ldconfig -p | grep -E 'libcusparse|libcublas\.' | sed 's/^[[:space:]]*//' | sort -u
  find / -xdev -name 'libcusparseLt*' 2>/dev/null | head -3
  echo "# examples/nvcc_project"
  for t in app_test app_clang_test; do
    echo "== //examples/nvcc_project:$t"
    (cd "nvp/$t.runfiles/_main" && TEST_SRCDIR=$PWD/.. TEST_WORKSPACE=_main ../../$t; rc=$?; echo "exit $rc"; [ $rc = 0 ] || echo "//examples/nvcc_project:$t" >>"$failed")
    (cd "nvp/$t.runfiles/_main" && compute-sanitizer ../../$t 2>&1 | tail -1)
  done
  echo "== nvcc $(nvcc --version | tail -1): nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp stats.cu app_test.cu -lcublas"
  (cd nvp && nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp -o nvcc_app stats.cu app_test.cu -lcublas && ./nvcc_app; echo "exit $?")
  echo "# rules_cuda's examples' shapes, migrated; each beside nvcc's build of its sources"
  (
    cd rc && s=src
    nv() { nvcc -arch=sm_90 -I$s "$@"; }
    nv -c $s/basic/kernel.cu -o k1.o && nv $s/basic/main.cpp k1.o -o nv_basic_main
    nv $s/basic_macros/main.cu -o nv_basic_macros_main
    nv -rdc=true -c $s/rdc/a.cu -o a.o && nv -rdc=true -c $s/rdc/b.cu -o b.o && nv a.o b.o -o nv_rdc_main
    nv $s/thrust/thrust.cu -o nv_thrust_main
    nv -DCUDA_ENABLED -c $s/if_cuda/kernel.cu -o k2.o && nv -DCUDA_ENABLED $s/if_cuda/main.cpp k2.o -o nv_if_cuda_main
    for p in "${rc_programs[@]}"; do
      a=$(./${p}_main 2>&1; echo "exit $?") b=$(./nv_${p}_main 2>&1; echo "exit $?")
      echo "== //$p:main: $a"; echo "   nvcc: $b"; [ "$a" = "$b" ] && echo "   the same output" || { echo "   DIFFERENT"; echo "//$p:main" >>"$failed"; }
      compute-sanitizer ./${p}_main 2>&1 | tail -1
    done
    echo "== //if_cuda:main with --enable_cuda=False: $(./if_cuda_main_off; echo "exit $?")"
  )
  echo "# examples/mlir"
  # cuSPARSELt is not part of the CUDA toolkit: where the machine has it outside the loader's path
  # (a Python wheel's), spmm_2to4_test runs again with it on LD_LIBRARY_PATH, as its error says.
  lt=$(find / -xdev -name 'libcusparseLt.so.0' 2>/dev/null | head -1)
  mlir_tests+=(${lt:+spmm_2to4_test:$(dirname "$lt")})
  for t in "${mlir_tests[@]}"; do
    local ld=${t#*:}; [ "$ld" = "$t" ] && ld=""; t=${t%%:*}
    [ -n "$ld" ] && echo "(with LD_LIBRARY_PATH=$ld)"
    echo "== //examples/mlir:$t"
    cp mlir/filecheck "mlir/$t.runfiles/_main/tools/cmd/filecheck/filecheck_/filecheck"
    # A passing test shows the end of its output; a failing one all of it, and its program again
    # under compute-sanitizer.
    (cd "mlir/$t.runfiles/_main" && TEST_TMPDIR=$(mktemp -d) env ${ld:+LD_LIBRARY_PATH=$ld${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}} ../../$t >/tmp/$t.log 2>&1; rc=$?; echo "test exit $rc"
      if [ $rc = 0 ]; then tail -14 /tmp/$t.log; else head -60 /tmp/$t.log; echo "-- compute-sanitizer:"
        if [ -z "$ld" ] && [ -n "$lt" ] && grep -q "needs NVIDIA's cuSPARSELt" /tmp/$t.log; then
          echo "(as expected: cuSPARSELt is not on the loader's path; the run below has it)"
        else echo "//examples/mlir:$t${ld:+ (with LD_LIBRARY_PATH)}" >>"$failed"; fi
        p=$(find . -name "${t}_program" -type f | head -1)
        [ -n "$p" ] && env ${ld:+LD_LIBRARY_PATH=$ld${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}} compute-sanitizer "$p" 2>&1 | head -30; fi)
  done
  if [ -s "$failed" ]; then echo "# did not pass:"; cat "$failed"; return 1; fi
  echo "# every program passed"
}

case $mode in
  build) build ;;
  run) run ;;
  *) echo "usage: programs.sh build|run DIR" >&2; exit 2 ;;
esac
