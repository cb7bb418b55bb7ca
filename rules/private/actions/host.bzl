"""The host side of CUDA C++: clang's or nvcc's host compile against a fatbin, and the registration of a device-linked one."""

load("//rules/private:context.bzl", "CUDA_TOOLCHAIN", "LLVM_TOOLCHAIN", "add_tools", "builder_args", "run_builder")

def emit_host_compile(gctx, *, src, out, fatbin, project, host_copts, opt, toolchain_flags = [], nvcc = None):
    """Declares the action that compiles the host side of `src` into the object `out` (`gpubuilder host`).

    Args:
      gctx: the gpu_context (its `llvm` clang, its `cuda` headers).
      src: the CUDA C++ source File.
      out: the object File (position-independent).
      fatbin: the fatbin File the object carries and registers with the CUDA runtime; None for
        relocatable device code, whose one fatbin the registration (emit_register) carries.
      project: cc.bzl's cuda_compilation struct (headers, include paths, defines).
      host_copts: extra options of the host compile.
      opt: the host optimisation options, e.g. ["-O2"].
      toolchain_flags: the C++ toolchain's options that choose the C library and target (its
        --sysroot, --gcc-toolchain, --target), so that the host objects and the rest of the program
        see the same headers.
      nvcc: None, and clang compiles the host side; or a struct, and nvcc does, as `nvcc -c` does
        (code written for nvcc): `ccbin` (the C++ toolchain's compiler, nvcc's host compiler),
        `cc_files` (depset of its files), `chip` (the lowest of the source's chips: nvcc's own
        front-end pass writes the kernels' registration for it), `arch_list` (every chip the
        source's device code is compiled for: the __CUDA_ARCH_LIST__ of its compiles).
        `project.copts` are then nvcc's options, and `host_copts`, `opt` and `toolchain_flags` its
        host compiler's.
    """
    cuda = gctx.cuda
    args = builder_args(gctx)
    inputs = [src]
    transitive = [cuda.cuda_files, project.headers]
    if nvcc:
        tools = add_tools(args, cuda, ["nvcc"])
        args.add("--compiler", "nvcc")
        args.add("--chip", nvcc.chip)
        if nvcc.arch_list:
            args.add("--arch-list", ",".join(nvcc.arch_list))
        args.add("--ccbin", nvcc.ccbin)
        transitive.append(nvcc.cc_files)
        if "-O0" in opt:
            args.add("-O", "0")
    else:
        tools = add_tools(args, gctx.llvm, ["clang"])
        if cuda.cuda_path:
            args.add("--cuda-path", cuda.cuda_path)
    if fatbin:
        args.add("--fatbin", fatbin)
        inputs.append(fatbin)
    else:
        args.add("--rdc")
    args.add_all(project.defines, before_each = "-D")
    args.add_all(project.quote_includes, before_each = "-iquote")
    args.add_all(project.includes, before_each = "-I")
    args.add_all(project.system_includes, before_each = "-isystem")
    if nvcc:
        args.add_all(project.copts, format_each = "--nvcc-opt=%s")
    args.add_all(toolchain_flags + opt + host_copts, format_each = "--host-opt=%s")
    args.add("-o", out)
    args.add(src)
    run_builder(
        gctx,
        "host",
        args,
        inputs = depset(inputs, transitive = transitive),
        outputs = [out],
        tools = tools,
        # The program is nvcc, or clang (and the CUDA toolchain gives only headers).
        toolchain = CUDA_TOOLCHAIN if nvcc else LLVM_TOOLCHAIN,
        mnemonic = "CudaHostCompile",
        progress_message = "Compiling the host side of %s (%%{label})" % src.short_path,
    )

def emit_register(gctx, *, objects, fatbin, out):
    """Declares the action that writes the C source registering a device-linked `fatbin` (`gpubuilder register`).

    Relocatable device code has one module for all the sources: each host object asks, by its own
    module id, to be registered with it; the generated source answers every one of them with the one
    fatbin, loaded once.

    Args:
      gctx: the gpu_context.
      objects: the host objects compiled with relocatable device code.
      fatbin: the device-linked fatbin.
      out: the C source File.
    """
    args = builder_args(gctx)
    args.add("--fatbin", fatbin)
    args.add("-o", out)
    args.add_all(objects)
    run_builder(
        gctx,
        "register",
        args,
        inputs = objects + [fatbin],
        outputs = [out],
        mnemonic = "CudaRegister",
        progress_message = "Writing the CUDA runtime registration of %{label}",
    )

def emit_program_host(gctx, *, src, modules, chip, out, opt = 2):
    """Declares the action that compiles the host side of an MLIR program into the object `out`.

    `gpubuilder host` outlines the program's gpu.launch regions, replaces each gpu.module by a
    gpu.binary holding its fatbin from `modules`, lowers the host code with MLIR (splitting the
    async dialect's coroutines with opt) and makes the object with llc.

    Args:
      gctx: the gpu_context (its `llvm` mlir-opt, mlir-translate and llc, and opt where it has
        one: a program that uses the async dialect needs it).
      src: the program (.mlir).
      modules: the directory of the modules' fatbins (NAME.fatbin).
      chip: the chip the gpu.binary objects' targets name.
      out: the object File (position-independent).
      opt: llc's optimisation level.
    """
    args = builder_args(gctx)
    tools = add_tools(args, gctx.llvm, ["mlir_opt", "mlir_translate", "llc", "opt"])
    args.add("--modules", modules.path)
    args.add("--chip", chip)
    args.add("-O", str(opt))
    args.add("-o", out)
    args.add(src)
    run_builder(
        gctx,
        "host",
        args,
        inputs = [src, modules],
        outputs = [out],
        tools = tools,
        toolchain = LLVM_TOOLCHAIN,
        mnemonic = "MlirHostCompile",
        progress_message = "Compiling the host side of %%{label} (%s)" % src.short_path,
    )

def emit_prepare(gctx, *, src, passes, out):
    """Declares the action that runs `passes` over an MLIR program before its GPU lowering (`gpubuilder prepare`).

    Its output is the program that the lowering of its modules and its host compile read: the
    passes run once, as a RUN line's first mlir-opt does.

    Args:
      gctx: the gpu_context (its `llvm` mlir-opt).
      src: the program (.mlir).
      passes: mlir-opt's options, in order, e.g. ["--convert-linalg-to-parallel-loops"].
      out: the prepared program (.mlir).
    """
    args = builder_args(gctx)
    tools = add_tools(args, gctx.llvm, ["mlir_opt"])
    args.add_all(passes, format_each = "--pass=%s")
    args.add("-o", out)
    args.add(src)
    run_builder(
        gctx,
        "prepare",
        args,
        inputs = [src],
        outputs = [out],
        tools = tools,
        toolchain = LLVM_TOOLCHAIN,
        mnemonic = "GpuPrepare",
        progress_message = "Running the passes before the GPU lowering of %%{label} (%s)" % src.short_path,
    )
