# scenario.sh — sourced, not run, by each scenario test (tests/integration/NAME_test.sh): a user's
# repository (tests/integration/NAME) that depends on this checkout of rules_gpu, built by a nested
# Bazel; each scenario checks a success and a failure.
#
# Run by Bazel (`bazel test //tests/integration:NAME_test`, a nested_bazel_test), the checkout is
# the test's runfiles, and the nested Bazel's output root (with the disk cache every scenario shares)
# and the scenario's copy of the checkout live in the outer Bazel's output base (userrepo.sh
# nested_base). Run by hand inside the build environment (env/env.sh run
# tests/integration/NAME_test.sh), the checkout's files and ~/.cache/rules_gpu_scenarios.
#
#   scenario NAME       copies the checkout for scenario NAME; sets root (the nested output root),
#                       repo (the copy) and scratch (the scenario's directory for files it makes)
#   workspace REPO      makes the copy's tests/integration/REPO the nested Bazel's workspace ($ws),
#                       with no outputs or action cache of an earlier build
#   ok, bad NAME WHY    a check passed or failed
#   expect NAME OUT TEXT...
#                       passes when OUT holds every TEXT
#   scenario_end        prints the counts; exits 0 when every check passed (the nested Bazel is
#                       shut down whenever the test exits)
# shellcheck source=tests/userrepo.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/userrepo.sh"
passed=0 failed=0 scenario_name=""
# The go_repository rules of each fresh output base (one per scenario) build gazelle's repository
# tools, about half a minute of `go build`: with the machine's Go build cache, they are built once for
# all. Only how the repositories are made changes; no action's inputs do.
export GO_REPOSITORY_USE_HOST_CACHE=1

scenario() {
  local base
  scenario_name=$1
  if [ -n "${TEST_SRCDIR:-}" ]; then
    base=$(nested_base) || exit 1
  else
    base=${SCENARIO_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_scenarios}
  fi
  scratch=$base/$1
  user_checkout "$base/root" "$scratch" || exit 1
  trap scenario_shutdown EXIT
}

scenario_shutdown() { [ -z "${ws:-}" ] || nbazel shutdown >/dev/null 2>&1; }

ok() { echo "PASS $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

# Actions are shared between scenarios (and runs) through a disk cache. Bazel 7 fetches only
# top-level outputs of an action it finds there (--remote_download_toplevel, its default, holds for a
# disk cache too): a program's module fatbins would then be empty directories in bazel-bin, so every
# output is fetched.
workspace() {
  scenario_shutdown
  user_repo "$repo/tests/integration/$1" "build --disk_cache=$root/disk_cache" "build --remote_download_outputs=all"
  # No outputs or action cache from an earlier run, so that action counts say what this run's change
  # needs (the disk cache, shared by all scenarios, makes the first build cheap).
  nbazel clean >/dev/null 2>&1
}

expect() {
  local name=$1 out=$2 missing=""
  shift 2
  for want in "$@"; do grep -qF -- "$want" <<<"$out" || missing="$missing [$want]"; done
  if [ -z "$missing" ]; then ok "$name"; else bad "$name" "message lacks$missing: $(grep -A4 'ERROR\|FAIL' <<<"$out" | head -20)"; fi
}

scenario_end() {
  echo "$scenario_name: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
