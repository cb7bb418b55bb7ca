#!/usr/bin/env bash
# run.sh DIR — runs on the GPU machine (device tool), over what build.sh put in DIR:
#   1. the fatbin matrix: each fatbin that gpubuild linked is loaded with cuModuleLoadData and runs
#      saxpy, checked against the CPU (sm80_only must fail with NoBinaryForGpu);
#   2. ground truth for `gpubuild check`: artifacts built by this machine's CUDA toolkit (cubins and
#      PTX for many chips, and mixtures linked by gpubuild) are loaded by the driver, and the driver's
#      answer is compared with `gpubuild check --runs-on <this GPU> --driver <its CUDA version>`;
#   3. load times: median of repeated loads, SASS vs PTX JIT, with CUDA_CACHE_DISABLE=1;
#   4.-7. the examples built by rules_gpu, MLIR's own artifacts, the seed scenario, and a C host
#      program that carries the saxpy fatbin (gpu_cc_library), compiled here;
#   8. the GPU tests Bazel built (gpu_cc_test: cuda_library programs), and the seed program in
#      runtime-API form.
# Results go to $OUT (or DIR/out): results.md, and the raw JSON lines.
set -uo pipefail
dir=$(cd "${1:?usage: run.sh DIR}" && pwd)
out=${OUT:-$dir/out}; mkdir -p "$out"
g=$dir/bin/gpubuild r=$dir/bin/gpurun a=$dir/artifacts
export CUDA_CACHE_DISABLE=1
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuobjdump=$(command -v cuobjdump || echo "$(dirname "$nvcc")/cuobjdump")
md=$out/results.md
info=$("$r" info) || { echo "run.sh: no GPU: $info" >&2; exit 1; }
chip=$(sed 's/.*"chip":"\([^"]*\)".*/\1/' <<<"$info")
driver=$(sed 's/.*"driver_cuda":"\([^"]*\)".*/\1/' <<<"$info")
{
  echo "# Device run"
  echo
  echo "GPU: \`$info\`; toolkit: $("$nvcc" --version | tail -n1); $(date -u +%FT%TZ)"
  echo
  echo "## 1. Fatbins linked by gpubuild, loaded and run (saxpy, n = 2^20+3)"
  echo
  echo "| fatbin | images | expected | result |"
  echo "|---|---|---|---|"
} >"$md"
fail=0
for f in cubin_sm90 ptx_only ptx_lz4 ptx_zstd cubin_ptx lz4_all zstd_all sm80_only; do
  images=$("$g" inspect --json "$a/$f.fatbin" | sed 's/.*"kind":"\([a-z]*\)","arch":"\([^"]*\)".*"compression":"\([a-z0-9]*\)".*/\1 \2 \3/' | paste -sd, -)
  res=$("$r" saxpy "$a/$f.fatbin" 2>&1); rc=$?
  want=runs; [ "$f" = sm80_only ] && want="NoBinaryForGpu"
  if { [ "$want" = runs ] && [ $rc -eq 0 ]; } || { [ "$want" != runs ] && grep -q NoBinaryForGpu <<<"$res"; }; then ok=PASS; else ok=FAIL; fail=1; fi
  echo "| $f | $images | $want | $ok: $(tr '\n' ' ' <<<"$res" | sed "s#$dir/##g") |" >>"$md"
done

# 2. The driver against gpubuild check.
m=$dir/matrix; mkdir -p "$m"; cd "$m"
src=$dir/src/scale.cu
for sm in 75 80 86 89 90 90a 100 120; do
  "$nvcc" -cubin -arch=sm_$sm -o cubin_sm_$sm.cubin "$src" 2>/dev/null || echo "nvcc: no sm_$sm" >&2
  "$nvcc" -ptx -arch=compute_$sm -o ptx_compute_$sm.ptx "$src" 2>/dev/null || echo "nvcc: no compute_$sm" >&2
done
# PTX of an ISA newer than this driver knows.
sed 's/^\.version .*/.version 9.9/' ptx_compute_75.ptx >ptx_isa_9.9.ptx
for f in cubin_*.cubin ptx_*.ptx; do "$g" link -o "fb_${f%.*}.fatbin" --compress lz4 "$f"; done
"$g" link -o mix_sm80_compute80.fatbin cubin_sm_80.cubin ptx_compute_80.ptx
"$g" link -o mix_sm86_sm89.fatbin cubin_sm_86.cubin cubin_sm_89.cubin
"$g" link -o mix_sm100_compute90.fatbin cubin_sm_100.cubin ptx_compute_90.ptx
"$g" link -o mix_sm75_compute100.fatbin cubin_sm_75.cubin ptx_compute_100.ptx
"$g" link -o mix_compute120_compute86.fatbin ptx_compute_120.ptx ptx_compute_86.ptx
{
  echo
  echo "## 2. The driver against \`gpubuild check --runs-on $chip --driver $driver\`"
  echo
  echo "| artifact | images (gpubuild inspect) | driver | gpubuild check | agree |"
  echo "|---|---|---|---|---|"
} >>"$md"
agree=0 total=0
for f in *.cubin *.ptx *.fatbin; do
  images=$("$g" inspect --json "$f" 2>&1 | sed 's/.*"kind":"\([a-z]*\)","arch":"\([^"]*\)".*/\1 \2/' | paste -sd, -)
  drv=$("$r" load "$f" | tee -a "$out/load.jsonl")
  dloads=$(grep -q '"loads":true' <<<"$drv" && echo loads || echo "no ($(sed -n 's/.*"error":"\([^"]*\)".*/\1/p' <<<"$drv"))")
  chk=$("$g" check --json --runs-on "$chip" --driver "$driver" "$f" 2>/dev/null | tee -a "$out/check.jsonl")
  cloads=$(grep -q '"loads":true' <<<"$chk" && echo loads || echo no)
  how=$(sed -n 's/.*"how":"\([^"]*\)".*/\1/p' <<<"$chk")
  total=$((total + 1))
  if [ "${dloads%% *}" = "$cloads" ]; then same=yes; agree=$((agree + 1)); else same="**NO**"; fail=1; fi
  echo "| $f | $images | $dloads | $cloads ($how) | $same |" >>"$md"
done
echo >>"$md"; echo "Agreement: $agree of $total." >>"$md"
{
  echo
  echo "## CUDA 13 cubin headers (cuobjdump) against gpubuild inspect"
  echo
  for sm in 100a 100f 103 120a 120f; do "$nvcc" -cubin -arch=sm_$sm -o hdr_sm_$sm.cubin "$src" 2>/dev/null || echo "- nvcc: no sm_$sm"; done
  "$nvcc" -fatbin -gencode arch=compute_90a,code=[sm_90a,compute_90a] -gencode arch=compute_100f,code=[sm_100f,compute_100f] -o hdr_nvcc.fatbin "$src" 2>&1 | head -3
  echo; echo '```'; "$cuobjdump" -lelf -lptx hdr_nvcc.fatbin; "$g" inspect hdr_nvcc.fatbin; echo '```'; echo
  for f in cubin_*.cubin hdr_*.cubin; do
    echo "- $f: cuobjdump \`$("$cuobjdump" -elf "$f" 2>/dev/null | grep -m1 '^64bit elf' || echo '?')\`; e_flags \`$(od -An -tx4 -j48 -N4 "$f" | tr -d ' ')\` ABI \`$(od -An -tu1 -j8 -N1 "$f" | tr -d ' ')\`; gpubuild \`$("$g" inspect --json "$f" | sed 's/.*"arch":"\([^"]*\)","code_version":"\([^"]*\)".*/\1 code \2/')\`"
  done
} >>"$md"

# 4. The examples built by Bazel, run and checked against the CPU.
{
  echo
  echo "## 4. Examples built by rules_gpu (bazel build //examples/...), run on the GPU"
  echo
  echo "| artifact | images | kernel run | result |"
  echo "|---|---|---|---|"
} >>"$md"
for f in "$dir"/examples/*; do
  b=$(basename "$f"); k=${b%%_*}; k=${k%%.*}
  images=$("$g" inspect --json "$f" | sed 's/.*"kind":"\([a-z]*\)","arch":"\([^"]*\)".*/\1 \2/' | paste -sd, -)
  res=$("$r" "$k" "$f" 2>&1); rc=$?
  [ $rc -eq 0 ] && ok=PASS || { ok=FAIL; fail=1; }
  echo "| $b | $images | $k | $ok: $(tr '\n' ' ' <<<"$res" | sed "s#$dir/##g") |" >>"$md"
done

# 5. MLIR's own serialization of the same MLIR examples (mlir-opt gpu-module-to-binary, sm_90).
{
  echo
  echo "## 5. The MLIR examples serialized by MLIR itself (gpu-module-to-binary, sm_90 cubin), run on the GPU"
  echo
  echo "| artifact | kernel run | result |"
  echo "|---|---|---|"
} >>"$md"
for f in "$dir"/mlir_own/*.cubin; do
  b=$(basename "$f"); k=${b%%.*}
  res=$("$r" "$k" "$f" 2>&1); rc=$?
  [ $rc -eq 0 ] && ok=PASS || { ok=FAIL; fail=1; }
  echo "| $b | $k | $ok: $(tr '\n' ' ' <<<"$res" | sed "s#$dir/##g") |" >>"$md"
done

# 6. The seed scenario: sm_80 only (format bin) forced onto sm_90, and the same with PTX (fatbin).
{
  echo
  echo "## 6. The seed scenario on sm_90"
  echo
  echo "At build time: \`bazel build //examples/seed:seed_bin --@rules_gpu//gpu:runners=sm_90 --@rules_gpu//gpu:driver=13.0\` fails:"
  echo
  echo '```'
  cat "$dir/seed/refusal.txt"
  echo '```'
  echo
  echo "| artifact | expected | result |"
  echo "|---|---|---|"
} >>"$md"
res=$("$r" saxpy "$dir/seed/seed_bin.sm_80.cubin" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q NoBinaryForGpu <<<"$res"; then ok=PASS; else ok=FAIL; fail=1; fi
echo "| seed_bin.sm_80.cubin (forced through) | CUDA_ERROR_NO_BINARY_FOR_GPU | $ok: $(tr '\n' ' ' <<<"$res" | sed "s#$dir/##g") |" >>"$md"
res=$("$r" saxpy "$dir/seed/seed_fatbin.fatbin" 2>&1); rc=$?
how=$("$g" check --json --runs-on "$chip" --driver "$driver" "$dir/seed/seed_fatbin.fatbin" | sed -n 's/.*"how":"\([^"]*\)".*/\1/p')
[ $rc -eq 0 ] && [ "$how" = "PTX JIT" ] && ok=PASS || { ok=FAIL; fail=1; }
echo "| seed_fatbin.fatbin (sm_80 cubin + sm_80 PTX) | loads by PTX JIT, runs | $ok ($how): $(tr '\n' ' ' <<<"$res" | sed "s#$dir/##g") |" >>"$md"

# 7. A host program that carries its GPU code (gpu_cc_library), built here with gcc and this toolkit.
{
  echo
  echo "## 7. A host program with its GPU code embedded (gpu_cc_library + examples/saxpy/saxpy_host.c)"
  echo
} >>"$md"
e=$dir/embed
cudainc=$(dirname "$nvcc")/../include
if res=$(cd "$e" && gcc -std=c11 -O2 -Wall -I. -I"$cudainc" examples/saxpy/saxpy_host.c examples/saxpy/saxpy_cc.c \
    -L"$(dirname "$nvcc")/../lib64/stubs" -lcuda -lm -o saxpy_host 2>&1 && ./saxpy_host 2>&1); then ok=PASS; else ok=FAIL; fail=1; fi
echo "$ok: \`gcc saxpy_host.c saxpy_cc.c -lcuda && ./saxpy_host\`: $(tr '\n' ' ' <<<"$res")" >>"$md"

# 8. The GPU tests that Bazel built (gpu_cc_test), run as `bazel test` runs them: from their runfiles,
# with TEST_SRCDIR and a TEST_TMPDIR; then the seed program in runtime-API form.
{
  echo
  echo "## 8. GPU tests built by Bazel (tags = [\"gpu\"]), run here"
  echo
  echo "| test | result | log |"
  echo "|---|---|---|"
} >>"$md"
# bazel_tests DIR [NAME]: runs each test DIR/tests.txt lists (labels of the repository DIR's programs
# came from, NAME in the table when it is not this one).
bazel_tests() {
  local b=$1 name=${2:+$2 } t p rf tmp log rc ok
  while read -r t; do
    p=${t#//}; p=${p/://}
    rf=$b/$p.runfiles; tmp=$(mktemp -d)
    log=$(cd "$rf/_main" && TEST_SRCDIR=$rf TEST_WORKSPACE=_main TEST_TMPDIR=$tmp timeout 300 "$b/$p" 2>&1); rc=$?
    rm -rf "$tmp"
    [ $rc -eq 0 ] && ok=PASS || { ok="FAIL (exit $rc)"; fail=1; }
    echo "$name$t: $ok"; echo "$log" | sed 's/^/    /'
    echo "| $name$t | $ok | $(tr '\n' ';' <<<"$log" | sed 's/;/; /g') |" >>"$md"
  done <"$b/tests.txt"
}
b=$dir/bazel
bazel_tests "$b"
# The repository migrated from rules_cuda (tests/integration/migrate; build.sh migrated and built it).
bazel_tests "$dir/migrate" "migrate (from rules_cuda, sm_80 + sm_86 + compute_80 PTX)"
{
  echo
  echo "The seed failure in runtime-API form (examples/cuda:seed_runtime, an sm_80-only cuda_library). At build time,"
  echo "\`bazel build //examples/cuda:seed_runtime --@rules_gpu//gpu:runners=sm_90 --@rules_gpu//gpu:driver=13.0\` fails:"
  echo
  echo '```'
  cat "$b/seed_refusal.txt"
  echo '```'
  echo
} >>"$md"
res=$("$b/examples/cuda/seed_runtime" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q cudaErrorNoKernelImageForDevice <<<"$res"; then ok=PASS; else ok=FAIL; fail=1; fi
echo "Forced through (built without runners), run here: $ok, exit $rc (expected: 1 and cudaErrorNoKernelImageForDevice): \`$res\`" >>"$md"

# 9. MLIR programs: the runtime's own tests on the GPU; the seed program forced through; the
# examples serialized by MLIR's own pipeline, linked with our runtime, checked as their gpu_test is.
{
  echo
  echo "## 9. MLIR programs: the runtime, the seed, MLIR's own pipeline"
  echo
} >>"$md"
mr=$dir/mlir
res=$(cd "$mr/mlirrt" && timeout 300 ./mlirrt.test -test.v 2>&1); rc=$?
[ $rc -eq 0 ] && ok=PASS || { ok="FAIL (exit $rc)"; fail=1; }
echo "$res" >"$out/mlirrt_test.txt"
echo "- \`go test -tags cuda ./tools/internal/mlirrt\` (the test binary, run here): $ok; $(grep -c '^--- PASS' <<<"$res") passed, $(grep -c '^--- SKIP' <<<"$res") skipped: $(grep -E '^--- (PASS|FAIL|SKIP)' <<<"$res" | sed 's/ (.*//' | tr '\n' ' ')" >>"$md"
{
  echo "- The seed as a program (examples/mlir:seed_bin, format bin, sm_80 only). At build time,"
  echo "  \`bazel build //examples/mlir:seed_bin --@rules_gpu//gpu:runners=sm_90 --@rules_gpu//gpu:driver=13.0\` fails:"
  echo
  echo '```'
  cat "$mr/seed_refusal.txt"
  echo '```'
  echo
} >>"$md"
res=$("$mr/seed_bin" 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "sm_80" <<<"$res" && grep -q "sm_90" <<<"$res"; then ok=PASS; else ok=FAIL; fail=1; fi
{
  echo "  Forced through (built without runners), run here: $ok, exit $rc (expected: 1, and a message naming sm_80 and sm_90):"
  echo
  echo '```'
  echo "$res"
  echo '```'
  echo
  echo "- The examples through MLIR's own pipeline (\`mlir-opt-21 --gpu-lower-to-nvvm-pipeline=\"cubin-chip=sm_90 cubin-format=fatbin\"\`, translate, llc, linked with our runtime), their output checked by the same CHECK lines:"
  echo
  echo "| program | result | output |"
  echo "|---|---|---|"
} >>"$md"
for p in "$mr"/own/*.mlir; do
  k=$(basename "$p" .mlir); args=()
  [ "$k" = cli_arg ] && args=(7)
  o=$(mktemp -d)
  res=$("$mr/own/$k" "${args[@]}" 2>&1 >"$o/out.txt") || true
  if [ -z "$res" ] && "$dir/bin/filecheck" --input-file "$o/out.txt" "$p" >"$o/check.txt" 2>&1; then ok=PASS; else ok=FAIL; fail=1; fi
  echo "own $k: $ok"; sed 's/^/    /' "$o/out.txt" "$o/check.txt"
  echo "| $k | $ok | $(head -c 300 "$o/out.txt" | tr '\n' ';' | sed 's/;/; /g') $(head -c 300 <<<"$res") |" >>"$md"
  rm -rf "$o"
done

# 3. Load times.
{
  echo
  echo "## 3. Load time, median of 20 loads (CUDA_CACHE_DISABLE=1)"
  echo
  echo "| artifact | how it loads | median ms | min ms | max ms |"
  echo "|---|---|---|---|---|"
} >>"$md"
# Per example kernel: its fatbin (the driver takes the sm_90 cubin) and its embedded PTX alone (JIT).
x=$dir/extracted; mkdir -p "$x"
jit=()
for f in "$dir"/examples/*.fatbin; do
  "$g" extract -o "$x" "$f" >/dev/null
  jit+=("$f" "$(ls "$x/$(basename "${f%.fatbin}")".*.ptx)")
done
for f in "$a/cubin_sm90.fatbin" "$a/ptx_only.fatbin" "$a/ptx_lz4.fatbin" "$a/lz4_all.fatbin" "$m/fb_ptx_compute_75.fatbin" "$m/fb_ptx_compute_90.fatbin" "${jit[@]}"; do
  how=$("$g" check --json --runs-on "$chip" --driver "$driver" "$f" | sed -n 's/.*"how":"\([^"]*\)".*/\1/p')
  "$r" load -n 20 "$f" | tee -a "$out/loadtime.jsonl" |
    sed "s#.*\"median_ms\":\([0-9.]*\),\"min_ms\":\([0-9.]*\),\"max_ms\":\([0-9.]*\).*#| ${f#$dir/} | $how | \1 | \2 | \3 |#" >>"$md"
done
cat "$md"
exit $fail
