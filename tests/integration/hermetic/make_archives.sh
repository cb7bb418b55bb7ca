#!/usr/bin/env bash
# make_archives.sh OUTDIR — makes CUDA redistributable archives in NVIDIA's layout from the files of
# the Debian packages installed in the build environment (nvidia-cuda-toolkit, nvidia-cuda-dev), for
# the hermetic scenario: what NVIDIA serves under developer.download.nvidia.com/compute/cuda/redist/,
# which this machine cannot reach. Each archive has one top directory named after its file:
#   cuda_nvcc-linux-x86_64-V-archive/{bin/ptxas,bin/fatbinary,nvvm/libdevice/libdevice.10.bc}
#   cuda_cudart-linux-x86_64-V-archive/include/...   (nvidia-cuda-dev's headers, with cuda.h)
#   cuda_cuobjdump-linux-x86_64-V-archive/bin/cuobjdump
# The archives are reproducible (sorted, mtime 0, owner 0), so their sha256 does not change between
# runs. Prints "FILE SHA256" per archive.
set -euo pipefail
out=$1
mkdir -p "$out"
v=$(ptxas --version | sed -n 's/.*, V\([0-9.]*\)$/\1/p')
[ -n "$v" ] || { echo "make_archives.sh: ptxas --version does not say its version" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

owned() { # PACKAGE PATH: fails unless PATH belongs to PACKAGE (the archive is made of that package)
  dpkg -S "$2" 2>/dev/null | grep -q "^$1[:]" || { echo "make_archives.sh: $2 is not from $1" >&2; exit 1; }
}
put() { # DIR SRC DEST: copies SRC (following links) to DIR/DEST
  mkdir -p "$(dirname "$1/$3")"; cp -L "$2" "$1/$3"
}
pack() { # NAME: archives $tmp/NAME-linux-x86_64-$v-archive
  local dir="$1-linux-x86_64-$v-archive" f="$out/$1-linux-x86_64-$v-archive.tar.xz"
  if [ ! -f "$f" ]; then
    tar -C "$tmp" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - "$dir" | xz -T1 -1 >"$f.tmp"
    mv "$f.tmp" "$f"
  fi
  echo "$(basename "$f") $(sha256sum "$f" | cut -d' ' -f1)"
}

d=$tmp/cuda_nvcc-linux-x86_64-$v-archive
for t in ptxas fatbinary; do owned nvidia-cuda-toolkit /usr/bin/$t; put "$d" /usr/bin/$t bin/$t; done
owned nvidia-cuda-toolkit /usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc
put "$d" /usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc nvvm/libdevice/libdevice.10.bc
pack cuda_nvcc

d=$tmp/cuda_cudart-linux-x86_64-$v-archive
dpkg -L nvidia-cuda-dev | grep '^/usr/include/.' | while read -r p; do
  [ -f "$p" ] && put "$d" "$p" "include/${p#/usr/include/}"
done
[ -f "$d/include/cuda.h" ] || { echo "make_archives.sh: nvidia-cuda-dev has no cuda.h" >&2; exit 1; }
pack cuda_cudart

owned nvidia-cuda-toolkit /usr/bin/cuobjdump
put "$tmp/cuda_cuobjdump-linux-x86_64-$v-archive" /usr/bin/cuobjdump bin/cuobjdump
pack cuda_cuobjdump
