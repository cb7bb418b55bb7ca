"""Module extensions for bzlmod users: `cuda` (CUDA toolkits) and `llvm` (LLVM with MLIR)."""

load("//toolchain/private:common.bzl", "local_extension")
load(":local_cuda.bzl", "local_cuda_toolkit")
load(":local_llvm.bzl", "local_llvm_toolchain")

cuda = local_extension(
    repo_rule = local_cuda_toolkit,
    default_name = "cuda_toolkit",
    what = "a CUDA toolkit",
    path_doc = "The toolkit's root; default: `$CUDA_PATH`, `/usr/local/cuda`, then `/usr/bin`.",
)

llvm = local_extension(
    repo_rule = local_llvm_toolchain,
    default_name = "llvm_toolchain",
    what = "LLVM with MLIR",
    path_doc = "LLVM's root; default: `$LLVM_PATH`, the newest `/usr/lib/llvm-N`, `/usr/local/bin`, `/usr/bin`.",
)
