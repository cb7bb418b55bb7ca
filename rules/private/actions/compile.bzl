"""The compile action: one source, one chip, one artifact (`gpubuild compile`)."""

load("//rules/private:labels.bzl", "display_label")

def emit_compile(ctx, *, gpubuild, cuda, llvm, src, chip, format, out, opts, origin = None):
    """Declares one action that compiles `src` for `chip` into `out`.

    Args:
      ctx: the rule context.
      gpubuild: the helper binary (FilesToRunProvider).
      cuda: the resolved CUDA toolchain (ToolchainInfo).
      llvm: the resolved LLVM toolchain (ToolchainInfo), or None for PTX sources.
      src: the source File (.mlir, .ll, .bc, .ptx or .cu).
      chip: the chip, e.g. "sm_90"; None for format "llvm".
      format: "offload" (LLVM bitcode), "isa" (PTX), "bin" (cubin), or "llvm" (an MLIR source's
        LLVM IR, the same for every chip: one GpuLower action per module).
      out: the output File.
      opts: a struct with opt_level, fast_math, ftz, ptxas_opts, module.
      origin: the user's source File that `src` was made from, named in error messages.
    """
    args = ctx.actions.args()
    args.use_param_file("--params=%s", use_always = False)
    args.set_param_file_format("multiline")
    args.add("--target", display_label(ctx.label))
    if origin:
        args.add("--origin", origin.short_path)
    if chip:
        args.add("--chip", chip)
    args.add("--format", format)
    args.add("--toolkit", cuda.version)
    args.add("-O", str(opts.opt_level))
    if opts.fast_math:
        args.add("--fast")
    if opts.ftz:
        args.add("--ftz")
    if opts.module and src.extension == "mlir":
        args.add("--module", opts.module)
    args.add_all(opts.ptxas_opts, before_each = "--ptxas_opt")
    tools = [cuda.tools["ptxas"]]
    args.add("--ptxas", cuda.tools["ptxas"])
    inputs = [src]
    if llvm:
        for flag, name in [("--llc", "llc"), ("--opt", "opt"), ("--llvm-link", "llvm_link"), ("--clang", "clang"), ("--mlir-opt", "mlir_opt"), ("--mlir-translate", "mlir_translate")]:
            if name in llvm.tools:
                args.add(flag, llvm.tools[name])
                tools.append(llvm.tools[name])
        if cuda.libdevice:
            args.add("--libdevice", cuda.libdevice)
            inputs.append(cuda.libdevice)
        if cuda.cuda_path and src.extension == "cu":
            args.add("--cuda-path", cuda.cuda_path)
    args.add("--out", out)
    args.add(src)
    ctx.actions.run(
        executable = gpubuild,
        arguments = ["compile", args],
        inputs = depset(inputs, transitive = [cuda.cuda_files] if src.extension == "cu" else []),
        tools = tools,
        outputs = [out],
        mnemonic = "GpuLower" if format == "llvm" else "GpuCompile",
        progress_message = ("Lowering %%{label} to LLVM IR (%s)" % src.short_path) if format == "llvm" else ("Compiling %%{label} for %s (%s, %s)" % (chip, format, (origin or src).short_path)),
    )
