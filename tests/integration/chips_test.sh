#!/usr/bin/env bash
# chips_test.sh — a chip the chip table does not know, or the toolkit cannot compile, fails at analysis (no
# action runs) naming the target and the chip; adding a chip to one of two targets re-runs exactly one
# compile and one link.
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario chips

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

scenario_chips
scenario_end
