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
      opts: a struct with opt_level, fast_math, ftz, ptxas_opts, module, and for CUDA C++ sources
        compiler ("clang" or "nvcc") and cuda: the project the source is compiled in (cc.bzl's
        cuda_compilation); both None for other sources.
      origin: the user's source File that `src` was made from, named in error messages.
    """
    cuda = gctx.cuda
    nvcc = src.extension == "cu" and opts.compiler == "nvcc"
    llvm = gctx.llvm if src.extension != "ptx" and not nvcc else None
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
    tools = add_tools(args, cuda, ["ptxas", "nvcc"] if nvcc else ["ptxas"])
    if nvcc:
        args.add("--compiler", "nvcc")
    inputs = [src]
    if llvm:
        tools += add_tools(args, llvm)
        if cuda.libdevice:
            args.add("--libdevice", cuda.libdevice)
            inputs.append(cuda.libdevice)
        if cuda.cuda_path and src.extension == "cu":
            args.add("--cuda-path", cuda.cuda_path)
    headers = []
    if opts.cuda and src.extension == "cu":
        project = opts.cuda
        args.add_all(project.defines, before_each = "-D")
        args.add_all(project.quote_includes, before_each = "-iquote")
        args.add_all(project.includes, before_each = "-I")
        args.add_all(project.system_includes, before_each = "-isystem")
        args.add_all(project.copts, format_each = ("--nvcc-opt=%s" if nvcc else "--clang-opt=%s"))
        headers.append(project.headers)
    args.add("-o", out)
    args.add(src)
    lower = format == "llvm"
    run_gpubuild(
        gctx,
        "compile",
        args,
        inputs = depset(inputs, transitive = ([cuda.cuda_files] if src.extension == "cu" else []) + headers),
        outputs = [out],
        tools = tools,
        # Lowering runs LLVM's tools alone; a compile ends with the toolkit's ptxas (or its PTX).
        toolchain = LLVM_TOOLCHAIN if lower else CUDA_TOOLCHAIN,
        mnemonic = "GpuLower" if lower else "GpuCompile",
        progress_message = ("Lowering %%{label} to LLVM IR (%s)" % src.short_path) if lower else ("Compiling %%{label} for %s (%s, %s)" % (chip, format, (origin or src).short_path)),
    )
