#!/usr/bin/env bash
# release.sh — a release of rules_gpu: the source archive of the tracked files at HEAD and its entry in
# a Bazel registry, as `bazel_dep(name = "rules_gpu", version = VERSION)` finds them.
#
#   tools/release/release.sh VERSION OUTDIR [URL]
#
# VERSION must be MODULE.bazel's module version (the one place it is written: the programs'
# --version reads it through tools/internal/version, whose test keeps the two equal), and the work
# tree's tracked files must be HEAD's. OUTDIR receives:
#
#   rules_gpu-VERSION.tar.gz                     git archive of HEAD, every path under rules_gpu-VERSION/,
#                                                without what .gitattributes marks export-ignore
#                                                (tests, examples, the build environment, CI)
#   modules/rules_gpu/VERSION/MODULE.bazel       the archive's MODULE.bazel
#   modules/rules_gpu/VERSION/source.json        URL (default: the GitHub release asset), its
#                                                integrity (sha256-BASE64, SRI) and strip_prefix
#   modules/rules_gpu/metadata.json              the module's versions (an existing one is added to)
#
# OUTDIR is then a registry: `--registry=file://OUTDIR` (with URL file://OUTDIR/rules_gpu-VERSION.tar.gz)
# serves it as the Bazel Central Registry would (tests/integration/registry_test.sh does). The same
# bytes come out for the same commit (git archive's times are the commit's, gzip -n).
# Publishing to the BCR: push the tag vVERSION, attach the archive to its GitHub release, and
# publish-to-bcr fills .bcr/'s templates with it.
set -euo pipefail

usage="usage: $0 VERSION OUTDIR [URL]"
version=${1:?$usage} out=${2:?$usage}
url=${3:-https://github.com/rulesgpu/rules_gpu/releases/download/v$version/rules_gpu-$version.tar.gz}
cd "$(dirname "$0")/../.."
[ -d .git ] || [ -f .git ] || { echo "release.sh: $(pwd) is not a git checkout: the archive is git archive of HEAD" >&2; exit 2; }

declared=$(git show HEAD:MODULE.bazel | python3 -c '
import re, sys
m = re.search(r"module\(\s*name = \"rules_gpu\",\s*version = \"([^\"]+)\"", sys.stdin.read())
print(m.group(1) if m else "")')
if [ "$version" != "$declared" ]; then
  echo "release.sh: VERSION $version is not MODULE.bazel's module version (${declared:-none}): change MODULE.bazel's module(version = ...) and tools/internal/version's Version, commit, and run again" >&2
  exit 1
fi
if ! git diff --quiet HEAD --; then
  echo "release.sh: the work tree's tracked files differ from HEAD (git status); the archive is HEAD's: commit or stash first" >&2
  exit 1
fi

prefix=rules_gpu-$version
archive=$out/$prefix.tar.gz
mkdir -p "$out/modules/rules_gpu/$version"
git archive --format=tar --prefix="$prefix/" HEAD | gzip -n -9 >"$archive.tmp"
mv "$archive.tmp" "$archive"
integrity=sha256-$(python3 -c 'import base64, hashlib, sys; print(base64.b64encode(hashlib.sha256(open(sys.argv[1], "rb").read()).digest()).decode())' "$archive")

git show HEAD:MODULE.bazel >"$out/modules/rules_gpu/$version/MODULE.bazel"
python3 - "$out/modules/rules_gpu" "$version" "$url" "$integrity" "$prefix" <<'PY'
import json, os, sys
base, version, url, integrity, prefix = sys.argv[1:]
def write(path, value):
    with open(path + ".tmp", "w") as f:
        json.dump(value, f, indent=4)
        f.write("\n")
    os.replace(path + ".tmp", path)
write(os.path.join(base, version, "source.json"), {"integrity": integrity, "strip_prefix": prefix, "url": url})
meta_path = os.path.join(base, "metadata.json")
meta = {}
if os.path.exists(meta_path):
    with open(meta_path) as f:
        meta = json.load(f)
meta.setdefault("homepage", "https://github.com/rulesgpu/rules_gpu")
meta.setdefault("maintainers", [])
meta.setdefault("repository", ["github:rulesgpu/rules_gpu"])
meta.setdefault("yanked_versions", {})
meta["versions"] = sorted(set(meta.get("versions", [])) | {version}, key=lambda v: [int(p) if p.isdigit() else p for p in v.replace("-", ".").split(".")])
write(meta_path, meta)
PY
echo "$archive $integrity"
echo "registry entry: $out/modules/rules_gpu/$version (source.json: $url)"
