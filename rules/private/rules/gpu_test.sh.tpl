#!/bin/sh
# gpu_test %{label}: runs the program, then checks its output (check = "%{check}") against the CHECK
# lines of its source, as MLIR's integration tests do (`mlir-runner ... | FileCheck %s`, with
# pipefail); with check = "exit_status", its exit status alone.
out="${TEST_TMPDIR:-${TMPDIR:-/tmp}}/program.out"
if [ "%{check}" = exit_status ]; then
  "./%{program}" %{args} "$@"
  status=$?
  [ "$status" -eq 0 ] || echo "%{label}: %{program} exited with status $status" >&2
  exit "$status"
fi
"./%{program}" %{args} "$@" %{redirect}
status=$?
if [ "$status" -ne 0 ]; then
  cat "$out"
  echo "%{label}: %{program} exited with status $status (its output is above); the CHECK lines were not tried" >&2
  exit 1
fi
cat "$out" # into the test's log, for the record
exec "./%{filecheck}" %{prefixes} --input-file "$out" "%{checks}"
