"""Test-only CUDA and LLVM toolchains for the analysis tests: resolved on fake platforms, never run.

Each fake platform picks one CUDA toolchain and at most one LLVM toolchain by its constraint values;
the real toolchains require Linux and a CPU, which these platforms lack, so only the fakes resolve.
"""

load("@rules_cc//cc:cc_toolchain_config_lib.bzl", "tool_path")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("@rules_cc//cc/toolchains:cc_toolchain.bzl", "cc_toolchain")
load("//toolchain:cuda_toolchain.bzl", "cuda_toolchain")
load("//toolchain:llvm_toolchain.bzl", "llvm_toolchain")

_LLVM_TOOLS = ["clang", "llc", "llvm_link", "mlir_opt", "mlir_translate", "opt"]

# name -> (the CUDA toolchain's constraint value, the LLVM one's or None).
PLATFORMS = {
    "cuda_12_4": ("cuda_12_4", "llvm_21"),
    "cuda_missing": ("cuda_missing", "llvm_21"),
    "llvm_missing": ("cuda_12_4", "llvm_missing"),
    "no_llvm": ("cuda_12_4", None),
    "no_nvcc": ("cuda_no_nvcc", "llvm_21"),
}

def fake_toolchains(name):
    """Declares the constraints, platforms and toolchains of the analysis tests.

    Args:
      name: unused; the macro's targets have fixed names.
    """
    native.constraint_setting(name = "fake_cuda")
    native.constraint_setting(name = "fake_llvm")
    for value in ["cuda_12_4", "cuda_missing", "cuda_no_nvcc"]:
        native.constraint_value(name = value, constraint_setting = ":fake_cuda")
    for value in ["llvm_21", "llvm_missing", "llvm_none"]:
        native.constraint_value(name = value, constraint_setting = ":fake_llvm")
    for platform, (cuda, llvm) in PLATFORMS.items():
        native.platform(name = platform + "_platform", constraint_values = [":" + cuda, ":" + (llvm or "llvm_none")])

    # Of the toolkit's libraries (//tests/core/starlark/cuda_libraries), the CUDA runtime and cuBLAS
    # (static and shared), and the headers of cuBLAS, cuFFT and CCCL.
    cuda_toolchain(
        name = "fake_cuda_12_4",
        version = "12.4",
        nvcc = ":fake_tool.sh",
        nvlink = ":fake_tool.sh",
        ptxas = ":fake_tool.sh",
        root = "/fake/cuda-12.4",
        cudart_static = "//tests/core/starlark/cuda_libraries:lib/libcudart_static.a",
        libraries = ["//tests/core/starlark/cuda_libraries:lib/" + f for f in ["libcublas_static.a", "libcublasLt_static.a", "libculibos.a", "libcublas.so", "libcublasLt.so"]],
        library_headers = {"cccl": "", "cublas": "", "cublasLt": "", "cufft": "", "culibos": ""},
    )
    cuda_toolchain(name = "fake_cuda_no_nvcc", version = "12.4", ptxas = ":fake_tool.sh", root = "/fake/cuda-without-nvcc")
    cuda_toolchain(name = "fake_cuda_missing", missing = "no CUDA toolkit found (the analysis tests' missing toolkit)")
    llvm_toolchain(name = "fake_llvm_21", version = "21", root = "/fake/llvm-21", **{tool: ":fake_tool.sh" for tool in _LLVM_TOOLS})
    llvm_toolchain(name = "fake_llvm_missing", missing = "no LLVM with MLIR found (the analysis tests' missing LLVM)")

    # A C++ toolchain for the rules that compile or link host code (gpu_binary, cuda_library): its
    # tools are never run.
    _fake_cc_config(name = "fake_cc_config")
    native.filegroup(name = "fake_cc_files")
    cc_toolchain(
        name = "fake_cc",
        all_files = ":fake_cc_files",
        compiler_files = ":fake_cc_files",
        dwp_files = ":fake_cc_files",
        linker_files = ":fake_cc_files",
        objcopy_files = ":fake_cc_files",
        strip_files = ":fake_cc_files",
        toolchain_config = ":fake_cc_config",
    )
    native.toolchain(
        name = "fake_cc_toolchain",
        toolchain = ":fake_cc",
        toolchain_type = "@bazel_tools//tools/cpp:toolchain_type",
        target_compatible_with = [":llvm_21"],
    )
    for kind, value in [("cuda", "cuda_12_4"), ("cuda", "cuda_missing"), ("cuda", "cuda_no_nvcc"), ("llvm", "llvm_21"), ("llvm", "llvm_missing")]:
        native.toolchain(
            name = "fake_%s_toolchain" % value,
            toolchain = ":fake_" + value,
            toolchain_type = "//toolchain:%s_toolchain_type" % kind,
            target_compatible_with = [":" + value],
        )

def _fake_cc_library_impl(ctx):
    return [CcInfo(compilation_context = cc_common.create_compilation_context(
        headers = depset(ctx.files.hdrs),
        defines = depset(ctx.attr.defines),
        includes = depset(ctx.attr.includes),
        quote_includes = depset(ctx.attr.quote_includes),
        system_includes = depset(ctx.attr.system_includes),
    ))]

fake_cc_library = rule(
    implementation = _fake_cc_library_impl,
    doc = "A CcInfo of headers, include paths and defines, as a cc_library gives, without a C++ toolchain (the fake platforms have none).",
    attrs = {
        "defines": attr.string_list(doc = "Its defines."),
        "hdrs": attr.label_list(allow_files = True, doc = "Its headers."),
        "includes": attr.string_list(doc = "Its include paths, as exec paths."),
        "quote_includes": attr.string_list(doc = "Its quote include paths."),
        "system_includes": attr.string_list(doc = "Its system include paths."),
    },
)

def _fake_cc_config_impl(ctx):
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = "fake",
        host_system_name = "fake",
        target_system_name = "fake",
        target_cpu = "fake",
        target_libc = "fake",
        compiler = "fake",
        abi_version = "fake",
        abi_libc_version = "fake",
        tool_paths = [tool_path(name = t, path = "/fake/cc/" + t) for t in ["ar", "cpp", "gcc", "gcov", "ld", "nm", "objdump", "strip"]],
    )

_fake_cc_config = rule(
    implementation = _fake_cc_config_impl,
    doc = "The configuration of the fake C++ toolchain.",
    provides = [CcToolchainConfigInfo],
)
