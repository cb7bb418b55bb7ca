"""Module extensions for bzlmod users: `cuda` (CUDA toolkits) and `llvm` (LLVM with MLIR)."""

load(":local_cuda.bzl", "local_cuda_toolkit")
load(":local_llvm.bzl", "local_llvm_toolchain")

_local = tag_class(
    doc = "A CUDA toolkit found on the machine that builds.",
    attrs = {
        "name": attr.string(default = "cuda_toolkit", doc = "The repository's name."),
        "path": attr.string(doc = "The toolkit's root; default: `$CUDA_PATH`, `/usr/local/cuda`, then `/usr/bin`."),
    },
)

def _cuda_impl(mctx):
    seen = {}
    for mod in mctx.modules:
        for tag in mod.tags.local:
            if tag.name in seen:
                continue
            seen[tag.name] = True
            local_cuda_toolkit(name = tag.name, path = tag.path)

cuda = module_extension(
    implementation = _cuda_impl,
    doc = "Declares CUDA toolkit repositories; register `@NAME//:all` as toolchains.",
    tag_classes = {"local": _local},
)

_llvm_local = tag_class(
    doc = "LLVM with MLIR found on the machine that builds.",
    attrs = {
        "name": attr.string(default = "llvm_toolchain", doc = "The repository's name."),
        "path": attr.string(doc = "LLVM's root; default: `$LLVM_PATH`, the newest `/usr/lib/llvm-N`, `/usr/local/bin`, `/usr/bin`."),
    },
)

def _llvm_impl(mctx):
    seen = {}
    for mod in mctx.modules:
        for tag in mod.tags.local:
            if tag.name in seen:
                continue
            seen[tag.name] = True
            local_llvm_toolchain(name = tag.name, path = tag.path)

llvm = module_extension(
    implementation = _llvm_impl,
    doc = "Declares LLVM toolchain repositories; register `@NAME//:all` as toolchains.",
    tag_classes = {"local": _llvm_local},
)
