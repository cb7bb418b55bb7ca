"""The compile action: one source, one chip, one artifact (`gpubuilder compile`)."""

load("//rules/private:context.bzl", "CUDA_TOOLCHAIN", "LLVM_TOOLCHAIN", "add_tools", "builder_args", "run_builder")
load("//rules/private:kinds_table.bzl", "KIND")

def pch_key(chip, opt_level, fast_math):
    """The key of a precompiled header in GpuPchInfo.pchs: what clang checks when it loads one.

    The chip; -O0 or not (`__OPTIMIZE__`: levels 1 to 3 share one PCH, which holds parsed
    declarations, not code); fast math (`__FAST_MATH__`). Flush-to-zero changes only code.

    Args:
      chip: the chip, e.g. "sm_90".
      opt_level: the optimisation level, 0 to 3.
      fast_math: whether the compile has fast math.

    Returns:
      The key, also the PCH's file name stem, e.g. "sm_90", "sm_90.O0.fast".
    """
    return chip + (".O0" if opt_level == 0 else "") + (".fast" if fast_math else "")

def emit_pch(gctx, *, chip, opt_level, fast_math, out, headers):
    """Declares one action that precompiles clang's CUDA headers for `chip` (`gpubuilder compile --format pch`).

    Args:
      gctx: the gpu_context (its `cuda` toolkit, whose headers the PCH holds, and `llvm`'s clang).
      chip: the chip, e.g. "sm_90".
      opt_level: the optimisation level it is made at (any of the levels its key covers).
      fast_math: whether it is made with fast math.
      out: the PCH File.
      headers: the File that lists the headers in it.
    """
    cuda = gctx.cuda
    args = builder_args(gctx)
    args.add("--chip", chip)
    args.add("--format", "pch")
    args.add("--toolkit", cuda.version)
    args.add("-O", str(opt_level))
    if fast_math:
        args.add("--fast")

    # What clang's driver looks for in a toolkit inside the build, as for a compile: bin/ (where
    # ptxas is), and what add_clang_cuda passes.
    tools = add_tools(args, gctx.llvm, ["clang"]) + add_tools(args, cuda, ["ptxas"])
    inputs = add_clang_cuda(args, cuda, gctx.llvm)
    args.add("--pch-headers", headers)
    args.add("-o", out)
    run_builder(
        gctx,
        "compile",
        args,
        inputs = depset(transitive = inputs),
        outputs = [out, headers],
        tools = tools,
        toolchain = LLVM_TOOLCHAIN,
        mnemonic = "GpuPch",
        progress_message = "Precompiling clang's CUDA headers for %s (%s)" % (chip, out.basename),
    )

def add_clang_cuda(args, cuda, llvm):
    """Passes what clang's driver reads of the toolkit and of clang itself for CUDA C++: libdevice, `--cuda-path`, and clang's resource directory where the toolchain has one inside the build (`--clang-resource-dir`).

    Args:
      args: the Args object.
      cuda: the CudaToolkitInfo.
      llvm: the LlvmToolchainInfo.

    Returns:
      A list of depsets: the files they name, for the action's inputs.
    """
    inputs = [cuda.cuda_files]
    if cuda.libdevice:
        args.add("--libdevice", cuda.libdevice)
        inputs.append(depset([cuda.libdevice]))
    if cuda.cuda_path:
        args.add("--cuda-path", cuda.cuda_path)
    if getattr(llvm, "resource_dir", ""):
        args.add("--clang-resource-dir", llvm.resource_dir)
        inputs.append(llvm.resource_files)
    return inputs

def _pch_of(opts, src, chip, format, rdc, nvcc):
    """The precompiled header a compile of `src` loads: for clang to PTX or a cubin, when the compile's only options are include directories; else None."""
    pchs = getattr(opts, "pch", None)
    if not pchs or KIND.get(src.extension.lower()) != "cuda" or nvcc or rdc or format not in ["isa", "bin"] or type(chip) == "list":
        return None
    project = opts.cuda
    if project and (project.defines or project.copts):
        return None  # macros and options that clang does not check against a PCH
    return pchs.get(pch_key(chip, opts.opt_level, opts.fast_math))

def emit_compile(gctx, *, srcs, chip, format, out, opts, origin = None, rdc = False, program = False):
    """Declares one action that compiles `srcs` for `chip` into `out`.

    Args:
      gctx: the gpu_context (its `cuda` toolkit; its `llvm` tools unless the source is PTX).
      srcs: the source Files: one .mlir, .ll, .bc, .ptx or .cu file, or several LLVM IR modules that
        the action links into one first (the device link of relocatable device code).
      chip: the chip, e.g. "sm_90"; None for format "llvm"; for an MLIR source to format "isa", a
        list of chips: one GpuLower action lowers the source and writes each chip's PTX (`gpubuilder
        compile --chips`), `out` then being the list of their Files (directories with `program`),
        in the chips' order, all in one directory (`gpubuilder compile --name`).
      format: "offload" (LLVM bitcode), "isa" (PTX), "bin" (cubin), or "llvm" (an MLIR source's
        LLVM IR, the same for every chip: one GpuLower action per module).
      out: the output File (a list of them for several chips: NAME.CHIP.ptx in one directory, in
        the order of `chip`; for a program, its directories NAME_modules/CHIP.ptx).
      opts: a struct with opt_level, fast_math, ftz, ptxas_opts, module, no_kernel_ok (accept a
        module without kernels: cuda_library's host code may only launch others'), and for CUDA C++ sources
        compiler ("clang" or "nvcc"), cuda: the project the source is compiled in (cc.bzl's
        cuda_compilation), and pch: GpuPchInfo.pchs, the precompiled headers a compile with clang
        loads (when its only options are include directories); all None for other sources.
      origin: the user's source File that `srcs` were made from, named in error messages.
      rdc: compile a CUDA C++ source as relocatable device code (format "offload": bitcode that
        another source's __device__ functions and variables can be linked with).
      program: every module of an MLIR program, each its own file (`gpubuilder compile --program`):
        `out` is a directory; `srcs` is the program (format "llvm") or the directory of its
        modules' LLVM IR or PTX.
    """
    src = srcs[0]
    cuda = gctx.cuda
    nvcc = KIND.get(src.extension.lower()) == "cuda" and opts.compiler == "nvcc"
    llvm = gctx.llvm if KIND.get(src.extension.lower()) != "ptx" and not nvcc else None
    args = builder_args(gctx)
    if origin:
        args.add("--origin", origin.short_path)
    several = type(chip) == "list"  # one lowering for several chips (gpubuilder compile --chips)
    lower = format == "llvm" or several
    outs = out if several else [out]
    if several:
        args.add("--chips", ",".join(chip))
        if not program:
            # NAME.CHIP.ptx, as every module's files are named; a program's are directories.
            args.add("--name", outs[0].basename[:-len(".%s.ptx" % chip[0])])
    elif chip:
        args.add("--chip", chip)
    args.add("--format", format)
    args.add("--toolkit", cuda.version)
    args.add("-O", str(opts.opt_level))
    if opts.fast_math:
        args.add("--fast")
    if opts.ftz:
        args.add("--ftz")
    if rdc:
        args.add("--rdc")
    if program:
        args.add("--program")
    if opts.no_kernel_ok:
        args.add("--no-kernel-ok")
    if opts.module and KIND.get(src.extension.lower()) == "mlir":
        args.add("--module", opts.module)
    if not lower:
        args.add_all(opts.ptxas_opts, before_each = "--ptxas-opt")
    tools = add_tools(args, cuda, ["ptxas", "nvcc"] if nvcc else ["ptxas"])
    if nvcc:
        args.add("--compiler", "nvcc")
    inputs = list(srcs)
    headers = []
    if llvm:
        tools += add_tools(args, llvm)
        if KIND.get(src.extension.lower()) == "cuda":
            headers += add_clang_cuda(args, cuda, llvm)
        elif cuda.libdevice:
            args.add("--libdevice", cuda.libdevice)
            inputs.append(cuda.libdevice)
    if opts.cuda and KIND.get(src.extension.lower()) == "cuda":
        project = opts.cuda
        args.add_all(project.defines, before_each = "-D")
        args.add_all(project.quote_includes, before_each = "-iquote")
        args.add_all(project.includes, before_each = "-I")
        args.add_all(project.system_includes, before_each = "-isystem")
        args.add_all(project.copts, format_each = ("--nvcc-opt=%s" if nvcc else "--clang-opt=%s"))
        headers.append(project.headers)
    pch = _pch_of(opts, src, chip, format, rdc, nvcc)
    if pch:
        args.add("--pch", pch.pch)
        args.add("--pch-headers", pch.headers)
        inputs += [pch.pch, pch.headers]
    args.add("-o", outs[0].dirname if several else out.path)
    args.add_all(srcs, expand_directories = False)
    run_builder(
        gctx,
        "compile",
        args,
        inputs = depset(inputs, transitive = ([cuda.cuda_files] if KIND.get(src.extension.lower()) == "cuda" else []) + headers),
        outputs = outs,
        tools = tools,
        # Lowering runs LLVM's tools alone; a compile ends with the toolkit's ptxas (or its PTX).
        toolchain = LLVM_TOOLCHAIN if lower else CUDA_TOOLCHAIN,
        mnemonic = "GpuLower" if lower else "GpuCompile",
        progress_message = ("Lowering %%{label} to %s (%s)" % ("PTX for " + ", ".join(chip) if several else "LLVM IR", src.short_path)) if lower else ("Compiling %%{label} for %s (%s, %s)" % (chip, format, (origin or src).short_path if len(srcs) == 1 else "device link of %d sources" % len(srcs))),
    )
