"""Module extensions for bzlmod users: `cuda` (CUDA toolkits) and `llvm` (LLVM with MLIR)."""

load("//toolchain/private:common.bzl", "declare_once", "local_extension", "local_tag")
load(":cuda_archive.bzl", "cuda_toolkit_archive")
load(":local_cuda.bzl", "local_cuda_toolkit")
load(":local_llvm.bzl", "local_llvm_toolchain")

_COMPILER = attr.string(
    default = "clang",
    values = ["clang", "nvcc"],
    doc = "The device front end of CUDA C++ sources for targets that choose none (`gpu_module`'s `compiler`): `clang`, or `nvcc` for code written for nvcc.",
)

def _declare_cuda(kind, tag):
    if kind == "local":
        local_cuda_toolkit(name = tag.name, path = tag.path, compiler = tag.compiler)
    else:
        cuda_toolkit_archive(name = tag.name, archives = tag.archives, compiler = tag.compiler, strip_prefix = tag.strip_prefix, version = tag.version)

def _cuda_impl(mctx):
    declare_once(mctx, _declare_cuda)

cuda = module_extension(
    implementation = _cuda_impl,
    doc = """Declares CUDA toolkit repositories; register `@NAME//:all` as toolchains.

```starlark
cuda = use_extension("@rules_gpu//toolchain:extensions.bzl", "cuda")

# Hermetic: NVIDIA's redistributable archives, pinned (sha256 from redistrib_12.4.1.json).
cuda.archive(
    name = "cuda_toolkit",
    version = "12.4",
    archives = {
        "https://developer.download.nvidia.com/compute/cuda/redist/cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-12.4.131-archive.tar.xz": "<sha256>",
        "https://developer.download.nvidia.com/compute/cuda/redist/cuda_cudart/linux-x86_64/cuda_cudart-linux-x86_64-12.4.127-archive.tar.xz": "<sha256>",
    },
)

# Or the toolkit installed on the machine that builds:
# cuda.local(name = "cuda_toolkit")

use_repo(cuda, "cuda_toolkit")
register_toolchains("@cuda_toolkit//:all")
```""",
    tag_classes = {
        "archive": tag_class(
            doc = "A hermetic toolkit made of NVIDIA's redistributable archives, each pinned by sha256 (see `cuda_toolkit_archive`).",
            attrs = {
                "archives": attr.string_dict(mandatory = True, doc = "URL -> sha256 of each archive."),
                "compiler": _COMPILER,
                "name": attr.string(default = "cuda_toolkit", doc = "The repository's name."),
                "strip_prefix": attr.string_dict(doc = "URL -> directory to strip; default: the file name without its extension."),
                "version": attr.string(doc = "The version the archives must hold, e.g. `12.4`."),
            },
        ),
        "local": local_tag(
            default_name = "cuda_toolkit",
            what = "A CUDA toolkit",
            path_doc = "The toolkit's root, the only place looked at when set; default: search `$CUDA_PATH`, `/usr/local/cuda`, then `/usr/bin`.",
            attrs = {"compiler": _COMPILER},
        ),
    },
)

llvm = local_extension(
    repo_rule = local_llvm_toolchain,
    default_name = "llvm_toolchain",
    what = "LLVM with MLIR",
    path_doc = "LLVM's root; default: `$LLVM_PATH`, the newest `/usr/lib/llvm-N`, `/usr/local/bin`, `/usr/bin`.",
)
