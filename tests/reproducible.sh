#!/usr/bin/env bash
# reproducible.sh — two clean builds of //examples/..., from copies of this checkout at different paths
# and in different Bazel output roots, must give byte-identical GPU artifacts (every cubin, PTX, LLVM
# bitcode and fatbin, and the Go and C files that embed them). Prints both sha256 lists' common part
# and fails on any difference. Runs inside the build environment (tests/test.sh calls it).
set -euo pipefail
# shellcheck source=tests/userrepo.sh
. "$(dirname "$0")/userrepo.sh"
base=${REPRO_ROOT:-$HOME/.cache/rules_gpu_repro}
rm -rf "$base"; mkdir -p "$base"
sums=()
for co in one/rules_gpu two/elsewhere/checkout; do
  ws=$base/$co root=$base/output-${co%%/*}
  snapshot "$ws"
  nbazel build --disk_cache= //examples/... >"$base/${co%%/*}.log" 2>&1 ||
    { tail -30 "$base/${co%%/*}.log"; echo "reproducible.sh: the build in $ws failed" >&2; exit 1; }
  (cd "$ws" && find -L bazel-bin/examples -type f \( -name '*.cubin' -o -name '*.ptx' -o -name '*.bc' -o -name '*.fatbin' \
    -o -name '*.go' -o -name '*.h' -o -name '*.c' \) -not -path '*.runfiles/*' | LC_ALL=C sort | xargs sha256sum) >"$base/${co%%/*}.sha256"
  nbazel shutdown
  sums+=("$base/${co%%/*}.sha256")
done
n=$(wc -l <"${sums[0]}")
if ! diff -u "${sums[@]}"; then
  echo "reproducible.sh: the two builds differ (above: - $base/one, + $base/two)" >&2
  exit 1
fi
[ "$n" -gt 20 ] || { echo "reproducible.sh: only $n artifacts found; expected the examples' (more than 20)" >&2; exit 1; }
echo "reproducible: $n artifacts byte-identical between $base/one/rules_gpu and $base/two/elsewhere/checkout"
