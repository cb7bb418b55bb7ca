#!/usr/bin/env bash
# remote.sh [examples|users] — rules_gpu's artifacts are reproducible, shared through a real remote
# cache, and built by a real remote executor. The servers run on 127.0.0.1 for the length of the run
# (tests/servers.sh) and are stopped at its end. Copies of this checkout, at different paths and each
# with its own Bazel output root (no disk cache, no action cache in common), build the repositories
# of a part:
#   examples   rules_gpu's own //examples/... (the local CUDA toolkit), less cublas_test: a 180 MB
#              program of static cuBLAS whose link is the C++ toolchain's (no rules_gpu action), and
#              whose transfers would be most of each copy's time;
#   users      a generated user's repository (tests/integration/generated, with genkernels' MLIR and
#              CUDA C++ kernels; the local toolkit) and the hermetic one (tests/integration/hermetic:
#              pinned toolkit archives).
# Each part is a Bazel test of its own (//tests:remote_examples_test, //tests:remote_users_test), so
# that the two run side by side; without an argument, both run, one after the other.
# one    builds the part's repositories with --remote_cache=bazel-remote and fills the cache;
# clean  (examples) builds again elsewhere with every GPU action run here (no-remote-cache; the Go
#        toolchain's and the C++ toolchain's actions, which build the helper, from the cache): every
#        GPU artifact (cubin, PTX, bitcode, fatbin, and the Go and C sources that embed them) must
#        have one's bytes (reproducible);
# cli    (examples) changes code that only the user's CLI (gpubuild) and the test runtime (filecheck)
#        run: one, built again, re-runs no GPU action, and a copy with the change, from clean, takes
#        every GPU action from the cache; a change to the action helper (gpubuilder) re-runs them;
# two    must take every action from the cache (its execution log: every spawn a remote cache hit)
#        and get one's outputs, byte for byte (every output's digest in both logs, and every file,
#        downloaded with --remote_download_all, hashed against them);
# three  (examples) again from the cache with --remote_download_minimal;
# four   (users) builds with --remote_executor (buildbox-casd, fresh): every action runs remotely, in
#        a directory staged from its declared inputs only, with one's outputs (the helper's too).
# The hermetic repository's rules_gpu actions must name no absolute path of the machine in their
# command lines, environments or inputs (tests/execlog.py abspaths): a key any machine computes
# alike. A Bazel test (tests/nested_bazel_test.bzl: the checkout's files it copies are its runfiles;
# its directories are in the outer Bazel's output base); or by hand inside the build environment:
# env/env.sh run tests/remote.sh [PART] (the checkout's files, ~/.cache/rules_gpu_remote).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
part=${1:-}
case $part in
  examples | users) ;;
  "") "$0" examples; e=$?; "$0" users && exit $e; exit 1 ;;
  *) echo "usage: $0 [examples|users]" >&2; exit 2 ;;
esac
# shellcheck source=tests/userrepo.sh
. "$here/userrepo.sh"
# shellcheck source=tests/servers.sh
. "$here/servers.sh"
if [ -n "${TEST_SRCDIR:-}" ]; then
  base=$(nested_base)/remote-$part || exit 1
else
  base=${REMOTE_ROOT:-$HOME/.cache/rules_gpu_remote}/$part
fi
rm -rf "$base" && mkdir -p "$base" || exit 1
passed=0 failed=0 times=()
ok() { echo "PASS $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
# The go_repository rules of each fresh output base build gazelle's repository tools (about half a
# minute of `go build`): with the machine's Go build cache, they are built once for all the copies.
# Only how the repositories are made changes; no action's inputs do.
export GO_REPOSITORY_USE_HOST_CACHE=1

cache_server_start "$base/cache" || exit 1
if [ "$part" = users ]; then
  lines=$("$here/integration/hermetic/make_archives.sh" "$base/archives") || { echo "remote.sh: make_archives.sh failed" >&2; exit 1; }
  version=$(ptxas --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
fi

# The repositories of a copy: NAME DIRECTORY (in the copy) TARGETS.
declare -A dirs=([examples]=. [generated]=tests/integration/generated [hermetic]=tests/integration/hermetic)
examples_targets="-- //examples/... -//examples/cuda:cublas_test"
declare -A targets=([examples]=$examples_targets [generated]=//... [hermetic]=//...)
declare -A parts=([examples]=examples [users]="generated hermetic")
names=${parts[$part]}

# The checkout as every copy has it: this one's files, the generated kernels, the hermetic
# repository's archive pins. Taken once, so that an edit while this runs cannot tell the copies apart.
src=$base/src
snapshot "$src" || { echo "remote.sh: cannot copy the checkout to $src" >&2; exit 1; }
if [ "$part" = users ]; then
  # genkernels (the standard library only) with the machine's Go: no Go build of the outer Bazel's
  # to wait for before this test can start.
  (cd "$src" && go run ./tests/bench/genkernels -n 3 -terms 40 -lang both -chips sm_80,sm_90 -out "$src/tests/integration/generated") >/dev/null ||
    { echo "remote.sh: genkernels failed" >&2; exit 1; }
  hermetic_archives "$src/tests/integration/hermetic" "$base/archives" "$lines" "$version"
fi

# build COPY PATH "NAME..." FLAG...: copies $src to PATH, then builds the repositories NAME... there
# under the output root $base/output-COPY with FLAGs; each build writes $base/COPY.NAME.json. With
# prepare=FUNCTION set, FUNCTION PATH edits the copy first.
build() {
  local copy=$1 co=$2 names=$3 name out
  shift 3
  mkdir -p "$co" && cp -a "$src/." "$co" || { bad "$copy" "cannot copy the checkout to $co"; return 1; }
  [ -z "${prepare:-}" ] || "$prepare" "$co" || { bad "$copy" "$prepare $co failed"; return 1; }
  root=$base/output-$copy
  for name in $names; do
    ws=$co/${dirs[$name]}
    [ "$name" = examples ] || user_repo "$ws"
    # The Bazel server is started first, so that the time is the build's alone.
    nbazel info release >/dev/null 2>&1
    start=$(date +%s%N)
    out=$(nbazel build --disk_cache= "$@" --execution_log_json_file="$base/$copy.$name.json" ${targets[$name]} 2>&1) ||
      { bad "$copy/$name" "the build fails: $(tail -20 <<<"$out")"; continue; }
    times+=("$(printf '| %s | %s | %s | %s |' "$copy" "$name" \
      "$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.1f s", ns / 1e9 }')" "$(grep -o '[0-9]* processes: .*' <<<"$out" | tail -1)")")
    nbazel shutdown
  done
}

# same COPY NAME [SKIP]: COPY's outputs of NAME are the first copy's (paths and digests, from the
# logs), but those of the spawns whose mnemonic SKIP matches.
same() {
  local skip=${3:-(?!)}
  execlog outputs "$base/$1.$2.json" "$skip" >"$base/$1.$2.outputs"
  execlog outputs "$base/one.$2.json" "$skip" >"$base/one.$2.outputs.$1"
  cmp -s "$base/one.$2.outputs.$1" "$base/$1.$2.outputs" && return 0
  echo "outputs differ from the first copy's: $(diff "$base/one.$2.outputs.$1" "$base/$1.$2.outputs" | head -20)"
  return 1
}

# One: every action runs here and its result goes to the cache.
build one "$base/one/rules_gpu" "$names" --remote_cache="$cache_grpc"
for name in $names; do
  log=$base/one.$name.json
  [ -s "$log" ] || continue
  execlog outputs "$log" >"$base/one.$name.outputs"
  n=$(grep -c . "$base/one.$name.outputs")
  [ "$n" -gt 10 ] && ok "one/$name (built: $(executed "$log" GpuCompile) GpuCompile, $n outputs)" || bad "one/$name" "only $n outputs"
done

# rules_gpu's actions in the hermetic repository: no path of this machine in any key. (The Go SDK's
# and the C++ toolchain's actions, which build the helper, are the machine's own toolchains here:
# counted, not judged.)
rules_gpu_mnemonics='Gpu.*|CudaHostCompile|CudaRegister|MlirHostCompile'
if [ "$part" = users ]; then
  if out=$(execlog abspaths "$base/one.hermetic.json" "$rules_gpu_mnemonics"); then
    n=$(execlog abspaths "$base/one.hermetic.json" | grep -c '^[A-Za-z]')
    ok "hermetic/keys (no rules_gpu action names an absolute path; $n actions of the machine's Go and C++ toolchains do)"
  else
    bad hermetic/keys "rules_gpu's actions name paths of this machine:"$'\n'"$out"
  fi
fi

if [ "$part" = examples ]; then
  # The same check on the examples, built with the local toolkit, must find its root: clang's
  # --cuda-path (docs/remote.md: what a fleet sharing a cache must have in common).
  if out=$(execlog abspaths "$base/one.examples.json" "$rules_gpu_mnemonics"); then
    bad local/keys "no action of the examples names the local toolkit's path; the check finds nothing"
  else
    paths=$(grep -o 'argument /[^ ]*' <<<"$out" | sort | uniq -c | sort -rn | head -3 | awk '{print $3 " (" $1 " actions)"}' | paste -sd, -)
    ok "local/keys (the examples' actions name the local toolkit's and sysroot's paths: $paths)"
  fi

  # Clean, elsewhere: every GPU action runs again, and gives the same artifacts, byte for byte. The
  # helper and the Go and C++ toolchains' outputs come from the cache (four builds the helper again).
  build clean "$base/clean/elsewhere/checkout" "examples" --remote_cache="$cache_grpc" \
    --modify_execution_info="($rules_gpu_mnemonics)=+no-remote-cache"
  # artifacts LOG: the GPU artifacts of a build, from its log: the outputs of rules_gpu's own spawns
  # (rules_go's, such as a go_test's testmain.go, are the Go toolchain's, and in the clean copy they
  # come from the cache).
  artifacts() {
    execlog outputs "$1" "(?!(?:$rules_gpu_mnemonics)\$).*" |
      grep -E '^bazel-out/[^/]*/bin/examples/.*\.(cubin|ptx|bc|fatbin|go|h|c) ' | grep -v '\.runfiles/'
  }
  artifacts "$base/one.examples.json" >"$base/one.artifacts"
  if [ -s "$base/clean.examples.json" ]; then
    # Each of rules_gpu's spawns ran here: an artifact that came from the cache would be missing,
    # and the comparison fails.
    artifacts "$base/clean.examples.json" >"$base/clean.artifacts"
    n=$(grep -c . "$base/one.artifacts")
    ran=$(execlog runners "$base/clean.examples.json")
    if grep -E " remote cache hit ($rules_gpu_mnemonics)\$" <<<"$ran"; then
      bad clean/reproducible "GPU actions came from the cache; they must run again:"$'\n'"$ran"
    elif ! diff -u "$base/one.artifacts" "$base/clean.artifacts" >"$base/clean.diff"; then
      bad clean/reproducible "the GPU artifacts of two builds at different paths differ (- one, + clean): $(head -20 "$base/clean.diff")"
    elif [ "$n" -lt 100 ]; then
      bad clean/reproducible "only $n GPU artifacts compared; the examples have more than 100"
    else
      ok "clean/reproducible ($n GPU artifacts byte-identical between two builds at different paths and output roots, every GPU action run in each: $(grep -E " ($rules_gpu_mnemonics)\$" <<<"$ran" | awk '{n += $1} END {print n}') spawns)"
    fi
  fi

  # The GPU actions run the action helper (gpubuilder), which holds only the verbs actions run: a change
  # to code that only the user's CLI (gpubuild: migrate, chips, ...) or the test runtime (filecheck)
  # runs leaves every GPU action's key as it was.
  # cli_change DIR: such a change, in the checkout DIR: a message of migrate's, of filecheck's, and
  # the CLI's own usage.
  cli_change() {
    perl -pi -e 's/written on the %s migrated/written on the %s migrated (changed)/' "$1/tools/internal/migrate/migrate.go" &&
      perl -pi -e 's/"scanning from here"/"scanning from here (changed)"/' "$1/tools/internal/filecheck/filecheck.go" &&
      perl -pi -e 's/(Name: "migrate", Summary: ")/$1(changed) /' "$1/tools/cmd/gpubuild/main.go" &&
      [ "$(grep -c '(changed)' "$1/tools/internal/migrate/migrate.go" "$1/tools/internal/filecheck/filecheck.go" "$1/tools/cmd/gpubuild/main.go" | grep -c ':1$')" = 3 ]
  }
  if cli_change "$base/one/rules_gpu"; then
    ws=$base/one/rules_gpu root=$base/output-one
    if ! out=$(nbazel build --disk_cache= --execution_log_json_file="$base/cli.one.json" $examples_targets 2>&1); then
      bad cli/incremental "the examples do not build after the change: $(tail -20 <<<"$out")"
    elif ran=$(execlog runners "$base/cli.one.json") && grep -Eq " ($rules_gpu_mnemonics)\$" <<<"$ran"; then
      bad cli/incremental "a change to the CLI's and filecheck's code re-ran GPU actions:"$'\n'"$(grep -E " ($rules_gpu_mnemonics)\$" <<<"$ran")"
    elif ! grep -q ' GoCompilePkg$' <<<"$ran"; then
      bad cli/incremental "the change compiled no Go package: it was not built, and the check finds nothing:"$'\n'"$ran"
    else
      ok "cli/incremental (a change to migrate, filecheck and the CLI re-ran $(grep -c . <<<"$ran") kinds of Go action and no GPU action: $(awk '{print $1 " " $NF}' <<<"$ran" | paste -sd, -))"
    fi
    # The control: a change to the action helper's code re-runs the GPU actions of what is built.
    perl -pi -e 's/(join cubins and PTX into one fatbin)/$1 (changed)/' "$base/one/rules_gpu/tools/internal/builder/builder.go"
    if out=$(nbazel build --disk_cache= --execution_log_json_file="$base/cli.helper.json" //examples/saxpy:saxpy_sm90 2>&1) &&
      [ "$(executed "$base/cli.helper.json" GpuCompile)" -ge 1 ]; then
      ok "cli/helper (a change to gpubuilder re-runs the GPU actions: $(executed "$base/cli.helper.json" GpuCompile) GpuCompile of //examples/saxpy:saxpy_sm90)"
    else
      bad cli/helper "a change to gpubuilder's code re-ran no GpuCompile: $(tail -5 <<<"$out")"
    fi
    nbazel shutdown
  else
    bad cli "cannot make the change in $base/one/rules_gpu"
  fi
  # From clean elsewhere, with the change: every GPU action a remote cache hit, the same artifacts.
  prepare=cli_change build cli "$base/cli/elsewhere/checkout" "examples" --remote_cache="$cache_grpc"
  if [ -s "$base/cli.examples.json" ]; then
    if ! table=$(execlog remote "$base/cli.examples.json" "$rules_gpu_mnemonics"); then
      bad cli/cache "GPU actions missed the cache after a change to the CLI's code:"$'\n'"$table"
    elif artifacts "$base/cli.examples.json" | diff -q - "$base/one.artifacts" >/dev/null; then
      sed 's/^/  /' <<<"$table"
      ok "cli/cache (after the change, from clean: every GPU action a remote cache hit, $(grep -c . "$base/one.artifacts") GPU artifacts the first copy's)"
    else
      bad cli/cache "the artifacts differ from the first copy's"
    fi
  fi
fi

# fromcache COPY PATH "NAME...": every spawn of COPY's builds of NAME... was a remote cache hit, with
# the first copy's outputs; with files on disk (not --remote_download_minimal), those are checked too.
fromcache() {
  local copy=$1 co=$2 names=$3 name log out disk table
  for name in $names; do
    log=$base/$copy.$name.json
    [ -s "$log" ] || { bad "$copy/$name" "no execution log"; continue; }
    if ! table=$(execlog remote "$log"); then
      bad "$copy/$name" "actions ran here instead of coming from the cache:"$'\n'"$table"
    elif ! out=$(same "$copy" "$name"); then
      bad "$copy/$name" "$out"
    elif [ "$copy" = two ] && ! disk=$(execlog ondisk "$base/one.$name.json" "$co/${dirs[$name]}"); then
      bad "$copy/$name" "the files downloaded are not the first copy's outputs: $disk"
    else
      sed 's/^/  /' <<<"$table"
      ok "$copy/$name (every action a remote cache hit, $(grep -c . "$base/$copy.$name.outputs") outputs identical to the first copy's${disk:+; $disk})"
    fi
    disk=""
  done
}

# Two, elsewhere: everything from the cache, every output downloaded (Bazel 7's default is
# --remote_download_toplevel: the targets' own files only).
build two "$base/two/elsewhere/checkout" "$names" --remote_cache="$cache_grpc" --remote_download_all
fromcache two "$base/two/elsewhere/checkout" "$names"

# Three: --remote_download_minimal (outputs stay in the cache unless something here needs them), on
# the examples, which hold every kind of target (two has shown the users' repositories' hits).
if [ "$part" = examples ]; then
  build three "$base/three/x/rules_gpu" "examples" --remote_cache="$cache_grpc" --remote_download_minimal
  fromcache three "$base/three/x/rules_gpu" "examples"
fi

# Four: remote execution. The executor's store starts empty; the helper, its Go toolchain's actions
# and every GPU action run there.
if [ "$part" = examples ]; then
  :
elif exec_server_start "$base/exec"; then
  build four "$base/four/remote/exec" "$names" --remote_executor="$exec_grpc"
  for name in $names; do
    log=$base/four.$name.json
    [ -s "$log" ] || { bad "four/$name" "no execution log"; continue; }
    runners=$(execlog runners "$log")
    if grep -v '^ *[0-9]* remote ' <<<"$runners" | grep -q .; then
      bad "four/$name" "actions ran outside the remote executor:"$'\n'"$runners"
    # rules_go's GoToolchainBinaryBuild runs `go build` (no -trimpath) of its builder in the
    # action's directory, so its bytes depend on where it ran: the executor's directory is not
    # the sandbox's. Everything built with that builder (the helper, every GPU artifact) is compared.
    elif ! out=$(same four "$name" GoToolchainBinaryBuild); then
      bad "four/$name" "$out"
    else
      echo "$runners" | sed 's/^/  /'
      ok "four/$name (every action run by the remote executor, outputs identical to the first copy's)"
    fi
  done
else
  bad four "the remote execution server did not start"
fi

servers_stop
echo
echo "| copy | repository | wall time | processes (Bazel's summary) |"
echo "|---|---|---|---|"
printf '%s\n' "${times[@]}"
echo "remote $part: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
