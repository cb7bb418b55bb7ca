"""WORKSPACE-mode set-up for rules_gpu. bzlmod users need none of this (see MODULE.bazel)."""

load("//toolchain:local_cuda.bzl", "local_cuda_toolkit")
load("//toolchain:local_llvm.bzl", "local_llvm_toolchain")
load(":go_repositories.bzl", "go_repositories")

def rules_gpu_dependencies():
    """Declares the Go modules that rules_gpu's helper needs (call after gazelle_dependencies())."""
    go_repositories()

def rules_gpu_toolchains(name = "cuda_toolkit", path = "", llvm_name = "llvm_toolchain", llvm_path = ""):
    """Finds the local CUDA toolkit and LLVM (with MLIR) and registers them as toolchains.

    Args:
      name: the toolkit repository's name.
      path: the toolkit's root; default: `$CUDA_PATH`, `/usr/local/cuda`, then `/usr/bin`.
      llvm_name: the LLVM repository's name.
      llvm_path: LLVM's root; default: `$LLVM_PATH`, the newest `/usr/lib/llvm-N`, then `/usr/bin`.
    """
    local_cuda_toolkit(name = name, path = path)
    local_llvm_toolchain(name = llvm_name, path = llvm_path)
    native.register_toolchains("@%s//:all" % name, "@%s//:all" % llvm_name)
