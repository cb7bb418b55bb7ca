"""The `cuda_runtime` rule: the CUDA toolchain's runtime library (cudart) as `CcInfo`."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//rules/private:context.bzl", "CUDA_TOOLCHAIN")
load("//rules/private:labels.bzl", "display_label")

# What the static runtime needs of the system, as NVIDIA documents for libcudart_static.a.
_STATIC_SYSTEM_LIBS = ["-ldl", "-lpthread", "-lrt"]

def _cuda_runtime_impl(ctx):
    cuda = ctx.toolchains[CUDA_TOOLCHAIN].cuda
    label = display_label(ctx.label)
    if cuda.missing:
        fail("%s: %s" % (label, cuda.missing))
    kind = ctx.attr._link[BuildSettingInfo].value
    lib = cuda.cudart_static if kind == "static" else cuda.cudart_shared
    if not lib:
        fail("%s: the CUDA toolchain (%s) has no %s CUDA runtime (%s); install the toolkit's cudart (NVIDIA's cuda_cudart archive, Debian's libcudart12 and nvidia-cuda-dev), or set --@rules_gpu//gpu:cudart=%s" % (
            label,
            cuda.root,
            kind,
            "libcudart_static.a" if kind == "static" else "libcudart.so",
            "shared" if kind == "static" else "static",
        ))
    if kind == "static":
        flags = [lib.path] + _STATIC_SYSTEM_LIBS
    else:
        flags = ["-L" + lib.dirname, "-lcudart"]
    linker_input = cc_common.create_linker_input(
        owner = ctx.label,
        user_link_flags = depset(flags),
        additional_inputs = depset([lib]),
    )

    # The runtime API's headers (cuda_runtime.h): those of a toolkit inside the build are inputs.
    compilation_context = cc_common.create_compilation_context(
        headers = cuda.cuda_files,
        system_includes = depset([cuda.cuda_path + "/include"] if cuda.cuda_path else []),
    )
    return [
        DefaultInfo(files = depset([lib])),
        CcInfo(
            compilation_context = compilation_context,
            linking_context = cc_common.create_linking_context(linker_inputs = depset([linker_input])),
        ),
    ]

cuda_runtime = rule(
    implementation = _cuda_runtime_impl,
    doc = """The CUDA runtime library of the CUDA toolchain, for host code to link.

Static (`libcudart_static.a` with `-ldl -lpthread -lrt`, as NVIDIA documents) unless
`--@rules_gpu//gpu:cudart=shared` asks for `libcudart.so`, which every machine that runs the program
must then have in its library path. A static runtime makes a program that needs only the driver
(`libcuda.so`) where it runs.""",
    attrs = {
        "_link": attr.label(default = Label("//gpu:cudart")),
    },
    toolchains = [CUDA_TOOLCHAIN],
)
