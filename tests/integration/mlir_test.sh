#!/usr/bin/env bash
# mlir_test.sh — MLIR programs (gpu_binary, gpu_test) as a user writes them: the test builds (its program,
# the runner ABI check), with the actions of every module over directories; adding a chip re-runs
# the lowering and one compile (no other chip's), the link and the host side; the test is tagged
# gpu; a program refused for a runner; bad programs fail with one error each and leave no program
# behind.
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario mlir

scenario_mlir() {
  workspace mlir
  out=$(nbazel test //:add_test_runner_abi //:add_test --build_tests_only --test_tag_filters=-gpu --execution_log_json_file="$ws/exec.json" 2>&1)
  if [ $? -ne 0 ]; then bad mlir/test "bazel test fails: $(tail -20 <<<"$out")"; return; fi
  expect mlir/test "$out" "//:add_test_runner_abi" "1 test passes"
  # ran: the lowering, compile, link and host-compile actions of the last build (execution log).
  ran() { local m; for m in GpuLower GpuCompile GpuLink MlirHostCompile; do printf '%s ' "$(executed "$ws/exec.json" $m)"; done; }
  local n
  n=$(ran)
  if [ "$n" = "1 2 1 1 " ]; then
    ok "mlir/actions (1 lowering of every module to sm_80's and sm_90's PTX, 2 compiles: their cubins; 1 link, 1 host compile)"
  else
    bad mlir/actions "ran $n lowering, compile, link and host actions, want 1 2 1 1"
  fi
  if [ -x "$ws/bazel-bin/add_test_program" ] && [ -f "$ws/bazel-bin/add_test_program_modules/fatbin/main_kernel.fatbin" ]; then
    ok mlir/outputs
  else
    bad mlir/outputs "no bazel-bin/add_test_program or its module main_kernel.fatbin"
  fi
  sed -i 's#^        "sm_90",#        "sm_86",\n        "sm_90",#' "$ws/BUILD.bazel"
  out=$(nbazel build //:add_test --execution_log_json_file="$ws/exec.json" 2>&1)
  if [ $? -ne 0 ]; then bad mlir/add_chip "the build fails: $(tail -20 <<<"$out")"; else
    n=$(ran)
    # The lowering re-runs (its chips changed); sm_80's and sm_90's PTX come out the same, so
    # their cubins are not remade: one compile, sm_86's.
    if [ "$n" = "1 1 1 1 " ]; then
      ok "mlir/add_chip (adding sm_86 re-ran the lowering, 1 compile, the link and the host compile)"
    else
      bad mlir/add_chip "ran $n lowering, compile, link and host actions, want 1 1 1 1"
    fi
  fi
  out=$(nbazel query --output=build //:add_test 2>&1)
  expect mlir/gpu_test "$out" '"gpu"' '"test.gpu": "nvidia"' '"test.gpu-family": "sm_9x"'
  out=$(nbazel build //:add_sm80 --@rules_gpu//gpu:runners=sm_90 2>&1)
  if [ $? -eq 0 ]; then bad mlir/runner "the build passed; the program's module is an sm_80 cubin only"; else
    expect mlir/runner "$out" "//:add_sm80" "main_kernel.fatbin on sm_90: does not load on sm_90" "fix: add sm_90 to the chips"
  fi
  # failing CASE TARGET TEXT...: building //:TARGET fails, prints every TEXT, and leaves no program.
  failing() {
    local name=mlir/$1 t=$2
    shift 2
    out=$(nbazel build "//:$t" 2>&1)
    if [ $? -eq 0 ]; then bad "$name" "the build passed"; return; fi
    if [ -e "$ws/bazel-bin/$t" ]; then bad "$name" "left behind: bazel-bin/$t"; return; fi
    expect "$name" "$out" "$@"
  }
  failing bad_name bad_name "//:bad_name: compiling bad_name.mlir for every chip: gpu.module @\"my kernels\": a program's module names become file names; rename it"
  failing no_main no_main "//:no_main: compiling no_main.mlir for the host: the program has no func.func @main"
  failing float_main float_main "//:float_main: compiling float_main.mlir for the host: @main returns float; return nothing (exit status 0) or i32"
  failing sync_alloc sync_alloc "//:sync_alloc: compiling sync_alloc.mlir for the host: sync_alloc.mlir:10: gpu.alloc is left after the host lowering" \
    "fix: MLIR's host lowering (gpu-to-llvm) lowers only its async form"
}

scenario_mlir
scenario_end
