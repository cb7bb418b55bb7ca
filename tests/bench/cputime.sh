# cputime.sh — sourced by the benchmarks that count CPU time rather than wall time (mlirsteps.sh,
# pch.sh, resident.sh): CPU time changes much less than wall time when other work shares the
# machine. The sourcing script sets $out, a scratch directory. It sources stats.sh (median, ...).

# shellcheck source=tests/bench/stats.sh
. "$(dirname "${BASH_SOURCE[0]}")/stats.sh"

# cpu CMD...: the CPU milliseconds (user + system) CMD and its children took; fails with CMD's
# error output.
cpu() {
  local t
  t=$( { TIMEFORMAT='%3U %3S'; time "$@" >/dev/null 2>"$out/err"; } 2>&1 ) ||
    { echo "$(basename "$0"): failed: $* $(cat "$out/err")" >&2; return 1; }
  awk -v t="$t" 'BEGIN { split(t, x, " "); printf "%d", (x[1] + x[2]) * 1000 }'
}
