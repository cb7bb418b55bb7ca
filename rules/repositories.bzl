"""WORKSPACE-mode set-up for rules_gpu. bzlmod users need none of this (see MODULE.bazel)."""

load("//rules/private:go_repositories.bzl", "go_repositories")
load("//toolchain:local_cuda.bzl", "local_cuda_toolkit")

def rules_gpu_dependencies():
    """Declares the Go modules that rules_gpu's helper needs (call after gazelle_dependencies())."""
    go_repositories()

def rules_gpu_toolchains(name = "cuda_toolkit", path = ""):
    """Finds the local CUDA toolkit and registers it as a toolchain.

    Args:
      name: the toolkit repository's name.
      path: the toolkit's root; default: `$CUDA_PATH`, `/usr/local/cuda`, then `/usr/bin`.
    """
    local_cuda_toolkit(name = name, path = path)
    native.register_toolchains("@%s//:all" % name)
