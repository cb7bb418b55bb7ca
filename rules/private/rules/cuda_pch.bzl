"""`cuda_pch`: the precompiled headers of clang's CUDA headers, one per chip and set of language options, shared by every CUDA C++ compile of a configuration."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("//rules/private:chip_table.bzl", "CHIPS", "UNSUPPORTED")
load("//rules/private:context.bzl", "BUILDER_ATTRS", "BUILDER_TOOLCHAIN", "CUDA_TOOLCHAIN", "LLVM_TOOLCHAIN", "gpu_context")
load("//rules/private:providers.bzl", "GpuPchInfo")
load("//rules/private/actions:compile.bzl", "emit_pch", "pch_key")

def _cuda_pch_impl(ctx):
    gctx = gpu_context(ctx)
    cuda, llvm = gctx.cuda, gctx.llvm
    if not ctx.attr._enabled[BuildSettingInfo].value or cuda.missing or not llvm or llvm.missing or "clang" not in llvm.tools:
        return [GpuPchInfo(pchs = {})]
    pchs = {}
    for chip in CHIPS:
        if chip in UNSUPPORTED.get(cuda.version, {}):
            continue
        for opt_level in [0, 2]:
            for fast_math in [False, True]:
                key = pch_key(chip, opt_level, fast_math)
                pch = ctx.actions.declare_file("pch/%s.pch" % key)
                headers = ctx.actions.declare_file("pch/%s.pch.headers" % key)
                emit_pch(gctx, chip = chip, opt_level = opt_level, fast_math = fast_math, out = pch, headers = headers)
                pchs[key] = struct(pch = pch, headers = headers)
    return [GpuPchInfo(pchs = pchs)]

cuda_pch = rule(
    implementation = _cuda_pch_impl,
    doc = """Precompiled headers of the headers clang includes into every CUDA C++ source (its CUDA wrapper
headers, the toolkit's runtime and math headers, libstdc++'s math), one per chip, `-O0` or not and fast math:
what clang checks when it loads one. Every `gpu_module` and `cuda_library` of a configuration depends
on the one target of this rule, `@rules_gpu//rules/private:cuda_pch`; a PCH is made only when a compile loads it
(one `GpuPch` action per chip and option set in the build), and saves that compile the ~270 ms of
parsing the headers again (docs/compile.md). `--@rules_gpu//gpu:pch=false` turns them off.""",
    attrs = dict(BUILDER_ATTRS, **{
        "_enabled": attr.label(default = Label("//gpu:pch")),
    }),
    toolchains = [
        BUILDER_TOOLCHAIN,
        CUDA_TOOLCHAIN,
        config_common.toolchain_type(LLVM_TOOLCHAIN, mandatory = False),
    ],
)
