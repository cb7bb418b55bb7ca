#!/usr/bin/env bash
# embed_test.sh — a user's go_test and cc_test use the fatbin through gpu_go_library and gpu_cc_library; a
# module with one cubin per chip has no single file to embed, and the build says so.
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario embed

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

scenario_embed
scenario_end
