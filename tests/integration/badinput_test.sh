#!/usr/bin/env bash
# badinput_test.sh — each bad input fails with one error naming the target, the file and the chip, and leaves
# no output: PTX ISA too low for its chip, malformed MLIR, malformed PTX, a module with no kernel, a
# CUDA C++ header that no dependency provides, a
# runner the artifact cannot serve, a corrupt fatbin given to gpubuild check, a missing toolkit. (An
# unknown chip and one the toolkit cannot compile: chips; a wrong-version toolkit: hermetic.)
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario badinput

scenario_badinput() {
  workspace badinput
  # failing CASE TARGET OUTPUT TEXT...: building //:TARGET fails, prints every TEXT, and leaves no
  # OUTPUT (nor a helper's temporary directory) in bazel-bin.
  failing() {
    local name=badinput/$1 t=$2 file=$3 left
    shift 3
    out=$(nbazel build "//:$t" 2>&1)
    if [ $? -eq 0 ]; then bad "$name" "the build passed"; return; fi
    left=$(cd "$ws" && { ls -d "bazel-bin/$file" 2>/dev/null; find -L bazel-bin/ -maxdepth 1 -name '.gpubuild-*'; })
    if [ -n "$left" ]; then bad "$name" "left behind: $left"; return; fi
    expect "$name" "$out" "$@"
  }
  failing ptx_isa ptx_isa ptx_isa.sm_90.cubin \
    "//:ptx_isa: compiling low.ptx for sm_90: PTX ISA 7.0 for sm_90 with CUDA 12.4: sm_90 needs PTX ISA 7.8 or newer; change the .version directive of the PTX"
  failing malformed_mlir malformed_mlir malformed_mlir.sm_80.cubin \
    "//:malformed_mlir: compiling bad.mlir for sm_80: lower to PTX: mlir-opt" "bad.mlir:5:27: error: use of undeclared SSA value name"
  failing malformed_ptx malformed_ptx malformed_ptx.sm_80.cubin \
    "//:malformed_ptx: compiling bad.ptx for sm_80: ptxas" "Unknown symbol '%r1'"
  failing no_kernel no_kernel no_kernel.sm_80.cubin \
    "//:no_kernel: compiling nokernel.mlir for sm_80: the module defines no kernel, so there is nothing to launch; mark the entry points: \`kernel\` on a gpu.func"
  failing missing_header missing_header missing_header.sm_80.cubin \
    "//:missing_header: compiling uses_header.cu for sm_80: uses_header.cu:2: #include \"vec/vec.h\": no such header among the headers this compile can see; fix: add the target that provides it to deps"
  failing runner runner runner.runs_on.ok \
    "//:runner" "does not load on sm_80" "sm_90 SASS runs only on compute capability 9.x chips; sm_80 is 8.0" "fix: add sm_80 to the chips"

  out=$(nbazel build //:good 2>&1) || { bad badinput/corrupt "//:good does not build: $(tail -20 <<<"$out")"; return; }
  head -c 200 "$ws/bazel-bin/good.fatbin" >"$ws/corrupt.fatbin"
  out=$(nbazel run @rules_gpu//tools/cmd/gpubuild -- check --runs-on sm_90 "$ws/corrupt.fatbin" 2>&1)
  if [ $? -eq 0 ]; then bad badinput/corrupt "gpubuild check passed a truncated fatbin"; else
    expect badinput/corrupt "$out" "gpubuild check: $ws/corrupt.fatbin: fatbin:" "only 184 present" "(the file is damaged or not a fatbin, cubin or PTX file: rebuild it)"
  fi

  # A path with a space and a quote: the generated toolchain repository writes it with repr(), so its
  # BUILD file stays valid and the message quotes the path as given.
  sed -i 's#^cuda.local()#cuda.local(path = "/opt/no \\"cuda")#' "$ws/MODULE.bazel"
  nbazel clean >/dev/null 2>&1  # so that the earlier good.fatbin cannot pass for one left behind
  failing missing_toolkit good good.fatbin \
    "//:good: no CUDA toolkit at /opt/no \"cuda (no bin/ptxas there), the path that cuda.local(path = ...)" "fix the path, or leave it out"
}

scenario_badinput
scenario_end
