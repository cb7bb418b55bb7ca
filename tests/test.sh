#!/usr/bin/env bash
# test.sh — every test of rules_gpu. Runs inside the build environment:
#   env/env.sh run tests/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${RULES_GPU_IN_ENV:-}" ] || { echo "run me inside the environment: env/env.sh run $0" >&2; exit 2; }

# step NAME: starts a step; each step's wall time is printed at the end (docs/development.md records a run).
steps=() step_name="" step_start=$SECONDS
step() {
  [ -z "$step_name" ] || steps+=("$(printf '%5d s  %s' $((SECONDS - step_start)) "$step_name")")
  step_name=$1 step_start=$SECONDS
  printf '\n=== %s\n' "$*"
}

step "gofmt and go vet (the Go tests run as Bazel tests: bazel test //...)"
unformatted=$(gofmt -l $(git ls-files '*.go'))
[ -z "$unformatted" ] || { echo "FAIL: not gofmt-formatted (run gofmt -w on them):" >&2; echo "$unformatted" >&2; exit 1; }
go vet ./...
# tests/remote: the test servers' own module (bazel-remote's dependencies stay out of go.mod), not
# built by Bazel.
(cd tests/remote && go vet ./... && go test ./...)

step "fuzz the fatbin and cubin readers and the MLIR attach step for a bounded time"
go test -run '^$' -fuzz '^FuzzRead$' -fuzztime "${RULES_GPU_FUZZTIME:-30s}" ./tools/fatbin
# The seeds are whole cubins of kilobytes: minimizing each new input for the default 60 s would take the run.
go test -run '^$' -fuzz '^FuzzCubin$' -fuzztime "${RULES_GPU_FUZZTIME:-30s}" -fuzzminimizetime 2s ./tools/internal/artifact
go test -run '^$' -fuzz '^FuzzAttach$' -fuzztime "${RULES_GPU_FUZZTIME:-30s}" ./tools/mlir

step "the GPU programs build with cgo against the toolkit's cuda.h and libcuda (tag cuda)"
go vet -tags cuda ./tools/internal/launch/... ./tools/cmd/gpurun/ ./tools/internal/mlirrt/...
if [ -e /dev/nvidia0 ]; then
  go run -tags cuda ./tools/cmd/gpurun info
else
  echo "GPU run skipped: this machine has no NVIDIA GPU. tests/gpu/build.sh and run.sh run the"
  echo "GPU programs on the H200 through the device tool; docs/gpu-results.md has the results."
fi

step "the environment gives its commands a /dev of their own"
# A tmpfs with the host's nodes bind-mounted one by one (env/env.sh): a tool that replaces an output
# such as /dev/stdout can then harm only this copy.
[ "$(stat -f -c %T /dev)" = tmpfs ] && [ -c /dev/null ] && [ -L /dev/stdout ] ||
  { echo "FAIL: /dev is not the environment's own tmpfs with /dev/null and /dev/stdout" >&2; exit 1; }
echo "/dev: $(stat -f -c %T /dev), $(ls /dev | wc -l) entries"

step "Starlark is buildifier-clean (format and lint)"
git ls-files '*.bzl' '*.bazel' WORKSPACE MODULE.bazel ':!third_party/go_repositories.bzl' | xargs go tool buildifier -mode=check -lint=warn

step "the README's and docs' relative links resolve"
tests/doclinks.py

step "BUILD files and go_repositories.bzl are in sync with the sources and go.mod (gazelle)"
bazel run //:gazelle -- -mode=diff
saved=$(mktemp -d)
cp WORKSPACE third_party/go_repositories.bzl "$saved/"
bazel run //:gazelle-update-repos
if ! diff -u "$saved/WORKSPACE" WORKSPACE || ! diff -u "$saved/go_repositories.bzl" third_party/go_repositories.bzl; then
  cp "$saved/WORKSPACE" WORKSPACE; cp "$saved/go_repositories.bzl" third_party/go_repositories.bzl
  echo "go.mod changed: run 'env/env.sh run bazel run //:gazelle-update-repos' and commit the result" >&2
  exit 1
fi

step "the nested-Bazel tests' inputs: every file of the module, every users' repository package"
# //tests:module_files is what the nested-Bazel tests copy as their users' rules_gpu: a file missing there
# would be missing in every user's repository they build.
module_dirs=(cuda gazelle gpu rules third_party toolchain tools)
missing=$(comm -23 <(git ls-files "${module_dirs[@]}" | sort) \
  <(bazel query 'kind("source file", deps(//tests:module_files))' --output=label 2>/dev/null | sed 's|^//:||; s|^//||; s|:|/|' | sort))
[ -z "$missing" ] || { echo "FAIL: files of the module not in //tests:module_files (add an all_files filegroup to their package and list it there):" >&2; echo "$missing" >&2; exit 1; }
# Every package of a users' repository is in --deleted_packages (.bazelrc), so that
# //tests/integration globs its files; otherwise this repository would try to build it.
listed=$(sed -n 's/^common --deleted_packages=//p' .bazelrc | tr ',' '\n' | sort)
found=$(git ls-files 'tests/integration/*/BUILD.bazel' 'tests/integration/*/**/BUILD.bazel' | xargs -n1 dirname | sort -u)
[ "$listed" = "$found" ] || { echo "FAIL: .bazelrc's --deleted_packages is not the users' repositories' packages:" >&2; diff <(echo "$listed") <(echo "$found") >&2; exit 1; }
echo "$(git ls-files "${module_dirs[@]}" | wc -l) module files, all in //tests:module_files; $(grep -c . <<<"$found") users' repository packages, all deleted"

step "bazel test //... (bzlmod; every action in linux-sandbox, without network; the nested-Bazel tests, tagged local, outside it)"
# The nested-Bazel tests (tests/integration, //tests:remote_*_test) run a Bazel of their own with its
# output root outside any sandbox; their results are cached, as every test's.
bazel test --spawn_strategy=linux-sandbox --strategy=TestRunner=linux-sandbox,local --sandbox_default_allow_network=false //...

step "WORKSPACE mode, in an output base of its own: everything is analysed; the helper builds GPU modules, a cuda_library links into a gpu_cc_test, and the analysis tests pass"
# Its own output base, so that neither mode's outputs replace the other's and a second run of this
# command finds both cached. What differs between the modes is how repositories and toolchains are
# set up (WORKSPACE's macros, third_party/go_repositories.bzl), not what the rules do: every target
# is analysed (every repository fetched, go_repositories.bzl's patches applied), the helper is built
# from go_repositories.bzl's modules and runs every per-chip action kind (gpu_module from MLIR, CUDA
# C++ and PTX; cuda_library with host code in a gpu_cc_test). The Go programs of the target
# configuration (gpu_go_library's tests, the MLIR runtime of gpu_test) are rules_go's builds over the
# same pins, which the gazelle step above checks against go.mod: the bzlmod run builds and tests them,
# and building them here again would cost two more compiles of Go's standard library. The
# nested-Bazel tests are bzlmod users' repositories (.bazelrc leaves them out).
workspace_base="$(bazel info output_base)-workspace"
bazel --output_base="$workspace_base" build --config=workspace --nobuild //...
bazel --output_base="$workspace_base" test --config=workspace //tests/core/... //examples/cuda:cuda_test \
  //examples/saxpy:saxpy_mlir //examples/saxpy:saxpy_cuda //examples/saxpy:saxpy_ptx

step "the seed artifact is refused at build time for an sm_90 runner"
if out=$(bazel build //examples/seed:seed_bin --@rules_gpu//gpu:runners=sm_90 --@rules_gpu//gpu:driver=13.0 2>&1); then
  echo "FAIL: //examples/seed:seed_bin built for runner sm_90; an sm_80-only cubin cannot load there" >&2; exit 1
fi
grep -F "does not load on sm_90" <<<"$out" && grep -F "fix: add sm_90 to the chips" <<<"$out" ||
  { echo "FAIL: the refusal does not say why and what to change:" >&2; tail -20 <<<"$out" >&2; exit 1; }

step "the seed in runtime-API form: a cc_binary over an sm_80-only cuda_library is refused for sm_90"
if out=$(bazel build //examples/cuda:seed_runtime --@rules_gpu//gpu:runners=sm_90 --@rules_gpu//gpu:driver=13.0 2>&1); then
  echo "FAIL: //examples/cuda:seed_runtime built for runner sm_90; its kernels are sm_80 cubins only" >&2; exit 1
fi
grep -F "seed_sm80_cu/seed/seed.fatbin on sm_90 (driver 13.0): does not load on sm_90" <<<"$out" && grep -F "fix: add sm_90 to the chips" <<<"$out" ||
  { echo "FAIL: the refusal does not say why and what to change:" >&2; tail -20 <<<"$out" >&2; exit 1; }

step "the seed as an MLIR program: a gpu_binary of sm_80 cubins only is refused for sm_90"
if out=$(bazel build //examples/mlir:seed_bin --@rules_gpu//gpu:runners=sm_90 --@rules_gpu//gpu:driver=13.0 2>&1); then
  echo "FAIL: //examples/mlir:seed_bin built for runner sm_90; its module is an sm_80 cubin only" >&2; exit 1
fi
grep -F "seed_bin_modules/fatbin/main_kernel.fatbin on sm_90 (driver 13.0): does not load on sm_90" <<<"$out" && grep -F "fix: add sm_90 to the chips" <<<"$out" ||
  { echo "FAIL: the refusal does not say why and what to change:" >&2; tail -20 <<<"$out" >&2; exit 1; }

step "all tests passed"
printf 'time per step:\n'; printf '  %s\n' "${steps[@]}"; printf '%7d s  in all\n' "$SECONDS"
