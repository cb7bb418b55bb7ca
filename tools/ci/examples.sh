#!/usr/bin/env bash
# examples.sh — builds every example and shows what was produced and where it runs. Runs inside the
# build environment:
#   tools/env/env.sh run tools/ci/examples.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -n "${RULES_GPU_IN_ENV:-}" ] || { echo "run me inside the environment: tools/env/env.sh run $0" >&2; exit 2; }

bazel build //examples/...
printf '\n%-48s %8s  %-8s %s\n' "artifact" "bytes" "kind" "runs on"
bazel cquery //examples/... --output=files 2>/dev/null | while read -r f; do
  case "$f" in
    *.cubin)
      sm=$(cuobjdump -elf "$f" | sed -n 's/^64bit elf:.* sm=\([0-9]*\),.*/\1/p' | head -n1)
      major=$((sm / 10)) minor=$((sm % 10))
      printf '%-48s %8s  %-8s %s\n' "$f" "$(stat -c %s "$f")" "sm_$sm" \
        "GPUs of compute capability $major.$minor to $major.9 (same major, equal or higher minor)"
      ;;
  esac
done
