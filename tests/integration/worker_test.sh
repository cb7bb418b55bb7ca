#!/usr/bin/env bash
# worker_test.sh — with --@rules_gpu//gpu:worker and --worker_sandboxing, every gpubuild action of an MLIR
# program runs in a persistent worker (the execution log's runner), each in a sandbox of its inputs,
# and writes exactly what the same actions write as sandboxed processes (every output's digest); an
# action that fails in a worker fails the build with the message it prints as a process.
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario worker

scenario_worker() {
  workspace mlir
  # The gpubuild actions are never cached (no-cache: neither read from nor written to the disk
  # cache, whatever earlier runs left there), so that both builds run all of them; the rest (the
  # helper's own build) comes from it. gpu is the regular expression of their mnemonics.
  local gpu='Gpu.*|MlirHost.*'
  local off=(--modify_execution_info="Gpu.*=+no-cache,MlirHost.*=+no-cache" --execution_log_json_file="$ws/exec.json")
  local on=(--@rules_gpu//gpu:worker --worker_sandboxing)
  out=$(nbazel build //:add_test "${off[@]}" 2>&1) || { bad worker/processes "the build fails: $(tail -20 <<<"$out")"; return; }
  execlog outputs "$ws/exec.json" "(?!$gpu).*" >"$ws/processes.txt"
  nbazel clean >/dev/null 2>&1
  out=$(nbazel build //:add_test "${off[@]}" "${on[@]}" 2>&1) || { bad worker/build "the build fails: $(tail -20 <<<"$out")"; return; }
  local runners
  runners=$(execlog runners "$ws/exec.json")
  # Lines "N RUNNER MNEMONIC": a gpubuild mnemonic with any runner but worker fails.
  if grep -q ' worker GpuCompile$' <<<"$runners" && ! grep -v ' worker ' <<<"$runners" | grep -Eq " ($gpu)\$"; then
    ok "worker/runner (every gpubuild action ran in a worker: $(grep -c ' worker ' <<<"$runners") mnemonics)"
  else
    bad worker/runner "spawns by runner and mnemonic: $(tr '\n' ';' <<<"$runners")"
  fi
  local outs
  outs=$(execlog outputs "$ws/exec.json" "(?!$gpu).*")
  if [ -s "$ws/processes.txt" ] && diff -q - "$ws/processes.txt" <<<"$outs" >/dev/null; then
    ok "worker/outputs (every output of a gpubuild action as the sandboxed processes wrote it: $(wc -l <"$ws/processes.txt") files)"
  else
    bad worker/outputs "outputs differ from the sandboxed processes': $(diff - "$ws/processes.txt" <<<"$outs" | head -6 | tr '\n' ';')"
  fi
  out=$(nbazel build //:bad_name "${on[@]}" 2>&1)
  if [ $? -eq 0 ]; then bad worker/failure "the build passed"; else
    expect worker/failure "$out" "//:bad_name: compiling bad_name.mlir for every chip: gpu.module @\"my kernels\": a program's module names become file names; rename it"
  fi
}

scenario_worker
scenario_end
