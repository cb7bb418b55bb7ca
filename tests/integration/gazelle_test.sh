#!/usr/bin/env bash
# gazelle_test.sh — a user's repository whose GPU sources have no BUILD files (tests/integration/gazelle), with
# gazelle and rules_gpu's GPU language: gazelle writes their targets (a cuda_library that depends on
# the cc_library whose header it includes, gpu_modules of an .mlir and a .ptx file, a gpu_test of a
# program), which build, with host code over the library; a second run changes nothing; a header that
# no target provides fails the run with one message naming it, and nothing is written.
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario gazelle

scenario_gazelle() {
  workspace gazelle
  out=$(nbazel run //:gazelle 2>&1)
  if [ $? -ne 0 ]; then bad gazelle/generate "bazel run //:gazelle fails: $(tail -20 <<<"$out")"; return; fi
  local made
  made=$(cd "$ws" && cat kernels/BUILD.bazel modules/BUILD.bazel programs/BUILD.bazel 2>&1)
  expect gazelle/generate "$made" 'cuda_library(' 'name = "kernels"' '"saxpy.cu",' '"api.h",' '"index.cuh",' 'deps = ["//common"]' \
    'name = "add"' 'srcs = ["add.mlir"]' 'name = "copy"' 'srcs = ["copy.ptx"]' 'gpu_test(' 'name = "fill_test"' 'src = "fill.mlir"' '"sm_90",'
  out=$(nbazel build //... 2>&1)
  if [ $? -ne 0 ]; then bad gazelle/build "the generated targets do not build: $(tail -20 <<<"$out")"; return; fi
  if [ -x "$ws/bazel-bin/app/app" ] && [ -f "$ws/bazel-bin/modules/add.fatbin" ] && [ -f "$ws/bazel-bin/modules/copy.fatbin" ] &&
    [ -x "$ws/bazel-bin/programs/fill_test_program" ]; then
    ok "gazelle/build (//app:app over //kernels, the modules' fatbins, the test's program)"
  else
    bad gazelle/build "missing: bazel-bin/app/app, modules/add.fatbin, modules/copy.fatbin or programs/fill_test_program"
  fi
  out=$(nbazel run //:gazelle -- -mode=diff 2>&1)
  if [ $? -ne 0 ]; then bad gazelle/again "a second run would change: $(tail -20 <<<"$out")"; else ok "gazelle/again (a second run changes nothing)"; fi
  # A quoted include that no target provides: the run fails and writes nothing.
  mkdir -p "$ws/broken" && printf '#include "missing/none.h"\n__global__ void k() {}\n' >"$ws/broken/k.cu"
  local before after rc
  before=$(cd "$ws" && find . -name 'bazel-*' -prune -o -name 'BUILD*' -type f -print0 | sort -z | xargs -0 sha256sum)
  out=$(nbazel run //:gazelle 2>&1); rc=$?
  after=$(cd "$ws" && find . -name 'bazel-*' -prune -o -name 'BUILD*' -type f -print0 | sort -z | xargs -0 sha256sum)
  if [ $rc -eq 0 ] || [ "$before" != "$after" ]; then bad gazelle/missing_header "exit status $rc, or BUILD files changed: $(tail -5 <<<"$out")"; else
    expect gazelle/missing_header "$out" 'gazelle: broken/k.cu:1: #include "missing/none.h": no file or target provides this header; fix: declare it in the hdrs of a cc_library'
  fi
  rm -rf "$ws/broken"
}

scenario_gazelle
scenario_end
