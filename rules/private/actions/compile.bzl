"""The compile action: one source, one chip, one artifact (`gpubuild compile`)."""

load("//rules/private:context.bzl", "CUDA_TOOLCHAIN", "LLVM_TOOLCHAIN", "add_tools", "gpubuild_args", "run_gpubuild")

def emit_compile(gctx, *, src, chip, format, out, opts, origin = None):
    """Declares one action that compiles `src` for `chip` into `out`.

    Args:
      gctx: the gpu_context (its `cuda` toolkit; its `llvm` tools unless `src` is PTX).
      src: the source File (.mlir, .ll, .bc, .ptx or .cu).
      chip: the chip, e.g. "sm_90"; None for format "llvm".
      format: "offload" (LLVM bitcode), "isa" (PTX), "bin" (cubin), or "llvm" (an MLIR source's
        LLVM IR, the same for every chip: one GpuLower action per module).
      out: the output File.
      opts: a struct with opt_level, fast_math, ftz, ptxas_opts, module.
      origin: the user's source File that `src` was made from, named in error messages.
    """
    cuda = gctx.cuda
    llvm = gctx.llvm if src.extension != "ptx" else None
    args = gpubuild_args(gctx)
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
    args.add_all(opts.ptxas_opts, before_each = "--ptxas-opt")
    tools = add_tools(args, cuda, ["ptxas"])
    inputs = [src]
    if llvm:
        tools += add_tools(args, llvm)
        if cuda.libdevice:
            args.add("--libdevice", cuda.libdevice)
            inputs.append(cuda.libdevice)
        if cuda.cuda_path and src.extension == "cu":
            args.add("--cuda-path", cuda.cuda_path)
    args.add("-o", out)
    args.add(src)
    lower = format == "llvm"
    run_gpubuild(
        gctx,
        "compile",
        args,
        inputs = depset(inputs, transitive = [cuda.cuda_files] if src.extension == "cu" else []),
        outputs = [out],
        tools = tools,
        # Lowering runs LLVM's tools alone; a compile ends with the toolkit's ptxas (or its PTX).
        toolchain = LLVM_TOOLCHAIN if lower else CUDA_TOOLCHAIN,
        mnemonic = "GpuLower" if lower else "GpuCompile",
        progress_message = ("Lowering %%{label} to LLVM IR (%s)" % src.short_path) if lower else ("Compiling %%{label} for %s (%s, %s)" % (chip, format, (origin or src).short_path)),
    )
