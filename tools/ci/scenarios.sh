#!/usr/bin/env bash
# scenarios.sh — nested-Bazel integration tests: each scenario is a user's repository that depends on
# this checkout of rules_gpu, built with its own Bazel output root. Runs inside the build environment
# (tools/ci/test.sh calls it).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
root=${SCENARIO_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_scenarios}
passed=0 failed=0
ok() { echo "PASS $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

# workspace NAME: a fresh copy of scenarios/NAME with the user's MODULE.bazel, always at the same path
# so that its Bazel output base (under $root) is reused between runs.
workspace() {
  ws=$root/workspaces/$1
  rm -rf "$ws"; mkdir -p "$ws"
  cp -r "$repo/tools/ci/scenarios/$1/." "$ws/"
  sed "s#@RULES_GPU@#$repo#" "$repo/tools/ci/scenarios/MODULE.bazel.in" >"$ws/MODULE.bazel"
  printf 'common --noenable_workspace\ncommon --lockfile_mode=off\n' >"$ws/.bazelrc"
  # A comment unique to this run makes every compile action new, so that action counts do not
  # depend on what an earlier run left in the reused action cache.
  for f in "$ws"/*.mlir; do echo "// scenario run $(date +%s%N)" >>"$f"; done
  echo "$ws"
}
nbazel() { (cd "$ws" && bazel --output_user_root="$root" "$@"); }

# seed: chips = ["sm_80"], format = "bin", runs_on = ["sm_70"] must fail the build and say why and
# what to change; after the change it builds, with exactly one more compile action.
ws=$(workspace seed)
cp "$ws/BUILD.before" "$ws/BUILD.bazel"
out=$(nbazel build //:saxpy 2>&1); rc=$?
if [ $rc -eq 0 ]; then
  bad seed/refused "the build passed; it must fail: sm_80 code cannot load on sm_70"
else
  missing=""
  for want in "//:saxpy" "does not load on sm_70" "sm_80 SASS runs only on compute capability 8.x chips; sm_70 is 7.0" "fix: add sm_70 to the chips"; do
    grep -qF "$want" <<<"$out" || missing="$missing [$want]"
  done
  [ -z "$missing" ] && ok seed/refused || bad seed/refused "message lacks$missing: $(grep -A3 'FAIL\|ERROR' <<<"$out" | head -20)"
fi
cp "$ws/BUILD.after" "$ws/BUILD.bazel"
out=$(nbazel build //:saxpy --execution_log_json_file="$ws/exec.json" 2>&1); rc=$?
if [ $rc -ne 0 ]; then
  bad seed/fixed "the build still fails: $(tail -20 <<<"$out")"
else
  compiles=$(grep -c '"mnemonic": "GpuCompile"' "$ws/exec.json" || true)
  checks=$(grep -c '"mnemonic": "GpuCheck"' "$ws/exec.json" || true)
  if [ "$compiles" = 1 ] && [ "$checks" = 1 ]; then ok "seed/fixed (re-ran 1 compile, 1 check)"; else bad seed/fixed "ran $compiles compile and $checks check actions, want 1 and 1"; fi
fi
nbazel shutdown >/dev/null 2>&1

echo "scenarios: $passed passed, $failed failed"
[ $failed -eq 0 ]
