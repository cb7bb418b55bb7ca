#!/usr/bin/env bash
# migrate_test.sh — a repository written for rules_cuda (tests/integration/migrate: its own packages,
# and basic, basic_macros, rdc, thrust and if_cuda in the shapes of rules_cuda's examples, with their
# .bazelrc's flag aliases, and the archs flag) is moved by gpubuild migrate: the dry run writes
# nothing, the run translates everything (exit 0), a second run changes nothing; then the repository
# builds and tests with rules_gpu (the if_cuda program with CUDA on and off), and the migrated
# saxpy's fatbin holds the images nvcc makes for the same archs (what rules_cuda's build ran).
# docs/gpu-results.md has the programs' run on the GPU, beside nvcc's build of the same sources.
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario migrate

scenario_migrate() {
  workspace migrate
  local g=$scratch/gpubuild-migrate archs=compute_80:compute_80,sm_80,sm_86 before after
  user_gpubuild "$g" || { bad migrate/helper "gpubuild does not build"; return; }
  # rules_cuda's examples' flag aliases (five, two used) and CUDA on, then the archs.
  cat "$ws/rules_cuda_examples.bazelrc" >>"$ws/.bazelrc"
  echo "build --@rules_cuda//cuda:archs=$archs" >>"$ws/.bazelrc"
  before=$(cd "$ws" && find . -name 'bazel-*' -prune -o -type f -print0 | sort -z | xargs -0 sha256sum)
  local rc
  out=$("$g" migrate --dry-run "$ws" 2>&1); rc=$?
  after=$(cd "$ws" && find . -name 'bazel-*' -prune -o -type f -print0 | sort -z | xargs -0 sha256sum)
  if [ $rc -ne 0 ] || [ "$before" != "$after" ]; then bad migrate/dry_run "exit status $rc, or files changed: $out"; else
    expect migrate/dry_run "$out" '+load("@rules_gpu//rules:defs.bzl", "cuda_library", "cuda_objects", "gpu_cc_test")' "+build --@rules_gpu//gpu:chips=sm_80,sm_86" "dry run: 8 files would change, nothing written"
  fi
  if ! out=$("$g" migrate "$ws" 2>&1); then bad migrate/run "exit status $?: $out"; else
    expect migrate/run "$out" "wrote .bazelrc" "wrote kernels/BUILD.bazel" "cuda_test became cuda_library //kernels:saxpy_test_lib" \
      "wrote rdc/BUILD.bazel" "wrote if_cuda/if_cuda.bzl" "flag --flag_alias=cuda_copts=@rules_cuda//cuda:copts removed"
    if grep -nE '@@?rules_cuda' "$ws/.bazelrc" "$ws"/{kernels,basic,basic_macros,rdc,thrust,if_cuda}/BUILD.bazel "$ws/if_cuda/if_cuda.bzl"; then bad migrate/no_rules_cuda "a file still names rules_cuda"; else ok migrate/no_rules_cuda; fi
    expect migrate/objects "$(cat "$ws/kernels/BUILD.bazel")" 'load("@rules_gpu//rules:defs.bzl", "cuda_library", "cuda_objects", "gpu_cc_test")' 'cuda_objects(
    name = "poly_eval",'
  fi
  out=$("$g" migrate "$ws" 2>&1)
  if [ $? -ne 0 ]; then bad migrate/again "exit status: $out"; else expect migrate/again "$out" "nothing to change"; fi
  out=$(nbazel test --test_tag_filters=-gpu //... 2>&1)
  if [ $? -ne 0 ]; then bad migrate/test "the migrated repository does not build and test: $(tail -20 <<<"$out")"; return; fi
  expect migrate/test "$out" "//kernels:saxpy_test_runner_abi" "//basic_macros:test_runner_abi" "2 tests pass"
  # if_cuda's select, translated in its .bzl macro: the program links the kernel only with CUDA on.
  for on in True False; do
    out=$(nbazel cquery "deps(//if_cuda:main)" --enable_cuda=$on --output=label 2>&1)
    if [ $on = True ]; then expect migrate/if_cuda_on "$out" "//if_cuda:kernel "; elif grep -q '//if_cuda:kernel ' <<<"$out"; then
      bad migrate/if_cuda_off "//if_cuda:main depends on the kernel with --enable_cuda=False"; else ok migrate/if_cuda_off; fi
  done
  # An rdc library links every object (alwayslink): its fatbin's registration waits for each source's
  # host object, and poly_eval.cu's is referenced by nothing (without it, on the H200: "invalid
  # device function" and a crash at exit).
  out=$(nbazel cquery //kernels:poly --output=starlark --starlark:expr='[(l.static_library or l.pic_static_library).basename + " alwayslink=" + str(l.alwayslink) for i in providers(target)["CcInfo"].linking_context.linker_inputs.to_list() for l in i.libraries if (l.static_library or l.pic_static_library) and i.owner == target.label]' 2>&1)
  expect migrate/rdc_alwayslink "$out" 'alwayslink=True'
  out=$(nbazel build //kernels:saxpy --output_groups=+fatbins 2>&1) || { bad migrate/artifact "the build fails: $(tail -20 <<<"$out")"; return; }
  nvcc -fatbin -O3 -gencode "arch=compute_80,code=[compute_80,sm_80,sm_86]" -I"$ws" -I"$ws/common" -o "$scratch/saxpy.nvcc.fatbin" "$ws/kernels/saxpy.cu" ||
    { bad migrate/artifact "nvcc fails on kernels/saxpy.cu"; return; }
  images() { "$g" inspect --json "$1" | grep -o '"kind":"[a-z]*","arch":"[a-z_0-9]*"' | sort | tr '\n' ' '; }
  local ours theirs
  ours=$(images "$ws/bazel-bin/kernels/saxpy_cu/saxpy.fatbin") theirs=$(images "$scratch/saxpy.nvcc.fatbin")
  if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then ok "migrate/artifact (the same images as nvcc -gencode arch=compute_80,code=[compute_80,sm_80,sm_86]: $ours)"; else
    bad migrate/artifact "rules_gpu's fatbin holds [$ours], nvcc's for $archs [$theirs]"
  fi
}

scenario_migrate
scenario_end
