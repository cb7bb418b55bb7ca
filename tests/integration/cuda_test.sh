#!/usr/bin/env bash
# cuda_test.sh — CUDA C++ with host code in a user's repository. A gpu_cc_test over an rdc cuda_library builds
# (and, without a GPU, only its runner ABI test runs); editing one of the library's two sources re-runs
# that source's compile per chip, each chip's device link, the fatbin, its host compile and the
# registration, and nothing of the other source. Without rdc, the source that calls the other's
# __device__ function fails, naming it and the fix; an sm_80-only library in a test for sm_90
# runners, a program that needs a newer glibc than the runners have, and one that needs a shared
# library they are not declared to have (the CUDA runtime linked shared), fail the build. Host code
# written for nvcc builds with compiler = "nvcc".
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario cuda

scenario_cuda() {
  workspace cuda
  out=$(nbazel test --test_tag_filters=-gpu //... 2>&1)
  if [ $? -ne 0 ]; then bad cuda/test "bazel test fails: $(tail -20 <<<"$out")"; else
    expect cuda/test "$out" "//:scale_test_runner_abi" "1 test passes"
  fi
  # An LLVM IR source in an rdc library: device code only, linked with scale.cu's per chip.
  out=$(nbazel build //:scale_ll --output_groups=+fatbins 2>&1)
  if [ $? -ne 0 ]; then bad cuda/ll "the build fails: $(tail -20 <<<"$out")"; else
    out=$(nbazel run @rules_gpu//tools/cmd/gpubuild -- inspect --json "$ws/bazel-bin/scale_ll.fatbin" 2>&1)
    expect cuda/ll "$out" '"arch":"sm_80"' '"arch":"sm_90"' '"kind":"ptx"'
  fi
  # ptx = ["sm_90"]: the fatbin carries sm_90's PTX, not the lowest chip's.
  out=$(nbazel build //:scale_ptx90 --output_groups=+fatbins 2>&1)
  if [ $? -ne 0 ]; then bad cuda/ptx "the build fails: $(tail -20 <<<"$out")"; else
    out=$(nbazel run @rules_gpu//tools/cmd/gpubuild -- inspect --json "$ws/bazel-bin/scale_ptx90.fatbin" 2>/dev/null)
    local ptx
    ptx=$(grep '"kind":"ptx"' <<<"$out" | grep -o '"arch":"[a-z_0-9]*"' | tr '\n' ' ')
    if [ "$ptx" = '"arch":"sm_90" ' ] && grep '"kind":"elf"' <<<"$out" | grep -q '"arch":"sm_80"'; then ok "cuda/ptx (sm_80 and sm_90 cubins, sm_90 PTX alone)"; else
      bad cuda/ptx "want the sm_80 and sm_90 cubins and sm_90's PTX alone; inspect says: $out"
    fi
  fi
  echo "__device__ float unused_by_scale(float x) { return x + 1.0f; }" >>"$ws/twice.cu"
  out=$(nbazel build //:scale_test --execution_log_json_file="$ws/exec.json" 2>&1)
  if [ $? -ne 0 ]; then bad cuda/edit "the build after editing twice.cu fails: $(tail -20 <<<"$out")"; else
    local compiles links hosts regs
    compiles=$(executed "$ws/exec.json" GpuCompile) links=$(executed "$ws/exec.json" GpuLink)
    hosts=$(executed "$ws/exec.json" CudaHostCompile) regs=$(executed "$ws/exec.json" CudaRegister)
    if [ "$compiles" = 5 ] && [ "$links" = 1 ] && [ "$hosts" = 1 ] && [ "$regs" = 1 ]; then
      ok "cuda/edit (editing twice.cu re-ran 2 source compiles + 3 device-link compiles, 1 link, 1 host compile, 1 registration)"
    else
      bad cuda/edit "ran $compiles compile, $links link, $hosts host compile and $regs registration actions, want 5 (twice.cu for 2 chips, the sm_80 PTX and cubin, the sm_90 cubin), 1, 1 and 1"
    fi
  fi
  # gpu_cc_test: tagged gpu, and routed to a GPU executor by the exec_properties derived from runs_on
  # (test exec group: the run alone, not the compiles and the link that build it).
  out=$(nbazel query --output=build //:scale_test 2>&1)
  expect cuda/gpu_test "$out" 'tags = ["gpu"]' '"test.gpu": "nvidia"' '"test.gpu-family": "sm_9x"'
  # Run it (here, without a GPU, it fails) after a clean, so that the execution log has every spawn
  # of the test (from the disk cache, or run) with its platform properties.
  nbazel clean >/dev/null 2>&1
  nbazel test //:scale_test --test_tag_filters= --execution_log_json_file="$ws/exec.json" >/dev/null 2>&1
  out=$(execlog platform "$ws/exec.json" | grep ' //:scale_test ')
  if grep -q '^TestRunner //:scale_test gpu=nvidia,gpu-family=sm_9x$' <<<"$out" && ! grep '^TestRunner ' <<<"$out" | grep -vq 'gpu=nvidia,gpu-family=sm_9x$' &&
    grep -q '^CppLink //:scale_test -$' <<<"$out"; then
    ok "cuda/gpu_routing (the test run carries gpu=nvidia,gpu-family=sm_9x; its link none)"
  else
    bad cuda/gpu_routing "want the test run routed to the GPU pool and its link not: $out"
  fi
  # The CUDA runtime: static by default (the program needs only libc and friends), shared on request.
  local needed
  needed=$(cd "$ws" && objdump -p bazel-bin/scale_test | grep NEEDED)
  if grep -q libcudart <<<"$needed"; then bad cuda/cudart_static "the program needs a shared cudart: $needed"; else ok cuda/cudart_static; fi
  out=$(nbazel build //:scale_test --@rules_gpu//gpu:cudart=shared 2>&1) || { bad cuda/cudart_shared "the build fails: $(tail -20 <<<"$out")"; }
  needed=$(cd "$ws" && objdump -p bazel-bin/scale_test | grep NEEDED)
  if grep -q 'libcudart\.so' <<<"$needed"; then ok cuda/cudart_shared; else bad cuda/cudart_shared "the program does not need libcudart.so: $needed"; fi
  out=$(nbazel build //:scale_no_rdc 2>&1)
  if [ $? -eq 0 ]; then bad cuda/no_rdc "the build passed; scale.cu's module lacks twice()"; else
    expect cuda/no_rdc "$out" "//:scale_no_rdc: compiling scale.cu for sm_80" "the device code uses the __device__ function \"_Z5twicef\", which no source of this module defines" "rdc = True"
  fi
  out=$(nbazel build //:scale_nvcc_alone 2>&1)
  if [ $? -eq 0 ]; then bad cuda/nvcc_rdc_undefined "the build passed; no source of the module defines twice()"; else
    expect cuda/nvcc_rdc_undefined "$out" "//:scale_nvcc_alone: compiling scale.cu for sm_90: nvlink: the device code uses the __device__ function or variable \"_Z5twicef\", which no source of this module defines" "Undefined reference to '_Z5twicef'"
  fi
  out=$(nbazel build //:scale_sm80_test --@rules_gpu//gpu:runners=sm_90 2>&1)
  if [ $? -eq 0 ]; then bad cuda/runner "the build passed; the library's kernels are sm_80 cubins only"; else
    expect cuda/runner "$out" "//:scale_sm80" "does not load on sm_90" "fix: add sm_90 to the chips"
  fi
  # The CUDA runtime linked shared: a library the runners are not declared to have, until they are.
  out=$(nbazel build //:scale_test_runner_abi --@rules_gpu//gpu:cudart=shared --@rules_gpu//gpu:runners_have=GLIBC_2.39 2>&1)
  if [ $? -eq 0 ]; then bad cuda/abi_library "the build passed; the program needs libcudart.so, which the runners are not declared to have"; else
    expect cuda/abi_library "$out" "//:scale_test_runner_abi" "cannot start on the runners: it needs libcudart.so.12, a shared library" "fix: link it statically" "--@rules_gpu//gpu:runners_have"
    out=$(nbazel build //:scale_test_runner_abi --@rules_gpu//gpu:cudart=shared --@rules_gpu//gpu:runners_have=GLIBC_2.39,libcudart.so.12 2>&1) ||
      bad cuda/abi_library "declared, the build still fails: $(tail -5 <<<"$out")"
  fi
  out=$(nbazel build //:scale_test_runner_abi --@rules_gpu//gpu:runners_have=GLIBC_2.17 2>&1)
  if [ $? -eq 0 ]; then bad cuda/abi "the build passed for runners with glibc 2.17"; else
    expect cuda/abi "$out" "//:scale_test_runner_abi" "cannot start on the runners: it needs GLIBC_2." "the runners have GLIBC_2.17" "fix: build it against an older C library"
  fi
  # compiler = "nvcc": nvcc compiles the host side too (no clang runs), against the fatbin of the
  # per-chip actions; a host option with a comma cannot pass through nvcc's -Xcompiler.
  out=$(nbazel build //:nvcc_host --execution_log_json_file="$ws/exec.json" 2>&1)
  if [ $? -ne 0 ]; then bad cuda/nvcc "the build fails: $(tail -20 <<<"$out")"; else
    local hosts syms
    hosts=$(executed "$ws/exec.json" CudaHostCompile)
    syms=$(nm -C "$ws"/bazel-bin/_objs/nvcc_host/nvcc_host.pic.o 2>&1)
    # __sti____cudaRegisterAll is the constructor of nvcc's registration code (clang's is __cuda_module_ctor).
    if [ "$hosts" = 1 ] && grep -q '__sti____cudaRegisterAll' <<<"$syms" && grep -q '(anonymous namespace)::clamp' <<<"$syms"; then
      ok "cuda/nvcc (nvcc's host compile of nvcc_host.cu, its registration and the internal kernel's stub)"
    else
      bad cuda/nvcc "want one CudaHostCompile (have $hosts) and nvcc's registration with the kernel's stub in the object: $syms"
    fi
  fi
  out=$(nbazel build //:nvcc_comma 2>&1)
  if [ $? -eq 0 ]; then bad cuda/nvcc_comma "the build passed with host_copts -Wl,-z,now"; else
    expect cuda/nvcc_comma "$out" "//:nvcc_comma: compiling nvcc_host.cu for the host" 'host option "-Wl,-z,now" has a comma'
  fi
}

scenario_cuda
scenario_end
