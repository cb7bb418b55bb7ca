#!/usr/bin/env bash
# test.sh — every test of rules_gpu. Runs inside the build environment:
#   tools/env/env.sh run tools/ci/test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -n "${RULES_GPU_IN_ENV:-}" ] || { echo "run me inside the environment: tools/env/env.sh run $0" >&2; exit 2; }

step() { printf '\n=== %s\n' "$*"; }

step "go vet and go test (the fast loop)"
go vet ./...
go test ./...

step "BUILD files and go_repositories.bzl are in sync with the sources and go.mod (gazelle)"
bazel run //:gazelle -- -mode=diff
saved=$(mktemp -d)
cp WORKSPACE rules/private/go_repositories.bzl "$saved/"
bazel run //:gazelle-update-repos
if ! diff -u "$saved/WORKSPACE" WORKSPACE || ! diff -u "$saved/go_repositories.bzl" rules/private/go_repositories.bzl; then
  cp "$saved/WORKSPACE" WORKSPACE; cp "$saved/go_repositories.bzl" rules/private/go_repositories.bzl
  echo "go.mod changed: run 'tools/env/env.sh run bazel run //:gazelle-update-repos' and commit the result" >&2
  exit 1
fi

step "bazel test //... (bzlmod)"
bazel test //...

step "bazel test //... (WORKSPACE mode)"
bazel test --config=workspace //...

step "all tests passed"
