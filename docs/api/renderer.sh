#!/usr/bin/env bash
# renderer.sh — stardoc's renderer (its prebuilt jar) run by the Java of the machine that builds.
# stardoc's own java_binary needs rules_java's remote JDK and java_tools, which this environment
# cannot download; the jar is all the renderer is.
set -euo pipefail
jars=("${BASH_SOURCE[0]}.runfiles"/*/stardoc/renderer_prebuilt.jar)
[ -f "${jars[0]}" ] || { echo "renderer.sh: stardoc's renderer_prebuilt.jar is not in the runfiles" >&2; exit 1; }
command -v java >/dev/null || { echo "renderer.sh: no java on PATH; install a JDK (Debian: default-jdk-headless)" >&2; exit 1; }
# Quiet unless it fails: newer JDKs warn about the protobuf runtime inside the jar on every run.
log=$(mktemp); trap 'rm -f "$log"' EXIT
java -jar "${jars[0]}" "$@" 2>"$log" || { cat "$log" >&2; exit 1; }
