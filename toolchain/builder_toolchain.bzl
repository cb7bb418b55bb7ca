"""The `gpu_builder_toolchain` rule: rules_gpu's action helper, as a toolchain of `//toolchain:builder_toolchain_type`."""

load("//rules:defs.bzl", "GpuBuilderInfo")

def _gpu_builder_toolchain_impl(ctx):
    builder = GpuBuilderInfo(executable = ctx.attr.builder[DefaultInfo].files_to_run)
    return [platform_common.ToolchainInfo(builder = builder), builder]

gpu_builder_toolchain = rule(
    implementation = _gpu_builder_toolchain_impl,
    doc = """The program every rules_gpu action runs: returns `ToolchainInfo(builder = GpuBuilderInfo(...))`.

rules_gpu registers one, `@rules_gpu//toolchain:builder`, built from source for the execution
platform (`@rules_gpu//tools/cmd/gpubuilder`); a repository may register its own first, such as a
prebuilt helper.""",
    attrs = {
        "builder": attr.label(
            mandatory = True,
            executable = True,
            cfg = "exec",
            doc = "The action helper: `gpubuilder`, or a program with its verbs and flags.",
        ),
    },
)
