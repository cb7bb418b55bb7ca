"""Every provider of rules_gpu, in one place.

`GpuModuleInfo` is what a `gpu_module` target returns. `CudaToolkitInfo`, `LlvmToolchainInfo` and
`GpuBuilderInfo` are what the toolchains of `@rules_gpu//toolchain:cuda_toolchain_type`,
`:llvm_toolchain_type` and `:builder_toolchain_type` carry, as the `cuda`, `llvm` and `builder`
fields of their `platform_common.ToolchainInfo`: rules read `ctx.toolchains[TYPE].cuda` (or `.llvm`,
`.builder`), never untyped fields.
"""

GpuModuleInfo = provider(
    doc = "What a `gpu_module` target produced.",
    fields = {
        "artifact": "File or None: the one file to load at run time (the fatbin, the `jit` PTX, or the cubin/PTX of a single-chip target).",
        "chips": "list of str: the chips the module was built for, in declared order (e.g. `[\"sm_80\", \"sm_90\"]`).",
        "fatbin": "File or None: the fatbin (format `fatbin`).",
        "files_by_chip": "dict str -> File: the per-chip artifact of each chip (cubin, PTX or LLVM bitcode); empty for `jit`.",
        "format": "str: the artifact format: `bin`, `isa`, `offload`, `fatbin` or `jit`.",
        "ptx": "File or None: the PTX that a fatbin embeds (the lowest chip's, or the first of `ptx`), or the `jit` artifact.",
    },
)

GpuPchInfo = provider(
    doc = """The precompiled headers of clang's CUDA headers that CUDA C++ compiles of one configuration share (`@rules_gpu//rules/private:cuda_pch`).""",
    fields = {
        "pchs": "dict str -> struct(pch, headers): by `pch_key(chip, opt_level, fast_math)`, the PCH File and the File listing its headers; empty when there are none (`--@rules_gpu//gpu:pch=false`, no clang, no toolkit).",
    },
)

GpuBuilderInfo = provider(
    doc = """rules_gpu's action helper, as the builder toolchain (`@rules_gpu//toolchain:builder_toolchain_type`) provides it.

Every action of rules_gpu runs it (`gpubuilder VERB ...`), as every rules_go action runs the Go
toolchain's builder: a program that holds only the verbs actions run, so that a change to the
user's CLI or to the test runtime changes no action's key.""",
    fields = {
        "executable": "FilesToRunProvider: `gpubuilder`, built for the execution platform.",
    },
)

CudaToolkitInfo = provider(
    doc = """A CUDA toolkit, as the CUDA toolchain (`@rules_gpu//toolchain:cuda_toolchain_type`) provides it.

A toolkit that could not be found still resolves, with `missing` saying why: rules that need it fail
at analysis with that text, and rules that do not (a `gpu_module` of LLVM IR needs ptxas, an embedding
rule needs nothing) are unaffected.""",
    fields = {
        "compiler": "str: the device front end of CUDA C++ sources for targets that choose none: `clang` or `nvcc`.",
        "cuda_files": "depset of File: what a CUDA C++ compile reads from a toolkit inside the build (include/ and libdevice); empty for a toolkit on the machine.",
        "cuda_path": "str: clang's `--cuda-path`: the toolkit root (include/cuda.h, nvvm/libdevice), an execution-root path for a toolkit inside the build, an absolute one for a toolkit on the machine; empty when there is none.",
        "cudart_shared": "File or None: the CUDA runtime as a shared library (`libcudart.so`).",
        "cudart_static": "File or None: the CUDA runtime as a static library (`libcudart_static.a`), linked into host programs of `cuda_library` by default.",
        "libdevice": "File or None: libdevice.10.bc, linked into modules that call `__nv_` functions.",
        "libraries": "dict str -> File: the toolkit's library files that host code links, by file name (`libcublas_static.a`, `libcublas.so`, ...: cuda/libraries_table.bzl's LIBRARY_FILES), for `@rules_gpu//cuda:NAME`.",
        "library_headers": "dict str -> str: each library of the table (`cublas`, ...) whose headers the toolkit has -> the include directory that holds them where neither the toolkit's `include/` nor the C++ compiler's own search path does (absolute: on the machine; relative: in the toolkit, e.g. `include/cccl`); else \"\".",
        "missing": "str: why there is no toolkit; empty when there is one.",
        "root": "str: where the toolkit came from (a directory on the machine, or the archives' URLs), for messages.",
        "tools": "dict str -> File: the toolkit's programs by name: `ptxas`, and where present `fatbinary`, `cuobjdump`, `nvdisasm`, `nvcc`, `nvlink`.",
        "version": "str: the toolkit's version, `MAJOR.MINOR` (from `ptxas --version`), e.g. `12.4`.",
    },
)

CudaObjectsInfo = provider(
    doc = """What a `cuda_objects` gives the target that depends on it, compiled both ways, as rules_cuda's
`cuda_objects` does: a target with `rdc = True` links the relocatable device code into its own module
and registers those host objects with its fatbin; one without links the plain host objects, each
carrying its own fatbin. Each holds those of the `cuda_objects` deps too.""",
    fields = {
        "compiler": "str: the device compiler, `clang` or `nvcc`: relocatable code of the two does not link together.",
        "label": "Label: the `cuda_objects` target, for messages.",
        "objects": "depset of File: the plain host objects, each with its source's fatbin.",
        "rdc_by_chip": "dict str -> depset of File: each chip's relocatable device code (clang: LLVM bitcode; nvcc: relocatable cubins), of every chip the objects were built for.",
        "rdc_objects": "depset of File: the host objects compiled as relocatable device code, registered by the linking target's fatbin.",
        "validation": "depset of File: the runs-on checks of the plain objects' fatbins.",
    },
)

OpenMPInfo = provider(
    doc = "The OpenMP runtime of host code compiled with `-fopenmp` (`@rules_gpu//cuda:openmp`), or why there is none.",
    fields = {
        "cc_info": "CcInfo or None: the runtime to link.",
        "missing": "str: why there is no runtime; empty when there is one.",
    },
)

LlvmToolchainInfo = provider(
    doc = """LLVM with MLIR and clang, as the LLVM toolchain (`@rules_gpu//toolchain:llvm_toolchain_type`) provides it.

Needed by every source that is not PTX already: MLIR (`mlir_opt`, `mlir_translate`), CUDA C++
(`clang`) and LLVM IR (`llvm_link`, `opt`, `llc`).""",
    fields = {
        "missing": "str: why there is no LLVM; empty when there is one.",
        "openmp": "File or None: LLVM's OpenMP runtime (`libomp.so.5`), which host code compiled by clang with `-fopenmp` calls (`@rules_gpu//cuda:openmp`).",
        "resource_dir": "str: clang's resource directory (its own headers) as an execution-root path, for `-resource-dir`; empty: clang finds its own.",
        "resource_files": "depset of File: the headers of `resource_dir`, inputs of CUDA C++ compiles.",
        "root": "str: the directory the tools came from, for messages.",
        "tools": "dict str -> File: the programs by attribute name: `clang`, `llc`, `llvm_link`, `mlir_opt`, `mlir_translate`, `opt`.",
        "version": "str: LLVM's major version (from `llc --version`), e.g. `21`.",
    },
)
