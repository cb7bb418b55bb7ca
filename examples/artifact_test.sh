#!/usr/bin/env bash
# artifact_test.sh CUOBJDUMP GPUBUILD KERNEL RUNS_ON IMAGES FILE — checks one built artifact with the
# CUDA toolkit's cuobjdump and with gpubuild:
#   - gpubuild inspect lists exactly IMAGES (e.g. "elf:sm_80,elf:sm_90,ptx:sm_80"), and cuobjdump lists
#     as many ELF and PTX files;
#   - every cubin holds the function KERNEL (cuobjdump -sass), every PTX its .entry;
#   - gpubuild check says the artifact loads on every chip of RUNS_ON (e.g. "sm_80,sm_86,sm_90").
set -euo pipefail
cuobjdump=$1 gpubuild=$2 kernel=$3 runs_on=$4 want=$5 file=$6
fail() { echo "FAIL $file: $*" >&2; exit 1; }
got=$("$gpubuild" inspect --json "$file" | sed 's/.*"kind":"\([a-z]*\)","arch":"\([^"]*\)".*/\1:\2/' | paste -sd, -)
[ "$got" = "$want" ] || fail "gpubuild inspect lists $got, want $want"
case "$file" in
  *.fatbin)
    n_elf=$("$cuobjdump" -lelf "$file" | grep -c '^ELF file' || true)
    n_ptx=$("$cuobjdump" -lptx "$file" | grep -c '^PTX file' || true)
    [ "$n_elf" = "$(grep -o 'elf:' <<<"$want" | wc -l)" ] || fail "cuobjdump lists $n_elf ELF files"
    [ "$n_ptx" = "$(grep -o 'ptx:' <<<"$want" | wc -l)" ] || fail "cuobjdump lists $n_ptx PTX files"
    ;;
esac
case "$want" in *elf:*)
  n_fn=$("$cuobjdump" -sass "$file" | grep -c "Function : $kernel\$" || true)
  [ "$n_fn" = "$(grep -o 'elf:' <<<"$want" | wc -l)" ] || fail "cuobjdump -sass shows $kernel in $n_fn cubins" ;;
esac
case "$file" in *.ptx) grep -q "\.entry $kernel(" "$file" || fail "no .entry $kernel" ;; esac
"$gpubuild" check --runs-on "$runs_on" "$file" || fail "gpubuild check: does not load on every runner of $runs_on"
echo "ok   $file: $got; $kernel; loads on $runs_on"
