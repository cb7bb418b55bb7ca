#!/usr/bin/env bash
# monorepo_test.sh — the generated GPU monorepo of issue 33 (tests/bench/genmonorepo) at 20 targets in
# two packages, built by rules_gpu (gpu/...): every artifact its targets declare is built and not
# empty (each gpu_module's fatbin and its cubin per chip, each cuda_library's archive and fatbin, each
# gpu_binary program), and a second clean build whose GPU and CUDA actions all run again (no-cache:
# the disk cache neither gives nor takes them; the helper, Go, comes from it) gives the same bytes.
# tests/bench/monorepo.sh measures it against the baseline (base/...) at larger sizes.
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario monorepo

scenario_monorepo() {
  workspace monorepo
  # The generator: the test's own build of it (runfiles), or by hand `go run`.
  local gen=$repo/tests/bench/genmonorepo/genmonorepo_/genmonorepo out files f want missing="" n
  if [ -x "$gen" ]; then "$gen" -n 20 -terms 4 -out "$ws"; else (cd "$repo" && go run ./tests/bench/genmonorepo -n 20 -terms 4 -out "$ws"); fi ||
    { bad monorepo/generate "genmonorepo failed"; return; }
  out=$(nbazel build //gpu/... 2>&1) || { bad monorepo/build "the build fails: $(tail -20 <<<"$out")"; return; }
  files=$(nbazel cquery //gpu/... --output=files 2>/dev/null | sort)
  # What the generator declares, package by package: 3 MLIR and 3 CUDA C++ gpu_modules (a fatbin
  # each), 2 cuda_libraries, 1 gpu_binary.
  for p in p000 p001; do
    for want in gpu/$p/k{1,2,3,4,5,6}.fatbin gpu/$p/prog9; do
      grep -qx "bazel-out/[^/]*/bin/$want" <<<"$files" || missing="$missing $want"
    done
    for want in lib7 lib8; do grep -q "bazel-out/[^/]*/bin/gpu/$p/.*$want" <<<"$files" || missing="$missing $p:$want"; done
  done
  # And each module's cubin per chip, inside the fatbins (24 per package).
  for p in p000 p001; do
    for want in gpu/$p/k{1,2,3,4,5,6}.sm_{75,80,86,90}.cubin; do
      [ -s "$ws/bazel-bin/$want" ] || missing="$missing $want"
      files="$files bazel-bin/$want"
    done
  done
  n=0
  for f in $files; do [ -s "$ws/$f" ] || missing="$missing $f(empty)"; n=$((n + 1)); done
  if [ -z "$missing" ]; then ok "monorepo/artifacts ($n outputs of //gpu/..., none empty)"; else bad monorepo/artifacts "missing or empty:$missing"; fi
  (cd "$ws" && sha256sum $files) >"$scratch/first.sha256"
  nbazel clean >/dev/null 2>&1
  out=$(nbazel build //gpu/... '--modify_execution_info=^(Gpu|Cuda|Mlir).*=+no-cache' --execution_log_json_file="$scratch/again.json" 2>&1) || { bad monorepo/again "the second clean build fails: $(tail -20 <<<"$out")"; return; }
  (cd "$ws" && sha256sum $files) >"$scratch/second.sha256"
  n=$(executed "$scratch/again.json" GpuCompile)
  [ "$n" -ge 64 ] || bad monorepo/again "the second build ran $n GpuCompile actions, want every one (64 at least: 16 modules and libraries x 4 chips)"
  if cmp -s "$scratch/first.sha256" "$scratch/second.sha256"; then ok "monorepo/reproducible ($(wc -l <"$scratch/first.sha256") outputs identical after a clean build that ran $n GPU compiles again)"
  else bad monorepo/reproducible "outputs differ: $(diff "$scratch/first.sha256" "$scratch/second.sha256" | head -10)"; fi
}

scenario_monorepo
scenario_end
