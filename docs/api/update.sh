#!/usr/bin/env bash
# update.sh — writes the generated API reference into docs/ (bazel run //docs/api:update).
set -euo pipefail
cd "$BUILD_WORKSPACE_DIRECTORY"
for page in rules toolchains; do
  install -m 644 "$OLDPWD/docs/api/$page.gen.md" "docs/$page.md"
  echo "wrote docs/$page.md"
done
