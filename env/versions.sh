# versions.sh — the pinned versions of the build environment, in one place (sourced by env.sh).
# Changing a line here makes the next `env.sh run` redo the stage it belongs to.

# Debian sid packages (installed with --no-install-recommends).
#   bazel-bootstrap 7.7.1 needs libblake3-0, which its package forgets to depend on.
#   nvidia-cuda-toolkit (non-free) is CUDA 12.4: ptxas, fatbinary, cuobjdump, nvdisasm, nvcc, libdevice.
#   mlir-21-tools has mlir-opt with nvvm-attach-target and gpu-module-to-binary.
#   make runs tests/bench/cuda's Makefile (the nvcc side of tests/bench/cuda.sh).
#   llvm-21-tools has FileCheck-21, which tools/internal/filecheck's corpus test compares with.
#   buildbox has buildbox-casd and buildbox-run-hosttools: the remote execution server of tests/remote.sh.
#   libomp-21-dev is LLVM's OpenMP runtime (omp.h in clang 21's resource directory, libomp.so.5): the
#   OpenMP of host code compiled by clang (-fopenmp; clang's code calls libomp, not GCC's libgomp).
RULES_GPU_APT_PACKAGES="bazel-bootstrap libblake3-0 golang-go git ca-certificates python3 \
nvidia-cuda-toolkit mlir-21-tools llvm-21 clang-21 bazel-stardoc bazel-rules-shell make llvm-21-tools buildbox libomp-21-dev"

# Bazel rules from the Go module proxy (they are Go modules too).
RULES_GO_VERSION=v0.62.0
GAZELLE_VERSION=v0.47.0

# The target sysroot that host programs (cuda_library, cc_test) are built against: Debian 12's C and
# C++ runtimes (glibc 2.36, libstdc++ of GCC 12), so that a program built here runs on any machine with
# glibc >= 2.36 and GLIBCXX >= 3.4.30 (the H200's Ubuntu 24.04 has 2.39 and 3.4.33), whatever sid's
# own glibc is. The toolkit's CUDA headers are linked into it.
RULES_GPU_SYSROOT_SUITE=bookworm
# libomp5-14 is Debian 12's LLVM OpenMP runtime (libomp.so.5): the one programs built here link
# (env/offline/bazelrc's LLVM_OPENMP), as sid's needs a newer glibc than the sysroot's.
RULES_GPU_SYSROOT_PACKAGES="libc6 libc6-dev linux-libc-dev libgcc-s1 libgcc-12-dev libstdc++6 libstdc++-12-dev libomp5-14"
