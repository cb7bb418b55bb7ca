#!/usr/bin/env bash
# monorepo_memory.sh — where the no-op build and the retained memory of issue 33's monorepo go,
# rules_gpu against the genrule baseline, in the repository that tests/bench/monorepo.sh SIZE left in
# its output root (run that first; this script builds nothing new). For each variant, in its own
# output root and disk cache as monorepo.sh built it:
#
#   first build   a fresh server, the repository as monorepo.sh left it: loading, analysis and the
#                 action cache's check of every action; its spawns are counted (the gpu/ tree's
#                 edited source was written anew by the baseline's part, so its compiles run again)
#   heap          `bazel info used-heap-size-after-gc` after it
#   classes       the server's live objects after a full collection (jcmd GC.class_histogram), the
#                 classes holding the most bytes
#   skyframe      Skyframe's nodes by function (`bazel dump --skyframe=count`): what the server keeps
#                 per action and per file
#   no-op         the build again, 5 times (median), and 5 times more with
#                 --noexperimental_check_output_files: what checking the outputs on disk costs
#
# Prints the tables; the raw histograms and counts stay in the output root. A benchmark, not part
# of tests/test.sh. Runs inside the build environment after monorepo.sh, starting servers of its own:
#   env/env.sh run tests/bench/monorepo_memory.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/bench/stats.sh
. "$here/stats.sh"
# shellcheck source=tests/userrepo.sh
. "$here/../userrepo.sh"

top=${MONOREPO_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_monorepo}
ws=$top/first/rules_gpu/tests/integration/monorepo
for v in gpu base; do
  [ -d "$ws/$v" ] && [ -d "$top/out-$v" ] ||
    { echo "monorepo_memory.sh: no monorepo in $top (run tests/bench/monorepo.sh SIZE first)" >&2; exit 1; }
done

declare -A t_first n_first heap t_noop t_nocheck
for v in gpu base; do
  root=$top/out-$v
  flags=(--disk_cache="$top/cache-$v" --remote_download_outputs=all)
  nbazel shutdown >/dev/null 2>&1; nbazel version >/dev/null 2>&1
  nbazel_timed build "${flags[@]}" "//$v/..." --execution_log_json_file="$top/first-$v.json"; t_first[$v]=$wall
  n_first[$v]=$(execlog runners "$top/first-$v.json" | awk '{ n += $1 } END { print n + 0 }')
  heap[$v]=$(nbazel info used-heap-size-after-gc 2>/dev/null)
  jcmd "$(nbazel info server_pid 2>/dev/null)" GC.class_histogram >"$top/classes-$v.txt" 2>&1 ||
    { cat "$top/classes-$v.txt"; echo "monorepo_memory.sh: jcmd could not read the server's heap" >&2; exit 1; }
  nbazel dump --skyframe=count >"$top/skyframe-$v.txt" 2>&1 ||
    { tail -5 "$top/skyframe-$v.txt"; echo "monorepo_memory.sh: bazel dump --skyframe=count failed" >&2; exit 1; }
  noops=() nochecks=()
  for _ in 1 2 3 4 5; do nbazel_timed build "${flags[@]}" "//$v/..."; noops+=("$wall"); done
  for _ in 1 2 3 4 5; do nbazel_timed build "${flags[@]}" "//$v/..." --noexperimental_check_output_files; nochecks+=("$wall"); done
  t_noop[$v]=$(median "${noops[@]}") t_nocheck[$v]=$(median "${nochecks[@]}")
  nbazel shutdown >/dev/null 2>&1
done

# classes: the histogram's 20 classes holding the most bytes in either server, each side's
# bytes (MB) and instances.
classes() {
  echo "| class (jcmd GC.class_histogram) | rules_gpu: MB | instances | baseline: MB | instances |"
  echo "|---|---|---|---|---|"
  awk 'FNR == 1 { v++ } $1 ~ /^[0-9]+:$/ { b[$4, v] = $3; n[$4, v] = $2; if ($3 > m[$4]) m[$4] = $3 }
    END { for (c in m) printf "%d | %s | %.1f | %d | %.1f | %d |\n", m[c], c, b[c, 1] / 1e6, n[c, 1], b[c, 2] / 1e6, n[c, 2] }' \
    "$top/classes-gpu.txt" "$top/classes-base.txt" | sort -nr | head -20 | sed 's/^[0-9]* //'
  awk 'FNR == 1 { v++ } /^Total/ { t[v] = $3 } END { printf "| all live objects | %.1f | | %.1f | |\n", t[1] / 1e6, t[2] / 1e6 }' \
    "$top/classes-gpu.txt" "$top/classes-base.txt"
}
# skyframe: the node counts of the functions with the most nodes in either server.
skyframe() {
  echo "| Skyframe function (bazel dump --skyframe=count) | rules_gpu: nodes | baseline: nodes |"
  echo "|---|---|---|"
  awk 'FNR == 1 { v++ } NF == 2 && $2 ~ /^[0-9]+$/ { n[$1, v] = $2; if ($2 > m[$1]) m[$1] = $2 }
    END { for (f in m) printf "%d | %s | %d | %d |\n", m[f], f, n[f, 1], n[f, 2] }' \
    "$top/skyframe-gpu.txt" "$top/skyframe-base.txt" | sort -nr | head -15 | sed 's/^[0-9]* //'
}
row() { echo "| $1 | $2 | $3 | $(ratio "$2" "$3") |"; }
cat <<EOF
Repository: $ws ($(find "$ws/gpu" -name BUILD.bazel | wc -l) packages); each variant's output root and disk cache as monorepo.sh left them.

| measurement | rules_gpu | baseline | ratio |
|---|---|---|---|
$(row "first build of a fresh server (s): nothing to run" "${t_first[gpu]}" "${t_first[base]}")
| its spawns | ${n_first[gpu]} | ${n_first[base]} | |
| bazel info used-heap-size-after-gc after it | ${heap[gpu]} | ${heap[base]} | $(ratio "${heap[gpu]%MB}" "${heap[base]%MB}") |
$(row "no-op build (s, median of 5)" "${t_noop[gpu]}" "${t_noop[base]}")
$(row "no-op build, --noexperimental_check_output_files (s, median of 5)" "${t_nocheck[gpu]}" "${t_nocheck[base]}")

$(classes)

$(skyframe)
EOF
