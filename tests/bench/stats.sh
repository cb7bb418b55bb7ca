# stats.sh — sourced, not run: the benchmarks' arithmetic on their timings, written once.
#
#   now                    nanoseconds since the epoch
#   secs NS                NS nanoseconds as seconds, two decimals
#   median V...            the median (the mean of the middle two for an even count)
#   stats V...             "MEDIAN s (min MIN, max MAX)", two decimals
#   ratio A B              A / B, two decimals
#   ratios "A..." "B..."   the median of the pairs' A_i / B_i, with the smallest and largest:
#                          "MEDIAN (MIN-MAX)"

now() { date +%s%N; }

secs() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e9 }'; }

# _middle: min, median and max of the numbers on standard input, one per line
_middle() { sort -g | awk '{ v[NR] = $1 } END { print v[1], (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[NR] }'; }

median() { printf '%s\n' "$@" | _middle | cut -d' ' -f2; }

stats() { printf '%s\n' "$@" | _middle | awk '{ printf "%.2f s (min %.2f, max %.2f)", $2, $1, $3 }'; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

ratios() {
  paste -d' ' <(tr ' ' '\n' <<<"$1") <(tr ' ' '\n' <<<"$2") | awk 'NF == 2 { print $1 / $2 }' | _middle |
    awk '{ printf "%.2f (%.2f-%.2f)", $2, $1, $3 }'
}
