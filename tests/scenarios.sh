#!/usr/bin/env bash
# scenarios.sh [NAME...] — nested-Bazel integration tests: each scenario is a user's repository
# (tests/integration/NAME) that depends on this checkout of rules_gpu, built with its own Bazel output
# base under one output root; each checks a success and a failure. Runs inside the build environment
# (tests/test.sh calls it). With names, runs only those scenarios.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/userrepo.sh
. "$here/userrepo.sh"
user_checkout "${SCENARIO_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_scenarios}" || exit 1
passed=0 failed=0
ok() { echo "PASS $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

# workspace NAME: the user's repository tests/integration/NAME, in the snapshot. Actions are shared
# between scenarios (and runs) through a disk cache. Bazel 7 fetches only top-level outputs of an
# action it finds there (--remote_download_toplevel, its default, holds for a disk cache too): a
# program's module fatbins would then be empty directories in bazel-bin, so every output is fetched.
workspace() {
  user_repo "$repo/tests/integration/$1" "build --disk_cache=$root/disk_cache" "build --remote_download_outputs=all"
  # No outputs or action cache from an earlier run, so that action counts say what this run's change
  # needs (the disk cache, shared by all scenarios, makes the first build cheap).
  nbazel clean >/dev/null 2>&1
}

# expect NAME OUTPUT TEXT...: passes when OUTPUT holds every TEXT.
expect() {
  local name=$1 out=$2 missing=""
  shift 2
  for want in "$@"; do grep -qF -- "$want" <<<"$out" || missing="$missing [$want]"; done
  if [ -z "$missing" ]; then ok "$name"; else bad "$name" "message lacks$missing: $(grep -A4 'ERROR\|FAIL' <<<"$out" | head -20)"; fi
}

# seed: chips = ["sm_80"], format = "bin", runs_on = ["sm_70"] must fail the build and say why and
# what to change; after the change it builds, with exactly one more compile action.
scenario_seed() {
  workspace seed
  cp "$ws/BUILD.before" "$ws/BUILD.bazel"
  out=$(nbazel build //:saxpy 2>&1)
  if [ $? -eq 0 ]; then
    bad seed/refused "the build passed; it must fail: sm_80 code cannot load on sm_70"
  else
    expect seed/refused "$out" "//:saxpy" "does not load on sm_70" \
      "sm_80 SASS runs only on compute capability 8.x chips; sm_70 is 7.0" "fix: add sm_70 to the chips"
  fi
  cp "$ws/BUILD.after" "$ws/BUILD.bazel"
  out=$(nbazel build //:saxpy --execution_log_json_file="$ws/exec.json" 2>&1)
  if [ $? -ne 0 ]; then
    bad seed/fixed "the build still fails: $(tail -20 <<<"$out")"
  else
    local compiles checks
    compiles=$(executed "$ws/exec.json" GpuCompile) checks=$(executed "$ws/exec.json" GpuCheck)
    if [ "$compiles" = 1 ] && [ "$checks" = 1 ]; then ok "seed/fixed (re-ran 1 compile, 1 check)"; else bad seed/fixed "ran $compiles compile and $checks check actions, want 1 and 1"; fi
  fi
}

# chips: a chip the chip table does not know, or the toolkit cannot compile, fails at analysis (no
# action runs) naming the target and the chip; adding a chip to one of two targets re-runs exactly one
# compile and one link.
scenario_chips() {
  workspace chips
  cp "$ws/BUILD.unknown" "$ws/BUILD.bazel"
  out=$(nbazel build //:saxpy 2>&1)
  if [ $? -eq 0 ]; then bad chips/unknown "the build passed with chip sm_91"; else
    expect chips/unknown "$out" "Analysis of target '//:saxpy' failed" "//:saxpy: chips: unknown chip sm_91: not in the chip table (known: sm_35," "see docs/chips.md"
  fi
  cp "$ws/BUILD.toolkit" "$ws/BUILD.bazel"
  out=$(nbazel build //:saxpy 2>&1)
  if [ $? -eq 0 ]; then bad chips/toolkit "the build passed with chip sm_100 and CUDA 12.4"; else
    expect chips/toolkit "$out" "Analysis of target '//:saxpy' failed" "//:saxpy: chips: CUDA 12.4 cannot compile for sm_100: sm_100 needs CUDA 12.8 or newer; fix:"
  fi
  cp "$ws/BUILD.before" "$ws/BUILD.bazel"
  out=$(nbazel build //... 2>&1) || { bad chips/add "the first build fails: $(tail -20 <<<"$out")"; return; }
  cp "$ws/BUILD.after" "$ws/BUILD.bazel"
  out=$(nbazel build //... --execution_log_json_file="$ws/exec.json" 2>&1) || { bad chips/add "the build with sm_90 fails: $(tail -20 <<<"$out")"; return; }
  local compiles links
  compiles=$(executed "$ws/exec.json" GpuCompile) links=$(executed "$ws/exec.json" GpuLink)
  if [ "$compiles" = 1 ] && [ "$links" = 1 ]; then ok "chips/add (adding sm_90 to //:saxpy re-ran 1 compile, 1 link)"; else bad chips/add "ran $compiles compile and $links link actions, want 1 and 1"; fi
}

# hermetic: a toolkit made of pinned NVIDIA-layout archives (from the Debian packages) builds MLIR and
# CUDA C++ with its own ptxas and headers; a wrong sha256 or version fails, saying what to change.
scenario_hermetic() {
  local arch=$root/archives lines version
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

# embed: a user's go_test and cc_test use the fatbin through gpu_go_library and gpu_cc_library; a
# module with one cubin per chip has no single file to embed, and the build says so.
scenario_embed() {
  workspace embed
  out=$(nbazel test //... 2>&1)
  if [ $? -ne 0 ]; then bad embed/test "bazel test fails: $(tail -20 <<<"$out")"; else
    expect embed/test "$out" "//:go_test" "//:cc_test" "2 tests pass"
  fi
  cp "$ws/BUILD.multi" "$ws/BUILD.bazel"
  out=$(nbazel build //... 2>&1)
  if [ $? -eq 0 ]; then bad embed/multi "the build passed embedding two cubins"; else
    expect embed/multi "$out" "//:saxpy_go_embed: module //:saxpy has no single artifact to embed: format \"bin\" with chips [\"sm_80\", \"sm_90\"] gives one file per chip; use format = \"fatbin\""
  fi
}

# cuda: CUDA C++ with host code in a user's repository. A gpu_cc_test over an rdc cuda_library builds
# (and, without a GPU, only its runner ABI test runs); editing one of the library's two sources re-runs
# that source's compile per chip, each chip's device link, the fatbin, its host compile and the
# registration, and nothing of the other source. Without rdc, the source that calls the other's
# __device__ function fails, naming it and the fix; an sm_80-only library in a test for sm_90
# runners, and a program that needs a newer glibc than the runners have, fail the build.
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
  out=$(nbazel build //:scale_sm80_test --@rules_gpu//gpu:runners=sm_90 2>&1)
  if [ $? -eq 0 ]; then bad cuda/runner "the build passed; the library's kernels are sm_80 cubins only"; else
    expect cuda/runner "$out" "//:scale_sm80" "does not load on sm_90" "fix: add sm_90 to the chips"
  fi
  out=$(nbazel build //:scale_test_runner_abi --@rules_gpu//gpu:runners_have=GLIBC_2.17 2>&1)
  if [ $? -eq 0 ]; then bad cuda/abi "the build passed for runners with glibc 2.17"; else
    expect cuda/abi "$out" "//:scale_test_runner_abi" "cannot start on the runners: it needs GLIBC_2." "the runners have GLIBC_2.17" "fix: build it against an older C library"
  fi
}

# migrate: a repository written for rules_cuda (tests/integration/migrate, with the archs flag in its
# .bazelrc) is moved by gpubuild migrate: the dry run writes nothing, the run translates everything
# (exit 0), a second run changes nothing; then the repository builds and tests with rules_gpu, and the
# migrated saxpy's fatbin holds the images nvcc makes for the same archs (what rules_cuda's build ran).
scenario_migrate() {
  workspace migrate
  local g=$root/gpubuild-migrate archs=compute_80:compute_80,sm_80,sm_86 before after
  user_gpubuild "$g" || { bad migrate/helper "gpubuild does not build"; return; }
  echo "build --@rules_cuda//cuda:archs=$archs" >>"$ws/.bazelrc"
  before=$(cd "$ws" && find . -name 'bazel-*' -prune -o -type f -print0 | sort -z | xargs -0 sha256sum)
  local rc
  out=$("$g" migrate --dry-run "$ws" 2>&1); rc=$?
  after=$(cd "$ws" && find . -name 'bazel-*' -prune -o -type f -print0 | sort -z | xargs -0 sha256sum)
  if [ $rc -ne 0 ] || [ "$before" != "$after" ]; then bad migrate/dry_run "exit status $rc, or files changed: $out"; else
    expect migrate/dry_run "$out" '+load("@rules_gpu//rules:defs.bzl", "cuda_library", "gpu_cc_test")' "+build --@rules_gpu//gpu:chips=sm_80,sm_86" "dry run: 2 files would change, nothing written"
  fi
  if ! out=$("$g" migrate "$ws" 2>&1); then bad migrate/run "exit status $?: $out"; else
    expect migrate/run "$out" "wrote .bazelrc" "wrote kernels/BUILD.bazel" "cuda_objects became part of //kernels:poly" "cuda_test became cuda_library //kernels:saxpy_test_lib"
  fi
  out=$("$g" migrate "$ws" 2>&1)
  if [ $? -ne 0 ]; then bad migrate/again "exit status: $out"; else expect migrate/again "$out" "nothing to change"; fi
  out=$(nbazel test --test_tag_filters=-gpu //... 2>&1)
  if [ $? -ne 0 ]; then bad migrate/test "the migrated repository does not build and test: $(tail -20 <<<"$out")"; return; fi
  expect migrate/test "$out" "//kernels:saxpy_test_runner_abi" "1 test passes"
  # An rdc library links every object (alwayslink): its fatbin's registration waits for each source's
  # host object, and poly_eval.cu's is referenced by nothing (without it, on the H200: "invalid
  # device function" and a crash at exit).
  out=$(nbazel cquery //kernels:poly --output=starlark --starlark:expr='[(l.static_library or l.pic_static_library).basename + " alwayslink=" + str(l.alwayslink) for i in providers(target)["CcInfo"].linking_context.linker_inputs.to_list() for l in i.libraries if (l.static_library or l.pic_static_library) and i.owner == target.label]' 2>&1)
  expect migrate/rdc_alwayslink "$out" 'alwayslink=True'
  out=$(nbazel build //kernels:saxpy --output_groups=+fatbins 2>&1) || { bad migrate/artifact "the build fails: $(tail -20 <<<"$out")"; return; }
  nvcc -fatbin -O3 -gencode "arch=compute_80,code=[compute_80,sm_80,sm_86]" -I"$ws" -I"$ws/common" -o "$root/saxpy.nvcc.fatbin" "$ws/kernels/saxpy.cu" ||
    { bad migrate/artifact "nvcc fails on kernels/saxpy.cu"; return; }
  images() { "$g" inspect --json "$1" | grep -o '"kind":"[a-z]*","arch":"[a-z_0-9]*"' | sort | tr '\n' ' '; }
  local ours theirs
  ours=$(images "$ws/bazel-bin/kernels/saxpy_cu/saxpy.fatbin") theirs=$(images "$root/saxpy.nvcc.fatbin")
  if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then ok "migrate/artifact (the same images as nvcc -gencode arch=compute_80,code=[compute_80,sm_80,sm_86]: $ours)"; else
    bad migrate/artifact "rules_gpu's fatbin holds [$ours], nvcc's for $archs [$theirs]"
  fi
}

# gazelle: a user's repository whose GPU sources have no BUILD files (tests/integration/gazelle), with
# gazelle and rules_gpu's GPU language: gazelle writes their targets (a cuda_library that depends on
# the cc_library whose header it includes, gpu_modules of an .mlir and a .ptx file, a gpu_test of a
# program), which build, with host code over the library; a second run changes nothing; a header that
# no target provides fails the run with one message naming it, and nothing is written.
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

# mlir: MLIR programs (gpu_binary, gpu_test) as a user writes them: the test builds (its program,
# the runner ABI check), with the actions of every module over directories; adding a chip re-runs
# the lowering and one compile (no other chip's), the link and the host side; the test is tagged
# gpu; a program refused for a runner; bad programs fail with one error each and leave no program
# behind.
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
}

# worker: with --@rules_gpu//gpu:worker and --worker_sandboxing, every gpubuild action of an MLIR
# program runs in a persistent worker (the execution log's runner), each in a sandbox of its inputs,
# and writes exactly what the same actions write as sandboxed processes (every output's digest); an
# action that fails in a worker fails the build with the message it prints as a process.
scenario_worker() {
  workspace mlir
  # The gpubuild actions are never cached (no-cache: neither read from nor written to the disk
  # cache, whatever earlier runs left there), so that both builds run all of them; the rest (the
  # helper's own build) comes from it. gpu is the regular expression of their mnemonics.
  local gpu='Gpu.*|MlirHost.*'
  local off=(--modify_execution_info="Gpu.*=+no-cache,MlirHost.*=+no-cache" --execution_log_json_file="$ws/exec.json")
  local on=(--@rules_gpu//gpu:worker --worker_sandboxing)
  out=$(nbazel build //:add_test "${off[@]}" 2>&1) || { bad worker/processes "the build fails: $(tail -20 <<<"$out")"; return; }
  execlog outputs "$ws/exec.json" "(?!$gpu).*" >"$ws/processes.txt"
  nbazel clean >/dev/null 2>&1
  out=$(nbazel build //:add_test "${off[@]}" "${on[@]}" 2>&1) || { bad worker/build "the build fails: $(tail -20 <<<"$out")"; return; }
  local runners
  runners=$(execlog runners "$ws/exec.json")
  # Lines "N RUNNER MNEMONIC": a gpubuild mnemonic with any runner but worker fails.
  if grep -q ' worker GpuCompile$' <<<"$runners" && ! grep -v ' worker ' <<<"$runners" | grep -Eq " ($gpu)\$"; then
    ok "worker/runner (every gpubuild action ran in a worker: $(grep -c ' worker ' <<<"$runners") mnemonics)"
  else
    bad worker/runner "spawns by runner and mnemonic: $(tr '\n' ';' <<<"$runners")"
  fi
  local outs
  outs=$(execlog outputs "$ws/exec.json" "(?!$gpu).*")
  if [ -s "$ws/processes.txt" ] && diff -q - "$ws/processes.txt" <<<"$outs" >/dev/null; then
    ok "worker/outputs (every output of a gpubuild action as the sandboxed processes wrote it: $(wc -l <"$ws/processes.txt") files)"
  else
    bad worker/outputs "outputs differ from the sandboxed processes': $(diff - "$ws/processes.txt" <<<"$outs" | head -6 | tr '\n' ';')"
  fi
  out=$(nbazel build //:bad_name "${on[@]}" 2>&1)
  if [ $? -eq 0 ]; then bad worker/failure "the build passed"; else
    expect worker/failure "$out" "//:bad_name: compiling bad_name.mlir for every chip: gpu.module @\"my kernels\": a program's module names become file names; rename it"
  fi
}

# badinput: each bad input fails with one error naming the target, the file and the chip, and leaves
# no output: PTX ISA too low for its chip, malformed MLIR, malformed PTX, a module with no kernel, a
# CUDA C++ header that no dependency provides, a
# runner the artifact cannot serve, a corrupt fatbin given to gpubuild check, a missing toolkit. (An
# unknown chip and one the toolkit cannot compile: chips; a wrong-version toolkit: hermetic.)
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

names=("$@")
[ ${#names[@]} -eq 0 ] && names=(seed chips hermetic embed cuda migrate gazelle mlir worker badinput)
for name in "${names[@]}"; do
  start=$SECONDS
  "scenario_$name"
  nbazel shutdown >/dev/null 2>&1
  echo "     $name: $((SECONDS - start)) s"
done
echo "scenarios: $passed passed, $failed failed"
[ $failed -eq 0 ]
