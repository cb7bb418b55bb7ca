"""Test-only CUDA and LLVM toolchains for the analysis tests: resolved on fake platforms, never run.

Each fake platform picks one CUDA toolchain and at most one LLVM toolchain by its constraint values;
the real toolchains require Linux and a CPU, which these platforms lack, so only the fakes resolve.
"""

load("//toolchain:cuda_toolchain.bzl", "cuda_toolchain")
load("//toolchain:llvm_toolchain.bzl", "llvm_toolchain")

_LLVM_TOOLS = ["clang", "llc", "llvm_link", "mlir_opt", "mlir_translate", "opt"]

# name -> (the CUDA toolchain's constraint value, the LLVM one's or None).
PLATFORMS = {
    "cuda_12_4": ("cuda_12_4", "llvm_21"),
    "cuda_missing": ("cuda_missing", "llvm_21"),
    "llvm_missing": ("cuda_12_4", "llvm_missing"),
    "no_llvm": ("cuda_12_4", None),
}

def fake_toolchains(name):
    """Declares the constraints, platforms and toolchains of the analysis tests.

    Args:
      name: unused; the macro's targets have fixed names.
    """
    native.constraint_setting(name = "fake_cuda")
    native.constraint_setting(name = "fake_llvm")
    for value in ["cuda_12_4", "cuda_missing"]:
        native.constraint_value(name = value, constraint_setting = ":fake_cuda")
    for value in ["llvm_21", "llvm_missing", "llvm_none"]:
        native.constraint_value(name = value, constraint_setting = ":fake_llvm")
    for platform, (cuda, llvm) in PLATFORMS.items():
        native.platform(name = platform + "_platform", constraint_values = [":" + cuda, ":" + (llvm or "llvm_none")])

    cuda_toolchain(name = "fake_cuda_12_4", version = "12.4", ptxas = ":fake_tool.sh", root = "/fake/cuda-12.4")
    cuda_toolchain(name = "fake_cuda_missing", missing = "no CUDA toolkit found (the analysis tests' missing toolkit)")
    llvm_toolchain(name = "fake_llvm_21", version = "21", root = "/fake/llvm-21", **{tool: ":fake_tool.sh" for tool in _LLVM_TOOLS})
    llvm_toolchain(name = "fake_llvm_missing", missing = "no LLVM with MLIR found (the analysis tests' missing LLVM)")
    for kind, value in [("cuda", "cuda_12_4"), ("cuda", "cuda_missing"), ("llvm", "llvm_21"), ("llvm", "llvm_missing")]:
        native.toolchain(
            name = "fake_%s_toolchain" % value,
            toolchain = ":fake_" + value,
            toolchain_type = "//toolchain:%s_toolchain_type" % kind,
            target_compatible_with = [":" + value],
        )
