"""The CUDA toolchain's libraries as `CcInfo`: its runtime (`cuda_runtime`) and the rest (`cuda_toolkit_library`)."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//cuda:libraries_table.bzl", "CUDA_LIBRARIES", "MISSING")
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

def _cuda_toolkit_library_impl(ctx):
    cuda = ctx.toolchains[CUDA_TOOLCHAIN].cuda
    label = display_label(ctx.label)
    if cuda.missing:
        fail("%s: %s" % (label, cuda.missing))
    lib = CUDA_LIBRARIES[ctx.attr.library]

    def missing(what, fix):
        fail(MISSING.format(label = label, toolkit = cuda.root, what = what, fix = fix))

    if ctx.attr.library not in cuda.library_headers:
        missing(lib.what_headers, lib.fix_headers)
    include = cuda.library_headers[ctx.attr.library]
    if include and not include.startswith("/"):
        include = cuda.cuda_path + "/" + include  # inside the toolkit (an archive's include/cccl)
    system_includes = ([cuda.cuda_path + "/include"] if cuda.cuda_path else []) + ([include] if include else [])
    compilation_context = cc_common.create_compilation_context(
        headers = cuda.cuda_files,
        system_includes = depset(system_includes),
    )
    static = lib.static and (ctx.attr._link[BuildSettingInfo].value == "static" or not lib.shared)
    deps = ctx.attr.deps + (ctx.attr.static_deps if static else [])
    files = []
    if static:
        for name in lib.static:
            files.append(cuda.libraries.get(name) or missing(lib.what_static, lib.fix_static))
    elif lib.shared:
        files.append(cuda.libraries.get(lib.shared) or missing(lib.what_shared, lib.fix_shared))
    linker_inputs = []
    if files:
        linker_inputs.append(cc_common.create_linker_input(
            owner = ctx.label,
            # The archives themselves, in the table's order, then what they need of the system; a
            # shared library by its path, so that no -L reaches the link (a C++ toolchain's sysroot
            # hides the toolkit's directory from -l).
            user_link_flags = depset([f.path for f in files] + (lib.system if static else [])),
            additional_inputs = depset(files),
        ))
    own = CcInfo(
        compilation_context = compilation_context,
        linking_context = cc_common.create_linking_context(linker_inputs = depset(linker_inputs)),
    )
    return [
        DefaultInfo(files = depset(files)),
        cc_common.merge_cc_infos(direct_cc_infos = [own], cc_infos = [d[CcInfo] for d in deps]),
    ]

cuda_toolkit_library = rule(
    implementation = _cuda_toolkit_library_impl,
    doc = """A library of the CUDA toolchain's toolkit (cuBLAS, cuFFT, ...), for host code to link: `@rules_gpu//cuda:NAME`.

Its headers, and its static archives with what they need (the libraries of the table and the system's
`-lpthread -ldl -lrt`) unless `--@rules_gpu//gpu:toolkit_libraries=shared` asks for its shared
library, which every machine that runs the program must then have. A library the toolkit lacks fails
at analysis, naming the files and where they come from (docs/cuda-libraries.md).""",
    attrs = {
        "deps": attr.label_list(providers = [CcInfo], doc = "The libraries this one needs, static or shared (the table's `deps`; the CUDA runtime)."),
        "library": attr.string(mandatory = True, values = CUDA_LIBRARIES.keys(), doc = "The library's name in the table (cuda/libraries_table.bzl)."),
        "static_deps": attr.label_list(providers = [CcInfo], doc = "What only its static archives need (the table's `static_deps`)."),
        "_link": attr.label(default = Label("//gpu:toolkit_libraries")),
    },
    toolchains = [CUDA_TOOLCHAIN],
)
