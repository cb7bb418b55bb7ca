#!/usr/bin/env bash
# fetch_modules.sh DEST — runs inside the rootfs (env.sh calls it): fetches rules_go and gazelle from
# the Go module proxy into DEST/modules and restores what Go module zips lose:
#   - exec bits (every file starting with "#!"), else "binary_wrapper.sh: Permission denied";
#   - gazelle's vendor/ tree (gazelle builds its fetch helpers with GO111MODULE=off);
#   - patches from offline/patches (each patch's header says why).
set -euo pipefail
dest=$1
src=$(cd "$(dirname "$0")" && pwd)
. "$src/versions.sh"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
go mod init scratch >/dev/null 2>&1
dir_of() { go mod download -json "$1" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p'; }

mods=$dest/modules.partial
rm -rf "$mods"; mkdir -p "$mods"
cp -r "$(dir_of github.com/bazelbuild/rules_go@"$RULES_GO_VERSION")" "$mods/rules_go"
cp -r "$(dir_of github.com/bazelbuild/bazel-gazelle@"$GAZELLE_VERSION")" "$mods/gazelle"
chmod -R u+w "$mods"
grep -rlI --null '^#!' "$mods" | xargs -0 -r chmod +x
(cd "$mods/gazelle" && go mod vendor -e >/dev/null)
for p in "$src"/offline/patches/gazelle-*.patch; do
  git -C "$mods/gazelle" apply --verbose "$p"
done
rm -rf "$dest/modules"; mv "$mods" "$dest/modules"
echo "fetch_modules: rules_go $RULES_GO_VERSION and gazelle $GAZELLE_VERSION in $dest/modules"
