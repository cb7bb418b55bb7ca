"""WORKSPACE-mode set-up for rules_gpu. bzlmod users need none of this (see MODULE.bazel)."""

load("//third_party:go_repositories.bzl", "go_repositories")
load("//toolchain:cuda_archive.bzl", "cuda_toolkit_archive")
load("//toolchain:local_cuda.bzl", "local_cuda_toolkit")
load("//toolchain:local_llvm.bzl", "local_llvm_toolchain")

def rules_gpu_dependencies():
    """Declares the Go modules that rules_gpu's helper needs, at the versions rules_gpu is tested with.

    Call it after rules_go's `go_rules_dependencies()` and before gazelle's `gazelle_dependencies()`,
    so that these versions are the ones declared (the first declaration of a repository wins).
    """
    go_repositories()

def rules_gpu_toolchains(name = "cuda_toolkit", path = "", cuda_archives = {}, cuda_version = "", compiler = "clang", llvm_name = "llvm_toolchain", llvm_path = ""):
    """Declares the CUDA toolkit and LLVM (with MLIR) and registers them and rules_gpu's action helper as toolchains.

    The toolkit is hermetic when `cuda_archives` is given (see `cuda_toolkit_archive`), else the one
    installed on the machine that builds.

    Args:
      name: the toolkit repository's name.
      path: the local toolkit's root, the only place looked at when set; default: search `$CUDA_PATH`,
        `/usr/local/cuda`, then `/usr/bin`.
      cuda_archives: URL -> sha256 of NVIDIA's redistributable archives of a hermetic toolkit.
      cuda_version: the version the archives must hold, e.g. `12.4`.
      compiler: the device front end of CUDA C++ sources for targets that choose none: `clang` or
        `nvcc`.
      llvm_name: the LLVM repository's name.
      llvm_path: LLVM's root; default: `$LLVM_PATH`, the newest `/usr/lib/llvm-N`, then `/usr/bin`.
    """
    if cuda_archives:
        cuda_toolkit_archive(name = name, archives = cuda_archives, compiler = compiler, version = cuda_version)
    else:
        local_cuda_toolkit(name = name, path = path, compiler = compiler)
    local_llvm_toolchain(name = llvm_name, path = llvm_path)
    native.register_toolchains("@%s//:all" % name, "@%s//:all" % llvm_name, str(Label("//toolchain:builder")))
