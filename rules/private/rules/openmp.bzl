"""LLVM's OpenMP runtime as `CcInfo`, for host code that clang compiles with `-fopenmp` (`openmp_runtime`)."""

load("@rules_cc//cc:find_cc_toolchain.bzl", "use_cc_toolchain")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//rules/private:cc.bzl", "cc_features")
load("//rules/private:context.bzl", "LLVM_TOOLCHAIN")
load("//rules/private:labels.bzl", "display_label")
load("//rules/private:providers.bzl", "OpenMPInfo")

def _openmp_runtime_impl(ctx):
    llvm = ctx.toolchains[LLVM_TOOLCHAIN]
    llvm = llvm.llvm if llvm else None
    missing = ""
    if not llvm or llvm.missing:
        missing = llvm.missing if llvm else "no LLVM toolchain is registered"
    elif not llvm.openmp:
        missing = "the LLVM toolchain (%s) has no OpenMP runtime (lib/libomp.so.5 beside its bin/)" % llvm.root
    if missing:
        missing = "%s; OpenMP host code (-fopenmp) is compiled by clang, whose code calls LLVM's runtime: install it (Debian's and Ubuntu's libomp-%s-dev)" % (missing, llvm.version if llvm and llvm.version else "N")
        if ctx.attr.required:
            fail("%s: %s" % (display_label(ctx.label), missing))
        return [OpenMPInfo(cc_info = None, missing = missing)]

    # A shared library to link by its soname: the program needs libomp.so.5, and Bazel puts this
    # copy in its runfiles and its RPATH, so that it starts on runners that have no OpenMP runtime
    # (the runner ABI check counts it as shipped, and checks what it needs of the C library).
    cc_toolchain, features = cc_features(ctx)
    library = cc_common.create_library_to_link(
        actions = ctx.actions,
        feature_configuration = features,
        cc_toolchain = cc_toolchain,
        dynamic_library = llvm.openmp,
    )
    cc_info = CcInfo(linking_context = cc_common.create_linking_context(linker_inputs = depset([
        cc_common.create_linker_input(owner = ctx.label, libraries = depset([library])),
    ])))
    return [
        DefaultInfo(files = depset([llvm.openmp])),
        cc_info,
        OpenMPInfo(cc_info = cc_info, missing = ""),
    ]

openmp_runtime = rule(
    implementation = _openmp_runtime_impl,
    doc = """LLVM's OpenMP runtime (`libomp.so.5`) of the LLVM toolchain, for host code compiled by clang with `-fopenmp`: `@rules_gpu//cuda:openmp`.

clang's OpenMP code calls LLVM's runtime (GCC's libgomp cannot run it), whose `omp.h` is in clang's
resource directory. The runtime is a shared library that travels with the program in its runfiles,
so that the program starts on runners without one. A `cuda_library` whose `host_copts` (or, with
nvcc, `copts`) hold `-fopenmp` links it by itself.""",
    attrs = {
        "required": attr.bool(default = True, doc = "Fail at analysis when the toolchain has no runtime; else return an `OpenMPInfo` that says why (what `cuda_library` reads, to fail only when it is asked for OpenMP)."),
    },
    fragments = ["cpp"],
    toolchains = use_cc_toolchain() + [config_common.toolchain_type(LLVM_TOOLCHAIN, mandatory = False)],
)
