# userrepo.sh — sourced, not run: the one set-up of a user's repository that depends on this checkout
# of rules_gpu and is built by a nested Bazel (the nested-Bazel tests: tests/integration/*_test.sh and
# tests/remote.sh; the benchmarks: tests/bench/scale.sh, bench.sh, ...).
#
#   snapshot DEST          copies this checkout's files to DEST, replacing it (in a Bazel test: the
#                          test's runfiles, which hold the files it declares)
#   nested_base            in a Bazel test (tests/nested_bazel_test.bzl): prints the directory that
#                          holds the nested Bazels' output root and copies, in the outer Bazel's output
#                          base, so that they outlast the test and go with its `bazel clean --expunge`
#   user_checkout ROOT [DIR]
#                          snapshot into DIR/rules_gpu (DIR defaults to ROOT); sets root=ROOT (the
#                          nested Bazel's output root) and repo=DIR/rules_gpu
#   user_repo DIR [LINE..] the user's repository DIR (one of the snapshot's: tests/integration/CASE,
#                          tests/bench/workspace), used in place; sets ws=DIR and writes its .bazelrc,
#                          with LINEs added, importing DIR/repo.bazelrc where there is one (the
#                          repository's own settings: genmonorepo writes its chips there)
#   nbazel ARGS...         bazel ARGS in $ws, under the output root $root
#   nbazel_timed ARGS...   nbazel ARGS, its wall time in seconds in $wall (with tests/bench/stats.sh
#                          sourced); on failure prints the output's end and exits; with $progress
#                          set, appends "$v WALL s: bazel ARGS" to that file
#   user_gpubuild DEST     builds @rules_gpu//tools/cmd/gpubuild as $ws gets it and copies it to DEST
#   executed LOG MNEMONIC  how many actions of MNEMONIC the build that wrote the execution log LOG ran
#   hermetic_archives DIR ARCHDIR LINES VERSION [BAD_SHA]
#                          writes DIR/cuda_archives.MODULE.bazel: the cuda.archive call of the hermetic
#                          repository (tests/integration/hermetic) over make_archives.sh's archives in
#                          ARCHDIR (LINES: what it printed), saying VERSION; BAD_SHA replaces the
#                          cuda_nvcc archive's sha256
#   execlog VERB LOG ...   tests/execlog.py: remote cache hits, outputs, absolute paths of a build
#
# The users' repositories are directories of this checkout (each with its MODULE.bazel, which takes
# rules_gpu from ../../.. by local_path_override) and are built inside a snapshot of it rather than in
# the work tree: Bazel's linux-sandbox gives actions a private /tmp, which hides a local_path_override
# repository under /tmp, where CI may check out; and the snapshot, at a fixed path, keeps each
# repository's Bazel output base the same between runs.

userrepo_tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# snapshot DEST: this checkout's files (tracked, and new ones not ignored: what a clean checkout of the
# change has; a file deleted but not yet staged is left out) copied to DEST.
# In a Bazel test, the files the test declares (its runfiles, links followed).
snapshot() {
  local dest=${1:?usage: snapshot DEST}
  rm -rf "$dest" && mkdir -p "$dest" || return 1
  if [ -n "${TEST_SRCDIR:-}" ]; then
    cp -RL "$TEST_SRCDIR/${TEST_WORKSPACE:-_main}/." "$dest"
    return
  fi
  (cd "$userrepo_tests/.." && git ls-files -z --cached --others --exclude-standard |
    xargs -0 tar --ignore-failed-read -cf - 2>/dev/null) | tar -C "$dest" -xf -
}

nested_base() {
  # A test that runs outside the sandbox (tagged local) has its TEST_TMPDIR in the execution root,
  # OUTPUT_BASE/execroot/WORKSPACE/_tmp/...; the sandbox would give it one of its own.
  local base=${TEST_TMPDIR%%/execroot/*}
  [ -n "${TEST_TMPDIR:-}" ] && [ "$base" != "$TEST_TMPDIR" ] ||
    { echo "userrepo.sh: not a local Bazel test (TEST_TMPDIR=${TEST_TMPDIR:-}); nested_bazel_test tags it local" >&2; return 1; }
  echo "$base/rules_gpu_nested"
}

user_checkout() {
  root=${1:?usage: user_checkout ROOT [DIR]} repo=${2:-$1}/rules_gpu
  snapshot "$repo" || { echo "userrepo.sh: cannot copy the checkout to $repo" >&2; return 1; }
}

user_repo() {
  ws=${1:?usage: user_repo DIR [BAZELRC LINE...]}
  shift
  [ -f "$ws/MODULE.bazel" ] || { echo "userrepo.sh: $ws has no MODULE.bazel" >&2; return 1; }
  # No WORKSPACE file, and no lockfile: the build environment has no registry to pin against.
  printf '%s\n' 'common --noenable_workspace' 'common --lockfile_mode=off' 'try-import %workspace%/repo.bazelrc' "$@" >"$ws/.bazelrc"
}

# In a Bazel test, the nested Bazel gets none of the test's own variables (TEST_TMPDIR would become
# its output root, RUNFILES_* would point its tools at the test's runfiles).
nbazel() {
  (cd "$ws" && unset TEST_TMPDIR TEST_SRCDIR TEST_WORKSPACE TEST_TARGET RUNFILES_DIR RUNFILES_MANIFEST_FILE JAVA_RUNFILES &&
    bazel --output_user_root="$root" "$@")
}

nbazel_timed() {
  local s out
  s=$(now)
  out=$(nbazel "$@" 2>&1) || { tail -30 <<<"$out"; echo "$(basename "$0"): bazel $* failed" >&2; exit 1; }
  wall=$(secs $(($(now) - s)))
  [ -z "${progress:-}" ] || echo "${v:-} $wall s: bazel $*" >>"$progress"
}

user_gpubuild() {
  local dest=${1:?usage: user_gpubuild DEST} out f
  out=$(nbazel build @rules_gpu//tools/cmd/gpubuild 2>&1) &&
    f=$(nbazel cquery @rules_gpu//tools/cmd/gpubuild --output=files 2>/dev/null) && cp "$ws/$f" "$dest" ||
    { tail -20 <<<"$out" >&2; echo "userrepo.sh: @rules_gpu//tools/cmd/gpubuild does not build in $ws" >&2; return 1; }
}

executed() { python3 "$userrepo_tests/execlog.py" count "$@"; }
execlog() { python3 "$userrepo_tests/execlog.py" "$@"; }

hermetic_archives() {
  local dir=${1:?usage: hermetic_archives DIR ARCHDIR LINES VERSION [BAD_SHA]} arch=$2 lines=$3 version=$4 badsha=${5:-} entries="" f sha
  while read -r f sha; do
    [ -n "$badsha" ] && [[ $f == cuda_nvcc* ]] && sha=$badsha
    entries+="        \"file://$arch/$f\": \"$sha\","$'\n'
  done <<<"$lines"
  cat >"$dir/cuda_archives.MODULE.bazel" <<EOF
cuda = use_extension("@rules_gpu//toolchain:extensions.bzl", "cuda")
cuda.archive(
    name = "cuda_toolkit",
    archives = {
$entries    },
    version = "$version",
)
use_repo(cuda, "cuda_toolkit")
EOF
}
