#!/usr/bin/env bash
# scale.sh [RUNS] — the scale test: a user's repository with 50 generated MLIR kernels (genkernels, 400
# terms each), every gpu_module for 4 chips (sm_75, sm_80, sm_86, sm_90): 200 compiles to cubins, 50 to
# PTX and 50 links per build. Builds it RUNS times (default 3) from clean, checks every fatbin (4
# cubins and the PTX, its kernel, loads on its chips by gpubuild check) and that every run gives the
# same bytes, and prints the wall time of each run (RUNS=0: only sets the repository up and builds the
# helper). Runs inside the build environment:
#   env/env.sh run tests/bench/scale.sh
set -uo pipefail
runs=${1:-3}
# shellcheck source=tests/userrepo.sh
. "$(dirname "$0")/../userrepo.sh"
user_checkout "${SCALE_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_scale}" || exit 1
user_repo "$repo/tests/bench/workspace" || exit 1
(cd "$repo" && go run ./tests/bench/genkernels -n 50 -terms 400 -lang mlir -chips sm_75,sm_80,sm_86,sm_90 -out "$ws") || exit 1
user_gpubuild "$root/gpubuild" || exit 1
fail=0
for run in $(seq "$runs"); do
  # Clean, then build: every compile and link action runs (the helper itself is rebuilt too, as
  # part of the build; its time is in the figure).
  nbazel clean >/dev/null 2>&1
  start=$(date +%s%N)
  out=$(nbazel build //... 2>&1); rc=$?
  secs=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.1f", ns / 1e9 }')
  actions=$(grep -o '[0-9]* total actions' <<<"$out" | cut -d' ' -f1)
  if [ $rc -ne 0 ]; then echo "run $run: FAIL: $(tail -20 <<<"$out")"; fail=1; continue; fi
  bad=0
  for f in "$ws"/bazel-bin/k*_mlir.fatbin; do
    k=$(basename "$f" _mlir.fatbin)
    images=$("$root/gpubuild" inspect --json "$f" | sed 's/.*"kind":"\([a-z]*\)","arch":"\([a-z0-9_]*\)".*/\1:\2/' | tr '\n' ' ')
    [ "$images" = "elf:sm_75 elf:sm_80 elf:sm_86 elf:sm_90 ptx:sm_75 " ] || { echo "run $run: $f holds $images"; bad=1; }
    "$root/gpubuild" check --runs-on sm_75,sm_80,sm_86,sm_89,sm_90 "$f" >/dev/null || { echo "run $run: $f fails gpubuild check"; bad=1; }
    "$root/gpubuild" extract -o "$root/x" "$f" >/dev/null && grep -q "\.entry $k(" "$root"/x/*.ptx || { echo "run $run: $f has no kernel $k"; bad=1; }
    rm -rf "$root/x"
  done
  (cd "$ws" && sha256sum bazel-bin/k*.fatbin bazel-bin/k*.cubin bazel-bin/k*.ptx) >"$root/run$run.sha256"
  if [ "$run" -gt 1 ] && ! cmp -s "$root/run1.sha256" "$root/run$run.sha256"; then echo "run $run: artifacts differ from run 1"; bad=1; fi
  n=$(wc -l <"$root/run$run.sha256")
  [ $bad -eq 0 ] && echo "run $run: ok, $secs s, $actions actions, $n artifacts identical to run 1" || fail=1
done
nbazel shutdown >/dev/null 2>&1
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(bazel --version)"
exit $fail
