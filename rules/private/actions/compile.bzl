"""The compile action: one source, one chip, one artifact (`gpubuild compile`)."""

def emit_compile(ctx, *, gpubuild, toolchain, src, chip, out):
    """Declares one action that compiles `src` for `chip` into `out`.

    Args:
      ctx: the rule context.
      gpubuild: the helper binary (FilesToRunProvider).
      toolchain: the resolved CUDA toolchain (ToolchainInfo).
      src: the source File (.ptx).
      chip: the chip, e.g. "sm_90".
      out: the output File (.cubin).
    """
    ptxas = toolchain.tools["ptxas"]
    args = ctx.actions.args()
    args.use_param_file("--params=%s", use_always = False)
    args.set_param_file_format("multiline")
    args.add("--target", str(ctx.label))
    args.add("--chip", chip)
    args.add("--ptxas", ptxas)
    args.add("--toolkit", toolchain.version)
    args.add("--out", out)
    args.add(src)
    ctx.actions.run(
        executable = gpubuild,
        arguments = ["compile", args],
        inputs = [src],
        tools = [ptxas],
        outputs = [out],
        mnemonic = "GpuCompile",
        progress_message = "Compiling %%{label} for %s (%s)" % (chip, src.short_path),
    )
