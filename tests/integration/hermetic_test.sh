#!/usr/bin/env bash
# hermetic_test.sh — a toolkit made of pinned NVIDIA-layout archives (from the Debian packages) builds MLIR and
# CUDA C++ with its own ptxas and headers; a wrong sha256 or version fails, saying what to change.
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario hermetic

scenario_hermetic() {
  local arch=$scratch/archives lines version
  lines=$("$repo/tests/integration/hermetic/make_archives.sh" "$arch") || { bad hermetic "make_archives.sh failed"; return; }
  version=$(ptxas --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
  hermetic_archives "$repo/tests/integration/hermetic" "$arch" "$lines" "$version"
  workspace hermetic
  out=$(nbazel build --execution_log_json_file="$ws/exec.json" //... 2>&1)
  if [ $? -ne 0 ]; then bad hermetic/build "the build fails: $(tail -20 <<<"$out")"; else
    local build=$out
    # Which ptxas, --cuda-path and --libdevice each compile and lowering action uses, from the
    # action graph.
    out=$(nbazel aquery 'mnemonic("GpuCompile|GpuLower", //...)' --output=jsonproto 2>/dev/null | python3 -c '
import json, sys
for a in json.load(sys.stdin).get("actions", []):
    args = a["arguments"]
    print(a["mnemonic"], " ".join(f"{flag} {args[i + 1]}" for i, flag in enumerate(args) if flag in ("--ptxas", "--cuda-path", "--libdevice", "--pch")))')
    local ptxas cudapath libdevice pch headers
    ptxas=$(grep -c -- "^GpuCompile .*--ptxas external/[^ ]*cuda_toolkit/bin/ptxas" <<<"$out")
    cudapath=$(grep -c -- "--cuda-path external/[^ ]*cuda_toolkit\( \|$\)" <<<"$out")
    libdevice=$(grep -c -- "^GpuLower .*--libdevice external/[^ ]*cuda_toolkit/[^ ]*libdevice.10.bc" <<<"$out")
    # //:saxpy: the lowering (every chip's PTX, with the archive's libdevice), the sm_80 and sm_90
    # cubins from it; //:saxpy_cuda: sm_80 PTX (from CUDA C++, with the archive's headers) and the
    # sm_80 cubin from it.
    if [ "$ptxas" = 4 ] && [ "$cudapath" = 1 ] && [ "$libdevice" = 1 ]; then
      ok "hermetic/build (4 compiles with the archive's ptxas, CUDA C++ with its headers, MLIR lowered with its libdevice)"
    else
      bad hermetic/build "$ptxas compiles use the archive's ptxas (want 4), $cudapath the archive as --cuda-path (want 1), $libdevice lowerings its libdevice (want 1): $out"; fi
    # The CUDA C++ compile loads the shared PCH of sm_80 (one GpuPch action ran), made from the
    # archive's headers (searched before the machine's own: this one has CUDA headers in
    # /usr/include), and clang accepted it (no warning of a compile without it).
    pch=$(grep -c -- "^GpuCompile .*--cuda-path .* --pch bazel-out/[^ ]*/rules/private/pch/sm_80.pch" <<<"$out")
    headers=$(find -L "$ws/bazel-bin/external" -path '*/rules/private/pch/sm_80.pch.headers' 2>/dev/null | head -1)
    if [ "$pch" = 1 ] && [ "$(executed "$ws/exec.json" GpuPch)" = 1 ] && grep -Eq '^external/[^ ]*cuda_toolkit/include/cuda_runtime.h$' "$headers" &&
      ! grep -q "without the precompiled header" <<<"$build"; then
      ok "hermetic/pch (the CUDA C++ compile loads sm_80's PCH, made from the archive's headers)"
    else
      bad hermetic/pch "$pch compiles load sm_80.pch (want 1), $(executed "$ws/exec.json" GpuPch) GpuPch ran (want 1), its headers ($headers): $(grep -m2 cuda_runtime "$headers"), build: $(grep -A2 'precompiled' <<<"$build")"
    fi
  fi
  hermetic_archives "$repo/tests/integration/hermetic" "$arch" "$lines" "$version" 0000000000000000000000000000000000000000000000000000000000000000
  out=$(nbazel build //... 2>&1)
  if [ $? -eq 0 ]; then bad hermetic/sha256 "the build passed with a wrong sha256"; else
    expect hermetic/sha256 "$out" "rules_gpu: @" "cuda_nvcc-linux-x86_64-" "sha256 mismatch: the pin says 0000000000000000000000000000000000000000000000000000000000000000, the archive served is $(sha256sum "$arch"/cuda_nvcc-* | cut -d' ' -f1)" "pin the new sha256 in cuda.archive"
  fi
  hermetic_archives "$repo/tests/integration/hermetic" "$arch" "$lines" 12.8
  out=$(nbazel build //... 2>&1)
  if [ $? -eq 0 ]; then bad hermetic/version "the build passed with version 12.8"; else
    expect hermetic/version "$out" "the archives hold CUDA $version (ptxas --version), but version = \"12.8\""
  fi
}

scenario_hermetic
scenario_end
