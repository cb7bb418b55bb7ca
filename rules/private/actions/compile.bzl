"""The compile actions (`gpubuilder compile`): GpuLower, a module lowered once for every chip; GpuCompile, one chip's artifact; GpuDeviceLink (`gpubuilder dlink`), nvcc's relocatable cubins of one chip linked."""

load("//rules/private:context.bzl", "CUDA_TOOLCHAIN", "LLVM_TOOLCHAIN", "add_tools", "builder_args", "run_builder")
load("//rules/private:kinds_table.bzl", "kind_of")

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
    if not pchs or kind_of(src) != "cuda" or nvcc or rdc or opts.debug or format not in ["isa", "bin"]:
        return None
    project = opts.cuda
    if project and (project.defines or project.copts):
        return None  # macros and options that clang does not check against a PCH
    return pchs.get(pch_key(chip, opts.opt_level, opts.fast_math))

def emit_lower(gctx, *, src, name, chips, outs, opts, program = False):
    """Declares the one GpuLower action of an MLIR module or program: lowered once for every chip.

    With `chips`, MLIR's own serializer writes each chip's PTX (`gpubuilder compile --chips`:
    nvvm-attach-target per chip, gpu-module-to-binary); without, the device code's LLVM IR, the same
    for every chip, which each chip's GpuCompile then compiles (fast math, ftz, offload).

    Args:
      gctx: the gpu_context (its `llvm` tools).
      src: the MLIR source File.
      name: the stem of the output files (`NAME.CHIP.ptx`), as the plan declared them.
      chips: the chips whose PTX to write, or None for LLVM IR.
      outs: the output Files: one per chip in `chips`' order, in one directory (a directory each for a
        program), or the one LLVM IR File (directory).
      opts: the compile options (emit_compile's).
      program: every module of an MLIR program, each its own file (`gpubuilder compile --program`).
    """
    args, inputs, tools = _compile_args(
        gctx,
        srcs = [src],
        origin = None,
        chips = chips,
        name = name if chips and not program else None,
        format = "isa" if chips else "llvm",
        opts = opts,
        program = program,
        lower = True,
    )
    args.add("-o", outs[0].dirname if chips else outs[0].path)
    args.add_all([src], expand_directories = False)
    run_builder(
        gctx,
        "compile",
        args,
        inputs = inputs,
        outputs = outs,
        tools = tools,
        # Lowering runs LLVM's tools alone.
        toolchain = LLVM_TOOLCHAIN,
        mnemonic = "GpuLower",
        progress_message = "Lowering %%{label} to %s (%s)" % ("PTX for " + ", ".join(chips) if chips else "LLVM IR", src.short_path),
    )

def emit_compile(gctx, *, srcs, chip, format, out, opts, origin = None, rdc = False, program = False):
    """Declares one GpuCompile action: `srcs` compiled for one chip into `out`.

    Args:
      gctx: the gpu_context (its `cuda` toolkit; its `llvm` tools unless the source is PTX).
      srcs: the source Files: one .mlir, .ll, .bc, .ptx or .cu file, or several LLVM IR modules that
        the action links into one first (the device link of relocatable device code); for a program,
        the directory of its modules' LLVM IR or PTX.
      chip: the chip, e.g. "sm_90".
      format: "offload" (LLVM bitcode), "isa" (PTX) or "bin" (cubin).
      out: the output File (for a program, the directory of its modules' files).
      opts: a struct with opt_level, fast_math, ftz, debug ("", "lines" or "full"), ptxas_opts, ptx_isa ("" for the chip's lowest), module, no_kernel_ok (accept a
        module without kernels: cuda_library's host code may only launch others'), and for CUDA C++ sources
        compiler ("clang" or "nvcc"), cuda: the project the source is compiled in (cc.bzl's
        cuda_compilation), and pch: GpuPchInfo.pchs, the precompiled headers a compile with clang
        loads (when its only options are include directories); all None for other sources.
      origin: the user's source File that `srcs` were made from, named in error messages.
      rdc: compile a CUDA C++ source as relocatable device code (with clang, format "offload":
        bitcode that another source's __device__ functions and variables can be linked with; with
        nvcc, format "bin": a relocatable cubin, for emit_device_link).
      program: every module of an MLIR program, each its own file (`gpubuilder compile --program`).
    """
    src = srcs[0]
    nvcc = kind_of(src) == "cuda" and opts.compiler == "nvcc"
    args, inputs, tools = _compile_args(gctx, srcs = srcs, origin = origin, chips = [chip], name = None, format = format, opts = opts, program = program, lower = False, rdc = rdc)
    pch = _pch_of(opts, src, chip, format, rdc, nvcc)
    if pch:
        args.add("--pch", pch.pch)
        args.add("--pch-headers", pch.headers)
        inputs = depset([pch.pch, pch.headers], transitive = [inputs])
    args.add("-o", out.path)
    args.add_all(srcs, expand_directories = False)
    run_builder(
        gctx,
        "compile",
        args,
        inputs = inputs,
        outputs = [out],
        tools = tools,
        # A compile ends with the toolkit's ptxas (or its PTX).
        toolchain = CUDA_TOOLCHAIN,
        mnemonic = "GpuCompile",
        progress_message = "Compiling %%{label} for %s (%s, %s)" % (chip, format, (origin or src).short_path if len(srcs) == 1 else "device link of %d sources" % len(srcs)),
    )

def emit_device_link(gctx, *, cubins, chip, out, srcs):
    """Declares one GpuDeviceLink action: nvcc's relocatable cubins of a module's sources linked for `chip` by nvlink.

    Args:
      gctx: the gpu_context (its `cuda` toolkit's nvlink).
      cubins: the relocatable cubin Files (emit_compile with `rdc` and nvcc, format "bin").
      chip: the chip, e.g. "sm_90".
      out: the linked cubin File.
      srcs: the sources the cubins were compiled from, named in error messages.
    """
    args = builder_args(gctx)
    tools = add_tools(args, gctx.cuda, ["nvlink"])
    args.add("--chip", chip)
    args.add_all(srcs, before_each = "--origin", map_each = _short_path)
    args.add("-o", out)
    args.add_all(cubins)
    run_builder(
        gctx,
        "dlink",
        args,
        inputs = cubins,
        outputs = [out],
        tools = tools,
        toolchain = CUDA_TOOLCHAIN,
        mnemonic = "GpuDeviceLink",
        progress_message = "Linking the device code of %%{label} for %s (%d sources)" % (chip, len(cubins)),
    )

def _short_path(f):
    return f.short_path

def _compile_args(gctx, *, srcs, origin, chips, name, format, opts, program, lower, rdc = False):
    """The arguments, inputs and tools that GpuLower and GpuCompile share, up to `-o`.

    Returns:
      (Args, depset of input Files, list of tools).
    """
    src = srcs[0]
    cuda = gctx.cuda
    kind = kind_of(src)
    nvcc = kind == "cuda" and opts.compiler == "nvcc"
    llvm = gctx.llvm if kind != "ptx" and not nvcc else None
    args = builder_args(gctx)
    if origin:
        args.add("--origin", origin.short_path)
    if lower and chips:
        args.add("--chips", ",".join(chips))
        if name:
            args.add("--name", name)
    elif not lower:
        args.add("--chip", chips[0])
    args.add("--format", format)
    args.add("--toolkit", cuda.version)
    if opts.ptx_isa:
        args.add("--ptx", opts.ptx_isa)
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
    if opts.module and kind == "mlir":
        args.add("--module", opts.module)
        args.add("--module-is-attribute")
    if not lower:
        if opts.debug:
            args.add("--debug", opts.debug)
        args.add_all(opts.ptxas_opts, before_each = "--ptxas-opt")
    tools = add_tools(args, cuda, ["ptxas", "nvcc"] if nvcc else ["ptxas"])
    if nvcc:
        args.add("--compiler", "nvcc")
        if opts.arch_list:
            args.add("--arch-list", ",".join(opts.arch_list))
    inputs = list(srcs)
    headers = []
    if llvm:
        tools += add_tools(args, llvm)
        if kind == "cuda":
            headers += add_clang_cuda(args, cuda, llvm)
        elif cuda.libdevice:
            args.add("--libdevice", cuda.libdevice)
            inputs.append(cuda.libdevice)
    if opts.cuda and kind == "cuda":
        project = opts.cuda
        args.add_all(project.defines, before_each = "-D")
        args.add_all(project.quote_includes, before_each = "-iquote")
        args.add_all(project.includes, before_each = "-I")
        args.add_all(project.system_includes, before_each = "-isystem")
        args.add_all(project.copts, format_each = ("--nvcc-opt=%s" if nvcc else "--clang-opt=%s"))
        headers.append(project.headers)
    return args, depset(inputs, transitive = ([cuda.cuda_files] if kind == "cuda" else []) + headers), tools
