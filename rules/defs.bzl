"""rules_gpu: the public Starlark surface. Load everything from here.

```starlark
load("@rules_gpu//rules:defs.bzl", "cuda_library", "cuda_objects", "cuda_test", "gpu_cc_library", "gpu_cc_test", "gpu_go_library", "gpu_module", "gpu_test")

gpu_module(
    name = "saxpy",
    srcs = ["saxpy.ptx"],
    chips = ["sm_80", "sm_90"],
)

# The fatbin inside host programs:
gpu_go_library(name = "saxpy_go", module = ":saxpy", importpath = "example.com/saxpy")
gpu_cc_library(name = "saxpy_cc", module = ":saxpy")

# CUDA C++ with host code, as a C++ library; a test that needs a GPU:
cuda_library(name = "kernels", srcs = ["a.cu", "b.cu"], hdrs = ["kernels.h"], chips = ["sm_80", "sm_90"], rdc = True)
# Objects another target links (rules_cuda's cuda_objects): the library above, with deps = [":math"]
# and rdc, links math's __device__ functions into its own module per chip.
cuda_objects(name = "math", srcs = ["math.cu"], hdrs = ["math.h"], chips = ["sm_80", "sm_90"])
gpu_cc_test(name = "kernels_test", srcs = ["kernels_test.cc"], deps = [":kernels"], runs_on = ["sm_90"])
# rules_cuda's cuda_test (and cuda_binary): a cuda_library NAME_lib and a gpu_cc_test over it.
cuda_test(name = "main_test", srcs = ["main_test.cu"], chips = ["sm_90"], runs_on = ["sm_90"])

# A whole MLIR program (host code and kernels), its output checked against its // CHECK lines.
gpu_test(name = "add_test", src = "add.mlir", chips = ["sm_80", "sm_90"], runs_on = ["sm_90"])
```
"""

load("//rules/private:enable.bzl", _requires_cuda = "requires_cuda")
load(
    "//rules/private:providers.bzl",
    _CudaObjectsInfo = "CudaObjectsInfo",
    _CudaToolkitInfo = "CudaToolkitInfo",
    _GpuBuilderInfo = "GpuBuilderInfo",
    _GpuModuleInfo = "GpuModuleInfo",
    _LlvmToolchainInfo = "LlvmToolchainInfo",
)
load("//rules/private/rules:cuda_library.bzl", _cuda_library = "cuda_library", _cuda_objects = "cuda_objects")
load("//rules/private/rules:cuda_programs.bzl", _cuda_binary = "cuda_binary", _cuda_test = "cuda_test")
load("//rules/private/rules:cuda_runtime.bzl", _cuda_runtime = "cuda_runtime", _cuda_toolkit_library = "cuda_toolkit_library")
load("//rules/private/rules:gpu_embed.bzl", _gpu_cc_library = "gpu_cc_library", _gpu_go_library = "gpu_go_library")
load("//rules/private/rules:gpu_module.bzl", _gpu_module = "gpu_module")
load("//rules/private/rules:gpu_program.bzl", _gpu_binary = "gpu_binary", _gpu_test = "gpu_test")
load("//rules/private/rules:gpu_test.bzl", _gpu_cc_test = "gpu_cc_test")
load("//rules/private/rules:openmp.bzl", _openmp_runtime = "openmp_runtime")

gpu_module = _gpu_module
cuda_library = _cuda_library
cuda_objects = _cuda_objects
cuda_binary = _cuda_binary
cuda_test = _cuda_test
cuda_runtime = _cuda_runtime
cuda_toolkit_library = _cuda_toolkit_library
openmp_runtime = _openmp_runtime
gpu_cc_test = _gpu_cc_test
gpu_binary = _gpu_binary
gpu_test = _gpu_test
gpu_go_library = _gpu_go_library
gpu_cc_library = _gpu_cc_library
requires_cuda = _requires_cuda
GpuModuleInfo = _GpuModuleInfo
CudaObjectsInfo = _CudaObjectsInfo
CudaToolkitInfo = _CudaToolkitInfo
GpuBuilderInfo = _GpuBuilderInfo
LlvmToolchainInfo = _LlvmToolchainInfo
