"""rules_gpu: the public Starlark surface. Load everything from here.

```starlark
load("@rules_gpu//rules:defs.bzl", "gpu_module")

gpu_module(
    name = "saxpy",
    srcs = ["saxpy.ptx"],
    chips = ["sm_80", "sm_90"],
)
```
"""

load("//rules/private:providers.bzl", _GpuModuleInfo = "GpuModuleInfo")
load("//rules/private/rules:gpu_module.bzl", _gpu_module = "gpu_module")

gpu_module = _gpu_module
GpuModuleInfo = _GpuModuleInfo
