#!/usr/bin/env bash
# registry_test.sh — rules_gpu as a team gets it: tools/release/release.sh makes the release archive and
# its registry entry from a commit of the checkout, a local directory serves them as a registry
# (--registry=file://DIR, the archive by a file:// URL), and a user's repository whose MODULE.bazel
# says only bazel_dep(name = "rules_gpu", version = "0.1.0") builds a one-chip gpu_module from it;
# the archive is the same bytes when made again, and leaves out what .gitattributes marks; a wrong
# integrity in source.json fails the fetch with Bazel's checksum error.
# A nested_bazel_test (tests/integration/BUILD.bazel); tests/integration/scenario.sh has the set-up.
set -uo pipefail
# shellcheck source=tests/integration/scenario.sh
. "$(dirname "$0")/scenario.sh"
scenario registry

# registry_workspace REGISTRY: the user's repository, built against the registry directory REGISTRY.
registry_workspace() {
  scenario_shutdown
  user_repo "$repo/tests/integration/registry" "build --disk_cache=$root/disk_cache" "build --remote_download_outputs=all" \
    "common --registry=file://$1"
  nbazel clean >/dev/null 2>&1
}

scenario_registry() {
  local version reg=$scratch/registry bad=$scratch/registry_bad out archive integrity f
  version=$(sed -n 's/^const Version = "\(.*\)"$/\1/p' "$repo/tools/internal/version/version.go")
  # The copy of the checkout is a commit of its own: release.sh archives HEAD.
  (cd "$repo" && git init -q && git add -A && git -c user.name=test -c user.email=test@test commit -qm checkout) ||
    { bad registry/release "cannot commit the copy of the checkout"; return; }
  rm -rf "$reg" "$bad"
  archive=$reg/rules_gpu-$version.tar.gz
  out=$("$repo/tools/release/release.sh" "$version" "$reg" "file://$archive" 2>&1) || { bad registry/release "release.sh fails: $out"; return; }
  integrity=sha256-$(python3 -c 'import base64, hashlib, sys; print(base64.b64encode(hashlib.sha256(open(sys.argv[1], "rb").read()).digest()).decode())' "$archive")
  if [ -f "$reg/modules/rules_gpu/$version/MODULE.bazel" ] && grep -q "\"integrity\": \"$integrity\"" "$reg/modules/rules_gpu/$version/source.json" &&
    grep -q "\"strip_prefix\": \"rules_gpu-$version\"" "$reg/modules/rules_gpu/$version/source.json" &&
    grep -q "\"$version\"" "$reg/modules/rules_gpu/metadata.json"; then
    ok "registry/release (the archive, MODULE.bazel, source.json with its integrity $integrity, metadata.json)"
  else
    bad registry/release "the registry entry is not the archive's: $(cat "$reg/modules/rules_gpu/$version/source.json" 2>&1)"
  fi
  # The listing in a variable: grep -q would end a tar that still writes (pipefail).
  local files
  files=$(tar -tzf "$archive")
  f=$(cut -d/ -f2 <<<"$files" | sort -u | tr '\n' ' ')
  if grep -qx "rules_gpu-$version/MODULE.bazel" <<<"$files" && grep -qx "rules_gpu-$version/tools/cmd/gpubuilder/main.go" <<<"$files" &&
    ! grep -q "^rules_gpu-$version/\(tests\|examples\|env\)/" <<<"$files"; then
    ok "registry/archive (every path under rules_gpu-$version/; tests, examples and env left out: $f)"
  else
    bad registry/archive "the archive's top directories: $f"
  fi
  cp "$archive" "$scratch/first.tar.gz"
  "$repo/tools/release/release.sh" "$version" "$reg" "file://$archive" >/dev/null 2>&1
  if cmp -s "$archive" "$scratch/first.tar.gz"; then ok "registry/reproducible (made again, the same bytes)"; else
    bad registry/reproducible "the archive made twice differs"
  fi
  out=$("$repo/tools/release/release.sh" 9.9.9 "$scratch/other" 2>&1)
  if [ $? -eq 0 ]; then bad registry/version "release.sh made 9.9.9, which is not MODULE.bazel's version"; else
    expect registry/version "$out" "VERSION 9.9.9 is not MODULE.bazel's module version ($version)"
  fi

  registry_workspace "$reg"
  if grep -q "_override(" "$ws/MODULE.bazel" || ! grep -q "^bazel_dep(name = \"rules_gpu\", version = \"$version\")$" "$ws/MODULE.bazel"; then
    bad registry/module "the user's MODULE.bazel overrides a module or does not depend on rules_gpu $version"
  else
    ok "registry/module (the user's MODULE.bazel: bazel_dep(name = \"rules_gpu\", version = \"$version\"), no override)"
  fi
  local start=$SECONDS
  out=$(nbazel build //:k 2>&1)
  if [ $? -ne 0 ]; then bad registry/build "bazel build //:k fails: $(tail -20 <<<"$out")"; else
    echo "bazel build //:k: $((SECONDS - start)) s (the helper and Go's standard library from the shared disk cache, or built when it lacks them)"
    f=$(nbazel cquery //:k --output=files 2>/dev/null)
    local ext
    ext=$(nbazel info output_base 2>/dev/null)/external
    if [ -n "$f" ] && [ -s "$ws/$f" ] && [ -f "$ext/rules_gpu~/MODULE.bazel" ] && [ ! -e "$ext/rules_gpu~/tests" ]; then
      ok "registry/build (//:k built from the released archive: $f)"
    else
      bad registry/build "no artifact ($f), or @rules_gpu is not the archive's ($(ls "$ext/rules_gpu~" 2>&1 | tr '\n' ' '))"
    fi
  fi

  # A registry whose source.json pins another archive: the fetch fails on the checksum.
  mkdir -p "$bad" && cp -R "$reg/." "$bad/" &&
    sed -i "s#\"integrity\": \"[^\"]*\"#\"integrity\": \"sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\"#" "$bad/modules/rules_gpu/$version/source.json"
  registry_workspace "$bad"
  out=$(nbazel build //:k 2>&1)
  if [ $? -eq 0 ]; then bad registry/integrity "the build passed with a wrong integrity"; else
    expect registry/integrity "$out" "rules_gpu-$version.tar.gz" "Checksum was" "but wanted"
    grep -m1 "Checksum was" <<<"$out"
  fi
}

scenario_registry
scenario_end
