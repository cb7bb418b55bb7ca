# cputime.sh — sourced by the benchmarks that count CPU time (bench.sh, mlirsteps.sh, pch.sh,
# resident.sh): CPU time changes much less than wall time when other work shares the
# machine. The sourcing script sets $out, a scratch directory. It sources stats.sh (median, ...).

# shellcheck source=tests/bench/stats.sh
. "$(dirname "${BASH_SOURCE[0]}")/stats.sh"

# timed CMD...: runs CMD (its output discarded) and sets wall (s) and cpu (s: user + system of CMD
# and its children); fails with CMD's error output.
timed() {
  local t s
  s=$(now)
  t=$( { TIMEFORMAT='%3U %3S'; time "$@" >/dev/null 2>"$out/err"; } 2>&1 ) ||
    { echo "$(basename "$0"): failed: $* $(cat "$out/err")" >&2; return 1; }
  wall=$(secs $(($(now) - s)))
  cpu=$(awk -v t="$t" 'BEGIN { split(t, x, " "); printf "%.3f", x[1] + x[2] }')
}

# cpu CMD...: the CPU milliseconds (user + system) CMD and its children took; fails with CMD's
# error output.
cpu() {
  timed "$@" || return 1
  awk -v c="$cpu" 'BEGIN { printf "%d", c * 1000 }'
}
