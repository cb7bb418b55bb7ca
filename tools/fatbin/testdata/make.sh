#!/usr/bin/env bash
# make.sh — regenerates the golden fatbins in this folder with the CUDA toolkit's own ptxas and
# fatbinary (CUDA 12.4 in the build environment):
#   env/env.sh run tools/fatbin/testdata/make.sh
set -euo pipefail
cd "$(dirname "$0")"
ptx=../../../examples/saxpy/saxpy.ptx
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ptxas -arch=sm_80 -o "$tmp/sm80.cubin" "$ptx"
ptxas -arch=sm_90 -o "$tmp/sm90.cubin" "$ptx"
fatbinary --version | tail -n1 >toolkit.txt
fatbinary -64 --create=elf.fatbin --image3=kind=elf,sm=80,file="$tmp/sm80.cubin"
fatbinary -64 --create=mix.fatbin --compress=false \
  --image3=kind=elf,sm=80,file="$tmp/sm80.cubin" --image3=kind=elf,sm=90,file="$tmp/sm90.cubin" \
  --image3=kind=ptx,sm=75,file="$ptx"
fatbinary -64 --create=ident.fatbin --compress=false --ident=saxpy.ptx --cmdline="-O3 -v" \
  --image3=kind=elf,sm=80,file="$tmp/sm80.cubin" --image3=kind=ptx,sm=75,file="$ptx"
fatbinary -64 --create=mix_lz4.fatbin --compress-all \
  --image3=kind=elf,sm=80,file="$tmp/sm80.cubin" --image3=kind=elf,sm=90,file="$tmp/sm90.cubin" \
  --image3=kind=ptx,sm=75,file="$ptx"
