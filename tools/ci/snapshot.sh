#!/usr/bin/env bash
# snapshot.sh DEST — copies this checkout's files (tracked, and new ones not ignored: what a clean
# checkout of the change has) to DEST, replacing it. The nested workspaces (scenarios, scale,
# benchmarks) depend on such a copy rather than on the work tree: Bazel's linux-sandbox gives actions a
# private /tmp, which hides a local_path_override repository under /tmp, where CI may check out.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:?usage: snapshot.sh DEST}
rm -rf "$dest"; mkdir -p "$dest"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - 2>/dev/null) | tar -C "$dest" -xf -
