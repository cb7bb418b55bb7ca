#!/usr/bin/env bash
# seed_test.sh — chips = ["sm_80"], format = "bin", runs_on = ["sm_70"] must fail the build and say why and
# what to change; after the change it builds, with exactly one more compile action.
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario seed

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

scenario_seed
scenario_end
