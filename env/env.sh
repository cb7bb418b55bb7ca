#!/usr/bin/env bash
# env.sh — the hermetic build environment of rules_gpu.
#
# A Debian sid root filesystem holding Bazel 7.7.1, Go, the CUDA 12.4 toolkit, LLVM/clang/MLIR 21 and
# stardoc, with rules_go and gazelle fetched from the Go module proxy and set up to work offline.
# It lives outside the work tree (default ~/.cache/rules_gpu/env, override with RULES_GPU_ENV) and is
# reused between runs.
#
#   env/env.sh setup        create or complete the environment (idempotent, safe to interrupt)
#   env/env.sh run CMD...   run CMD inside it, in this work tree (sets it up first if needed)
#   env/env.sh shell        an interactive shell inside it
#   env/env.sh status       what is installed and where
#   env/env.sh reset        delete the environment (the next run builds it again)
#
# Every run happens in fresh mount and PID namespaces (unshare): the bind mounts and every process
# started inside, the Bazel server included, disappear when the command returns, however it ends.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${RULES_GPU_ENV:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/rules_gpu/env}
root=$cache/rootfs
mirror=${RULES_GPU_MIRROR:-}

# shellcheck source=env/versions.sh
. "$here/versions.sh"

log() { printf 'env.sh: %s\n' "$*" >&2; }
die() { printf 'env.sh: error: %s\n' "$*" >&2; exit 1; }

need_root() {
  [ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot and mount namespaces need it); try: sudo $0 $*"
}

# The archive the host already uses, so the same proxy or mirror serves sid.
host_mirror() {
  if [ -n "$mirror" ]; then echo "$mirror"; return; fi
  local u
  u=$(sed -n 's/^URIs: *\(.*debian\/*\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
  [ -n "$u" ] || u=$(awk '$1=="deb" && $2 ~ /debian\/?$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  echo "${u:-http://deb.debian.org/debian}"
}

# A stage is done when its stamp holds the fingerprint of what it was made from.
stage_done() { [ -f "$cache/stamps/$1" ] && [ "$(cat "$cache/stamps/$1")" = "$2" ]; }
stage_mark() { mkdir -p "$cache/stamps"; echo "$2" >"$cache/stamps/$1.tmp"; mv "$cache/stamps/$1.tmp" "$cache/stamps/$1"; }

# enter WORKTREE CWD NENV ENV... CMD...: runs CMD as root inside the rootfs, in fresh mount and PID
# namespaces, with /proc, /sys, resolv.conf and a /dev of its own mounted and, when WORKTREE is not empty, the work
# tree mounted at its own path, CWD as the working directory and a tmpfs /tmp. The rootfs becomes the
# namespace's root by pivot_root, not chroot: the kernel refuses new user namespaces inside a chroot,
# and Bazel's linux-sandbox needs them. NENV counts the NAME=VALUE words that follow it.
enter() {
  unshare --mount --pid --fork --propagation private -- bash -c '
    set -e; r=$1; repo=$2; cwd=$3; nenv=$4; shift 4
    mount --bind "$r" "$r"  # pivot_root wants the new root to be a mount point
    mount -t proc proc "$r/proc"; mount --rbind /sys "$r/sys"
    # A /dev of its own: a tmpfs with the few nodes that programs use, each bind-mounted from the
    # host, and the GPU'"'"'s where there is one. Nothing run inside can replace a node of the host'"'"'s
    # /dev: writing over one writes through it, and a new file lands in this tmpfs.
    mount -t tmpfs -o mode=755,nosuid devtmp "$r/dev"
    for n in null zero full random urandom tty /dev/nvidia*; do
      n=${n#/dev/}
      [ -e "/dev/$n" ] || continue
      touch "$r/dev/$n"; mount --bind "/dev/$n" "$r/dev/$n"
    done
    mkdir -p "$r/dev/pts" "$r/dev/shm"
    mount -t devpts -o newinstance,ptmxmode=0666 devpts "$r/dev/pts" && ln -s pts/ptmx "$r/dev/ptmx"
    mount -t tmpfs -o mode=1777,nosuid,nodev shm "$r/dev/shm"
    ln -s /proc/self/fd "$r/dev/fd"
    ln -s /proc/self/fd/0 "$r/dev/stdin"; ln -s /proc/self/fd/1 "$r/dev/stdout"; ln -s /proc/self/fd/2 "$r/dev/stderr"
    [ -e /etc/resolv.conf ] && mount --bind /etc/resolv.conf "$r/etc/resolv.conf" || true
    if [ -n "$repo" ]; then
      mount -t tmpfs tmpfs "$r/tmp"
      mkdir -p "$r$repo"; mount --bind "$repo" "$r$repo"
    fi
    cd "$r"; pivot_root . mnt; umount -l /mnt; cd /
    exec /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      LANG=C.UTF-8 "${@:1:$nenv}" bash -c "cd \"\$0\" && exec \"\$@\"" "${cwd:-/}" "${@:$((nenv+1))}"' \
    _ "$root" "$@"
}

# Runs a command as root inside the rootfs without the work tree (used while setting up).
in_root() { enter "" "" 1 DEBIAN_FRONTEND=noninteractive "$@"; }

stage_debootstrap() {
  local fp="sid $(host_mirror)"
  stage_done debootstrap "$fp" && return 0
  command -v debootstrap >/dev/null || { log "installing debootstrap on the host"; apt-get update -qq; apt-get install -y -qq debootstrap >/dev/null; }
  local part=$cache/rootfs.partial
  rm -rf "$part" "$root"
  mkdir -p "$cache"
  log "debootstrap sid into $part (about a minute)"
  debootstrap --variant=minbase --components=main,contrib,non-free sid "$part" "$(host_mirror)" >"$cache/debootstrap.log" 2>&1 ||
    die "debootstrap failed; see $cache/debootstrap.log"
  mv "$part" "$root"
  stage_mark debootstrap "$fp"
}

stage_apt() {
  local fp="$RULES_GPU_APT_PACKAGES"
  stage_done apt "$fp" && return 0
  # The archive is a frozen snapshot: its Release files are past their Valid-Until date.
  printf 'Acquire::Check-Valid-Until "false";\nAcquire::Check-Date "false";\n' >"$root/etc/apt/apt.conf.d/99rules-gpu-snapshot"
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$root/etc/apt/apt.conf.d/99rules-gpu-norecommends"
  # The host's extra certificate authorities (a TLS-intercepting proxy, say), for the Go module proxy.
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
  log "installing packages in the rootfs (a few minutes): $RULES_GPU_APT_PACKAGES"
  # shellcheck disable=SC2086
  in_root bash -c "dpkg --configure -a && apt-get update -qq && apt-get install -y -q $RULES_GPU_APT_PACKAGES && apt-get clean && update-ca-certificates" \
    >"$cache/apt.log" 2>&1 || die "package installation failed; see $cache/apt.log"
  stage_mark apt "$fp"
}

# rules_go and gazelle from the Go module proxy, with what module zips lose put back.
stage_modules() {
  local fp
  fp="$RULES_GO_VERSION $GAZELLE_VERSION $(cd "$here" && cat offline/patches/* fetch_modules.sh | sha256sum | cut -c1-16)"
  stage_done modules "$fp" && return 0
  log "fetching rules_go $RULES_GO_VERSION and gazelle $GAZELLE_VERSION from the Go module proxy"
  rm -rf "$root/opt/rules_gpu/modules"
  mkdir -p "$root/opt/rules_gpu/src"
  cp -r "$here/offline" "$here/fetch_modules.sh" "$here/versions.sh" "$root/opt/rules_gpu/src/"
  in_root bash /opt/rules_gpu/src/fetch_modules.sh /opt/rules_gpu >"$cache/modules.log" 2>&1 ||
    die "fetching rules_go/gazelle failed; see $cache/modules.log"
  stage_mark modules "$fp"
}

# The target sysroot (versions.sh says why): Debian packages of another suite, unpacked, their
# absolute links made relative so that they resolve inside it, and the CUDA toolkit's headers (Debian
# keeps them in /usr/include) linked in, as clang's CUDA mode includes them from there.
stage_sysroot() {
  local fp="$RULES_GPU_SYSROOT_SUITE $RULES_GPU_SYSROOT_PACKAGES v2"
  stage_done sysroot "$fp" && return 0
  log "unpacking the $RULES_GPU_SYSROOT_SUITE sysroot: $RULES_GPU_SYSROOT_PACKAGES"
  local m
  m=$(host_mirror)
  in_root bash -c '
    set -e; suite=$1; mirror=$2; shift 2
    w=/opt/rules_gpu/sysroot.work; s=/opt/rules_gpu/sysroot
    rm -rf "$w" "$s.new"; mkdir -p "$w/lists/partial" "$w/cache/archives/partial" "$s.new"
    echo "deb $mirror $suite main" >"$w/sources.list"
    : >"$w/status"
    o=(-o Dir::Etc::SourceList="$w/sources.list" -o Dir::Etc::SourceParts=/dev/null -o Dir::State::status="$w/status" -o Dir::State::Lists="$w/lists" -o Dir::Cache="$w/cache" -o APT::Architecture=amd64)
    apt-get "${o[@]}" update -qq
    cd "$w" && apt-get "${o[@]}" download "$@"
    for d in "$w"/*.deb; do dpkg-deb -x "$d" "$s.new"; done
    find "$s.new" -type l -lname "/*" | while read -r l; do
      t=$(readlink "$l"); rel=$(realpath -m --relative-to="$(dirname "$l")" "$s.new$t"); ln -sfn "$rel" "$l"
    done
    dpkg -L nvidia-cuda-dev libcu++-dev libthrust-dev libcub-dev | grep "^/usr/include/[^/]*$" | while read -r h; do
      [ -e "$s.new$h" ] || ln -s "$h" "$s.new$h"
    done
    ln -sfn /usr/lib/x86_64-linux-gnu/libcuda.so "$s.new/usr/lib/x86_64-linux-gnu/libcuda.so"
    rm -rf "$w" "$s"; mv "$s.new" "$s"
  ' sysroot "$RULES_GPU_SYSROOT_SUITE" "$m" $RULES_GPU_SYSROOT_PACKAGES >"$cache/sysroot.log" 2>&1 ||
    die "unpacking the sysroot failed; see $cache/sysroot.log"
  stage_mark sysroot "$fp"
}

# Stubs and the system bazelrc: refreshed on every run, cheap, so edits to env/offline apply. Each is
# made aside and replaces the old one only when it differs: a run that starts while another one's
# Bazel reads them (two env.sh runs at once) must not take them away under it.
stage_bazelrc() {
  mkdir -p "$root/opt/rules_gpu"
  replace_dir "$root/opt/rules_gpu/stubs" cp -r "$here/offline/stubs"
  replace_file "$root/etc/bazel.bazelrc" cp "$here/offline/bazelrc"
  # Debian's /etc/bazel/bazelrc turns sandbox debugging on after importing ours, and with it
  # linux-sandbox prints its whole mount log for every failing or test action: the user rc comes last.
  replace_file "$root/root/.bazelrc" sh -c 'echo "build --nosandbox_debug" >"$0"'
  # A file registry for the modules that only some workspaces use (an --override_module for them would
  # fail every workspace whose graph lacks them): Debian's packaged copies, by local_path.
  replace_dir "$root/opt/rules_gpu/registry" make_registry
}

# make_registry DIR: the file registry's contents.
make_registry() {
  mkdir -p "$1/modules/stardoc/0.8.1"
  echo '{}' >"$1/bazel_registry.json"
  echo '{"versions": ["0.8.1"]}' >"$1/modules/stardoc/metadata.json"
  cp "$root/usr/share/bazel/tools/stardoc/MODULE.bazel" "$1/modules/stardoc/0.8.1/MODULE.bazel"
  echo '{"type": "local_path", "path": "/usr/share/bazel/tools/stardoc"}' >"$1/modules/stardoc/0.8.1/source.json"
}

# replace_dir DIR CMD...: CMD... DIR.new makes the directory; it becomes DIR when DIR differs.
replace_dir() {
  local dir=$1
  shift
  rm -rf "$dir.new"
  "$@" "$dir.new"
  if diff -r "$dir.new" "$dir" >/dev/null 2>&1; then rm -rf "$dir.new"; else rm -rf "$dir"; mv "$dir.new" "$dir"; fi
}

# replace_file FILE CMD...: CMD... FILE.new makes the file; it replaces FILE (atomically) when FILE
# differs.
replace_file() {
  local f=$1
  shift
  "$@" "$f.new"
  if cmp -s "$f.new" "$f"; then rm -f "$f.new"; else mv "$f.new" "$f"; fi
}

setup() {
  need_root setup
  mkdir -p "$cache"
  # One set-up at a time per environment; a second waits for the first.
  exec 9>"$cache/.lock"
  flock 9
  stage_debootstrap
  stage_apt
  stage_modules
  stage_sysroot
  stage_bazelrc
  exec 9>&-
}

run() {
  need_root run
  setup  # cheap when every stage is done: each checks its stamp
  local cwd=$PWD
  case "$cwd/" in "$repo"/*) ;; *) cwd=$repo ;; esac
  local pass=()
  for v in CI TERM GOPROXY GONOSUMDB GOPRIVATE GOFLAGS GOSUMDB RULES_GPU_TEST_FILTER; do
    [ -n "${!v:-}" ] && pass+=("$v=${!v}")
  done
  pass+=(USER=root GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0="*" RULES_GPU_IN_ENV=1)
  enter "$repo" "$cwd" "${#pass[@]}" "${pass[@]}" "$@"
}

case "${1:-}" in
  setup) setup ;;
  run) shift; [ $# -gt 0 ] || die "usage: env.sh run CMD [ARGS...]"; run "$@" ;;
  shell) run bash -i ;;
  status)
    echo "environment: $cache"
    for s in debootstrap apt modules; do
      if [ -f "$cache/stamps/$s" ]; then echo "  $s: done ($(cat "$cache/stamps/$s" | cut -c1-60))"; else echo "  $s: not done"; fi
    done
    [ -d "$root" ] && du -sh "$root" 2>/dev/null | sed 's/^/  size: /'
    ;;
  _stage) need_root; "stage_$2" ;;
  reset) need_root reset; log "removing $cache"; rm -rf "$cache" ;;
  *) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
