# userrepo.sh — sourced, not run: the one set-up of a user's repository that depends on this checkout
# of rules_gpu and is built by a nested Bazel (tests/scenarios.sh, tests/bench/scale.sh,
# tests/bench/bench.sh; tests/remote.sh uses its snapshot).
#
#   snapshot DEST          copies this checkout's files to DEST, replacing it
#   user_checkout ROOT     snapshot into ROOT/rules_gpu; sets root=ROOT (the nested Bazel's output
#                          root) and repo=ROOT/rules_gpu
#   user_repo DIR [LINE..] the user's repository DIR (one of the snapshot's: tests/integration/CASE,
#                          tests/bench/workspace), used in place; sets ws=DIR and writes its .bazelrc,
#                          with LINEs added
#   nbazel ARGS...         bazel ARGS in $ws, under the output root $root
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
snapshot() {
  local dest=${1:?usage: snapshot DEST}
  rm -rf "$dest" && mkdir -p "$dest" || return 1
  (cd "$userrepo_tests/.." && git ls-files -z --cached --others --exclude-standard |
    xargs -0 tar --ignore-failed-read -cf - 2>/dev/null) | tar -C "$dest" -xf -
}

user_checkout() {
  root=${1:?usage: user_checkout ROOT} repo=$1/rules_gpu
  snapshot "$repo" || { echo "userrepo.sh: cannot copy the checkout to $repo" >&2; return 1; }
}

user_repo() {
  ws=${1:?usage: user_repo DIR [BAZELRC LINE...]}
  shift
  [ -f "$ws/MODULE.bazel" ] || { echo "userrepo.sh: $ws has no MODULE.bazel" >&2; return 1; }
  # No WORKSPACE file, and no lockfile: the build environment has no registry to pin against.
  printf '%s\n' 'common --noenable_workspace' 'common --lockfile_mode=off' "$@" >"$ws/.bazelrc"
}

nbazel() { (cd "$ws" && bazel --output_user_root="$root" "$@"); }

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
