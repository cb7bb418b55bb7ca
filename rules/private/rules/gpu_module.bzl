"""The `gpu_module` rule."""

load("//rules/private:providers.bzl", "GpuModuleInfo")
load("//rules/private/actions:compile.bzl", "emit_compile")

_CUDA_TOOLCHAIN = Label("//toolchain:cuda_toolchain_type")

def _gpu_module_impl(ctx):
    toolchain = ctx.toolchains[_CUDA_TOOLCHAIN]
    if toolchain.missing:
        fail("%s: %s" % (ctx.label, toolchain.missing))
    if "ptxas" not in toolchain.tools:
        fail("%s: the CUDA toolkit at %s has no ptxas" % (ctx.label, toolchain.root))
    if not ctx.attr.chips:
        fail("%s: chips is empty; name at least one chip, e.g. chips = [\"sm_90\"]" % ctx.label)
    seen = {}
    for chip in ctx.attr.chips:
        if chip in seen:
            fail("%s: chip %s is listed twice in chips" % (ctx.label, chip))
        seen[chip] = True
    if len(ctx.files.srcs) != 1:
        fail("%s: srcs must hold exactly one source file, got %d" % (ctx.label, len(ctx.files.srcs)))
    src = ctx.files.srcs[0]
    files_by_chip = {}
    for chip in ctx.attr.chips:
        out = ctx.actions.declare_file("%s.%s.cubin" % (ctx.label.name, chip))
        emit_compile(
            ctx,
            gpubuild = ctx.executable._gpubuild,
            toolchain = toolchain,
            src = src,
            chip = chip,
            out = out,
        )
        files_by_chip[chip] = out
    files = [files_by_chip[c] for c in ctx.attr.chips]
    return [
        DefaultInfo(files = depset(files)),
        GpuModuleInfo(chips = list(ctx.attr.chips), format = "bin", files_by_chip = files_by_chip),
    ]

gpu_module = rule(
    implementation = _gpu_module_impl,
    doc = """Compiles GPU code for a list of chips, one Bazel action per chip.

Each chip's artifact is built by its own action, so adding a chip to a target runs one more action and
leaves the others cached.""",
    attrs = {
        "chips": attr.string_list(
            doc = "The chips to build for, e.g. `[\"sm_80\", \"sm_90\"]`; one artifact each.",
        ),
        "srcs": attr.label_list(
            allow_files = [".ptx"],
            mandatory = True,
            doc = "The kernel source: one PTX file.",
        ),
        "_gpubuild": attr.label(
            default = Label("//tools/cmd/gpubuild"),
            executable = True,
            cfg = "exec",
        ),
    },
    toolchains = [_CUDA_TOOLCHAIN],
)
