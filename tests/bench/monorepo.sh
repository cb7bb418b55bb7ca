#!/usr/bin/env bash
# monorepo.sh SIZE — the generated GPU monorepo of issue 33: rules_gpu against the BUILD files a Bazel
# user writes without it, on the same sources.
#
# tests/bench/genmonorepo writes SIZE targets in SIZE/10 packages into the user's repository
# tests/integration/monorepo (in a snapshot of this checkout): gpu/ with rules_gpu (gpu_modules from
# MLIR and CUDA C++, cuda_libraries, gpu_binary programs), base/ with genrules calling nvcc and
# mlir-opt, both over src/'s shared header libraries, for sm_75, sm_80, sm_86, sm_90. Each variant
# is built by its own nested Bazel (its own output root and disk cache, so nothing is shared), one
# after the other, each measurement:
#
#   analysis     a fresh server (started outside the clock), `build --nobuild`: loading and analysis
#   clean        `bazel clean`, then the build (rules_gpu's: its Go helper too), filling the disk cache
#   heap         the server's retained heap after it (`bazel info used-heap-size-after-gc`), and its
#                peak resident memory over the clean build (VmHWM of its process); the machine's
#                peak used memory over it (MemTotal - MemAvailable, sampled every second): the
#                server and the actions it runs together
#   no-op        the same build again, 5 times: the median (and the fastest and slowest)
#   rule classes `bazel dump --rules` after the clean build: the targets and actions of each rule
#                class, where the action graph (and so the no-op build and the heap) comes from
#   new seed     every kernel with new constants (genmonorepo -seed 1): every GPU action again, the
#                helper already built; then the sources back, built outside the clock
#   edit         one CUDA C++ source (p000/k4.cu) gets a comment; the build; its actions (execution log)
#   add chip     sm_89 added to that target (genmonorepo -add-chip); the build; its actions
#   chip to all  sm_89 added to every target where the repository sets its chips, one place in each
#                tree (genmonorepo -chips: --@rules_gpu//gpu:chips in repo.bazelrc, base/chips.bzl);
#                the build; its actions
#   2nd checkout the repository copied to another directory, another output root, the same disk
#                cache; the build, timed, with its cache hits
#
# MONOREPO_VARIANTS sets the order the trees are built in (default "gpu base"; "base gpu" takes the
# baseline's rows first). Prints one table, rules_gpu / baseline; each number also goes to
# progress.log as it is taken, in MONOREPO_OUTPUT_ROOT (default ~/.cache/rules_gpu_monorepo). A
# benchmark, not part of tests/test.sh. Runs inside the build environment (docs/benchmarks.md):
#   env/env.sh run tests/bench/monorepo.sh 200
set -uo pipefail
size=${1:?usage: monorepo.sh SIZE}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/bench/stats.sh
. "$here/stats.sh"
# shellcheck source=tests/userrepo.sh
. "$here/../userrepo.sh"
top=${MONOREPO_OUTPUT_ROOT:-$HOME/.cache/rules_gpu_monorepo}
load0=$(cut -d' ' -f1-3 /proc/loadavg)
# Each measurement as it is taken, so that a run stopped by a failure keeps what it measured.
progress=$top/progress.log
mkdir -p "$top" && : >"$progress"
user_checkout "$top/root" "$top/first" || exit 1
first=$repo
user_repo "$repo/tests/integration/monorepo" || exit 1
gen() { (cd "$first" && go run ./tests/bench/genmonorepo -n "$size" -out "$first/tests/integration/monorepo" "$@") || exit 1; }
gen

# spawns LOG: "N spawns (K RUNNER, ...; M MNEMONIC, ...)" of an execution log.
spawns() {
  execlog runners "$1" | awk '{ n += $1; m[$NF] += $1; r = $2; for (i = 3; i < NF; i++) r = r " " $i; by[r] += $1 }
    END { s = ""; for (k in by) s = s (s ? ", " : "") by[k] " " k; t = ""; for (k in m) t = t (t ? ", " : "") m[k] " " k
          printf "%d spawns (%s; %s)", n, s, t }'
}

# used_memory: the machine's used memory in MB (MemTotal - MemAvailable), one line a second, until killed.
used_memory() {
  while :; do
    awk '/^MemTotal/ { t = $2 } /^MemAvailable/ { a = $2 } END { printf "%d\n", (t - a) / 1024 }' /proc/meminfo
    sleep 1
  done
}

declare -A t_seed t_analysis t_clean heap hwm used maxheap t_noop r_noop p_noop t_edit n_edit t_chip n_chip t_all n_all t_second n_second
for v in ${MONOREPO_VARIANTS:-gpu base}; do
  root=$top/out-$v dc=$top/cache-$v
  rm -rf "$dc"
  gen  # the sources and BUILD files as generated: no edit, no added chip
  flags=(--disk_cache="$dc" --remote_download_outputs=all)
  nbazel shutdown >/dev/null 2>&1
  nbazel build --nobuild "//$v/..." >/dev/null 2>&1  # fetches the external repositories once
  nbazel shutdown >/dev/null 2>&1; nbazel version >/dev/null 2>&1
  nbazel_timed build --nobuild "//$v/..."; t_analysis[$v]=$wall
  nbazel clean >/dev/null 2>&1
  used_memory >"$top/used-$v.txt" &
  sampler=$!
  nbazel_timed build "${flags[@]}" "//$v/..."; t_clean[$v]=$wall
  kill "$sampler"; wait "$sampler" 2>/dev/null
  used[$v]=$(sort -n "$top/used-$v.txt" | tail -1)MB
  heap[$v]=$(nbazel info used-heap-size-after-gc 2>/dev/null)
  hwm[$v]=$(awk '/^VmHWM/ { printf "%dMB", $2 / 1024 }' "/proc/$(nbazel info server_pid 2>/dev/null)/status")
  nbazel dump --rules 2>/dev/null | awk '$1 == "ASPECT" { exit } NF == 3 { gsub(",", "") } NF == 3 && $2 ~ /^[0-9]+$/' >"$top/rules-$v.txt"
  maxheap[$v]=$(nbazel info max-heap-size 2>/dev/null)
  echo "$v heap ${heap[$v]}, peak resident ${hwm[$v]}, machine's peak used ${used[$v]}, heap limit ${maxheap[$v]}" >>"$progress"
  noops=()
  for _ in 1 2 3 4 5; do nbazel_timed build "${flags[@]}" "//$v/..."; noops+=("$wall"); done
  t_noop[$v]=$(median "${noops[@]}")
  # Where a no-op build's time goes: the phases of one more, from its JSON profile.
  nbazel_timed build "${flags[@]}" "//$v/..." --profile="$top/noop-$v.json.gz"
  p_noop[$v]=$(nbazel analyze-profile "$top/noop-$v.json.gz" 2>/dev/null |
    sed -n 's/^Total \(.*\) phase time  *\([0-9.]*\) s .*/\1 \2 s/p' | paste -sd';' | sed 's/;/; /g')
  r_noop[$v]="$(printf '%s\n' "${noops[@]}" | sort -n | head -1)–$(printf '%s\n' "${noops[@]}" | sort -n | tail -1) s"
  # Every GPU action again, the helper built: new constants in every kernel (-seed), then back.
  gen -seed 1
  nbazel_timed build "${flags[@]}" "//$v/..."; t_seed[$v]=$wall
  gen
  nbazel build "${flags[@]}" "//$v/..." >/dev/null 2>&1
  echo "// edited" >>"$ws/$v/p000/k4.cu"
  nbazel_timed build "${flags[@]}" "//$v/..." --execution_log_json_file="$top/edit-$v.json"; t_edit[$v]=$wall
  n_edit[$v]=$(spawns "$top/edit-$v.json")
  gen -add-chip p000:k4=sm_89
  echo "// edited" >>"$ws/$v/p000/k4.cu"  # as the edit left it (genmonorepo wrote the source anew)
  nbazel_timed build "${flags[@]}" "//$v/..." --execution_log_json_file="$top/chip-$v.json"; t_chip[$v]=$wall
  n_chip[$v]=$(spawns "$top/chip-$v.json")
  gen -add-chip p000:k4=sm_89 -chips sm_75,sm_80,sm_86,sm_89,sm_90
  echo "// edited" >>"$ws/$v/p000/k4.cu"
  nbazel_timed build "${flags[@]}" "//$v/..." --execution_log_json_file="$top/all-$v.json"; t_all[$v]=$wall
  n_all[$v]=$(spawns "$top/all-$v.json")
  nbazel shutdown >/dev/null 2>&1
  # The second checkout: the same files (as the first has them now) in another directory, another
  # output root; only the disk cache is shared.
  rm -rf "$top/second"; mkdir -p "$top/second"
  (cd "$first" && tar --exclude='./tests/integration/monorepo/bazel-*' -cf - .) | tar -C "$top/second" -xf -
  ws=$top/second/tests/integration/monorepo root=$top/second-out-$v
  rm -rf "$root"
  nbazel build --nobuild "//$v/..." >/dev/null 2>&1  # its external repositories, outside the clock
  nbazel_timed build "${flags[@]}" "//$v/..." --execution_log_json_file="$top/second-$v.json"; t_second[$v]=$wall
  n_second[$v]=$(spawns "$top/second-$v.json")
  nbazel shutdown >/dev/null 2>&1
  ws=$first/tests/integration/monorepo
done

# rules_table: the rule classes with actions, from bazel dump --rules after each clean build: targets
# and actions, rules_gpu's and the baseline's side by side.
rules_table() {
  echo "| rule class (bazel dump --rules) | rules_gpu: targets | actions | baseline: targets | actions |"
  echo "|---|---|---|---|---|"
  awk 'FNR == 1 { v++ } $3 > 0 { n[$1, v] = $2; a[$1, v] = $3; k[$1] = 1; t[v] += $3 }
    END { for (r in k) printf "| %s | %s | %s | %s | %s |\n", r, n[r, 1] + 0, a[r, 1] + 0, n[r, 2] + 0, a[r, 2] + 0
          printf "| all | | %d | | %d |\n", t[1], t[2] }' "$top/rules-gpu.txt" "$top/rules-base.txt" | sort -t'|' -k4,4nr
}
row() { echo "| $1 | $2 | $3 | $(ratio "$2" "$3") | ${4:+rules_gpu: $4; baseline: $5} |"; }
mib() { sed 's/MB$//' <<<"$1"; }
cat <<EOF
Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); $(bazel --version); CUDA $(ptxas --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p'); $(mlir-opt-21 --version | grep -m1 -o 'LLVM version [0-9.]*'). Load average (1, 5, 15 min) before: $load0, after: $(cut -d' ' -f1-3 /proc/loadavg).
Repository: $size targets in $(((size + 9) / 10)) packages (tests/bench/genmonorepo -n $size), chips sm_75 sm_80 sm_86 sm_90; one run of each measurement.

| measurement | rules_gpu (s) | baseline (s) | ratio | work (execution log) |
|---|---|---|---|---|
$(row "analysis (fresh server, build --nobuild)" "${t_analysis[gpu]}" "${t_analysis[base]}" "")
$(row "clean build (rules_gpu: its helper too)" "${t_clean[gpu]}" "${t_clean[base]}" "")
$(row "every GPU action again (new constants: -seed 1)" "${t_seed[gpu]}" "${t_seed[base]}" "")
$(row "no-op build (median of 5)" "${t_noop[gpu]}" "${t_noop[base]}" "${r_noop[gpu]}" "${r_noop[base]}")
| one more no-op build: its phases (--profile) | | | | rules_gpu: ${p_noop[gpu]}; baseline: ${p_noop[base]} |
$(row "edit one source (p000/k4.cu)" "${t_edit[gpu]}" "${t_edit[base]}" "${n_edit[gpu]}" "${n_edit[base]}")
$(row "add sm_89 to one target (p000:k4)" "${t_chip[gpu]}" "${t_chip[base]}" "${n_chip[gpu]}" "${n_chip[base]}")
$(row "add sm_89 to every target (the repository's chips)" "${t_all[gpu]}" "${t_all[base]}" "${n_all[gpu]}" "${n_all[base]}")
$(row "second checkout, warm disk cache" "${t_second[gpu]}" "${t_second[base]}" "${n_second[gpu]}" "${n_second[base]}")

| Bazel's memory over the clean build | rules_gpu | baseline | ratio |
|---|---|---|---|
| bazel info used-heap-size-after-gc | ${heap[gpu]} | ${heap[base]} | $(ratio "$(mib "${heap[gpu]}")" "$(mib "${heap[base]}")") |
| the server's peak resident memory (VmHWM) | ${hwm[gpu]} | ${hwm[base]} | $(ratio "$(mib "${hwm[gpu]}")" "$(mib "${hwm[base]}")") |
| the machine's peak used memory (MemTotal - MemAvailable, each second): the server and its actions | ${used[gpu]} | ${used[base]} | $(ratio "$(mib "${used[gpu]}")" "$(mib "${used[base]}")") |
| the heap's limit, Bazel's default (bazel info max-heap-size) | ${maxheap[gpu]} | ${maxheap[base]} | |

$(rules_table)
EOF
