#!/usr/bin/env bash
# cubin_test.sh CUOBJDUMP KERNEL CHIP,CHIP... FILE... — asserts, with the CUDA toolkit's cuobjdump, that
# the Nth FILE is a cubin (an ELF image) built for the Nth CHIP and holds the function KERNEL.
set -euo pipefail
cuobjdump=$1 kernel=$2
IFS=, read -r -a chips <<<"$3"
shift 3
if [ $# -ne ${#chips[@]} ] || [ $# -eq 0 ]; then
  echo "want one file per chip (${chips[*]}), got $#: $*" >&2; exit 1
fi
fail=0
for file in "$@"; do
  chip=${chips[0]}; chips=("${chips[@]:1}")
  num=${chip#sm_}; num=${num%[af]}
  if ! head -c 4 "$file" | od -An -c | grep -q 'E   L   F'; then
    echo "FAIL $file: not an ELF file" >&2; fail=1; continue
  fi
  header=$("$cuobjdump" -elf "$file" | grep -m1 '^64bit elf:' || true)
  case "$header" in
    *" sm=$num,"*) ;;
    *) echo "FAIL $file: want a cubin for $chip, cuobjdump says: ${header:-no ELF header}" >&2; fail=1; continue ;;
  esac
  if ! "$cuobjdump" -sass "$file" | grep -q "Function : $kernel\$"; then
    echo "FAIL $file: no function $kernel in its SASS" >&2; fail=1; continue
  fi
  echo "ok   $file: $header; function $kernel"
done
exit $fail
