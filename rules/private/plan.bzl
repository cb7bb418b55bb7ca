"""The planner: which per-chip actions build a module, and the name of every file they write.

Every rule that builds device code plans it here, so that a chip, a source or a format means the
same actions everywhere: `gpu_module`, `cuda_library` (a module per source, or one for all with
rdc) and `gpu_binary`/`gpu_test` (every module of an MLIR program, each step a directory of one
file per module). A plan is one `GpuLower` per MLIR module, one `GpuCompile` per (source, chip) and
per chip's device link, and one `GpuLink` per fatbin; each `emit_*` declares one kind of action.
"""

load("//rules/private:kinds_table.bzl", "FORMAT_EXTENSION", "kind_of")
load("//rules/private/actions:compile.bzl", "emit_compile", "emit_device_link", "emit_lower")
load("//rules/private/actions:link.bzl", "emit_link")

# The file extension of each per-chip format.
def source_stem(src):
    """A source's path inside its package, without its extension: the name of its per-chip files.

    Args:
      src: the source File.

    Returns:
      The path, e.g. "poly/apply" for //pkg:poly/apply.cu.
    """
    path = src.short_path
    if src.owner and src.owner.package and path.startswith(src.owner.package + "/"):
        path = path[len(src.owner.package) + 1:]
    return path.rpartition(".")[0] if "." in path.rpartition("/")[2] else path

def _declare(gctx, name, program, chip = None, format = None, what = None):
    """Declares one output of a plan; every name a plan writes is made here.

    A module's files are NAME.CHIP.EXT (a chip's artifact), NAME.ll (its LLVM IR), NAME.fatbin and
    NAME_rdc/STEM.CHIP.EXT (a relocatable source's bitcode, or nvcc's relocatable cubin); a
    program's are directories,
    NAME_modules/CHIP.EXT, NAME_modules/llvm and NAME_modules/fatbin, each of one file per module.

    Args:
      gctx: the gpu_context.
      name: the plan's name (the target's, or TARGET_cu/STEM for one of cuda_library's modules).
      program: whether the plan is a program's (directories).
      chip: the chip of a per-chip file.
      format: its per-chip format (bin, isa, offload).
      what: for a file that is not per chip: "llvm" or "fatbin"; or a source File (its rdc bitcode).
    """
    if type(what) == "File":
        return gctx.actions.declare_file("%s_rdc/%s.%s%s" % (name, source_stem(what), chip, FORMAT_EXTENSION[format]))
    if program:
        return gctx.actions.declare_directory("%s_modules/%s" % (name, chip + FORMAT_EXTENSION[format] if chip else what))
    if chip:
        return gctx.actions.declare_file("%s.%s%s" % (name, chip, FORMAT_EXTENSION[format]))
    return gctx.actions.declare_file(name + FORMAT_EXTENSION[what])

def _lowered_to_ptx(format, opts):
    """Whether an MLIR source's lowering writes every chip's PTX (MLIR's own serializer).

    Not for LLVM bitcode (`offload`), and not with fast math or ftz, which only opt and llc apply
    to the code (MLIR's nvvm target hands them to libdevice alone): those lower to LLVM IR once and
    compile it per chip.
    """
    return format != "offload" and not opts.fast_math and not opts.ftz

def plan_relocatable(gctx, *, name, srcs, chips, opts):
    """Declares the per-(source, chip) compiles of relocatable device code, and no device link.

    Each CUDA C++ source is compiled for each chip by its own action: to LLVM bitcode by clang
    (`-fgpu-rdc`), to a relocatable cubin with nvcc (`nvcc -rdc=true`, `ptxas -c`). An LLVM IR
    source is device code as it is (clang only: the kinds table refuses it with nvcc).

    Args:
      gctx: the gpu_context.
      name: the prefix of the output files (the target's name): NAME_rdc/STEM.CHIP.EXT.
      srcs: the source Files.
      chips: the chips to compile for.
      opts: the compile options (emit_compile's `opts`).

    Returns:
      A dict chip -> list of File, in `srcs`' order.
    """
    fmt = "bin" if opts.compiler == "nvcc" else "offload"
    by_chip = {}
    for chip in chips:
        by_chip[chip] = []
    for s in srcs:
        for chip in chips:
            if kind_of(s) != "cuda":
                by_chip[chip].append(s)
                continue
            out = _declare(gctx, name, False, chip = chip, format = fmt, what = s)
            emit_compile(gctx, srcs = [s], chip = chip, format = fmt, out = out, opts = opts, rdc = True)
            by_chip[chip].append(out)
    return by_chip

def plan_module(gctx, *, name, srcs, chips, format, opts, ptx_chips, compress = "lz4", rdc = False, rdc_deps = {}, program = False, fatbin = False):
    """Declares the actions that build one module (or every module of a program) for `chips`.

    One source is one module. Several sources are one module only as relocatable device code
    (`rdc`): each CUDA C++ source is compiled to LLVM bitcode per chip (`-fgpu-rdc`), and each chip's
    bitcode, with any LLVM IR sources, is linked by the chip's own compile (llvm-link, then the one
    pipeline: libdevice, opt, llc, ptxas). LLVM IR linking rather than nvlink: the linked module is
    optimised as a whole (a __device__ function of another source can be inlined), the result is an
    ordinary cubin the driver loads without a device-link step, and nvcc's relocatable cubins are
    not needed, so a toolkit of ptxas alone suffices. With nvcc as the compiler (code written for
    nvcc), as nvcc links it: a relocatable cubin per (source, chip) (`nvcc -rdc=true`, `ptxas -c`),
    and each chip's linked by nvlink (GpuDeviceLink); the module is cubins only, with no PTX.

    An MLIR source is lowered once, by one GpuLower action that writes the PTX of every chip that
    needs one (MLIR's nvvm-attach-target per chip, gpu-module-to-binary), each its own file, so that
    a chip's cubin (ptxas) depends on its chip's PTX alone: adding a chip re-runs the lowering, whose
    other files come out the same, and no other chip's ptxas. With fast math or ftz, or to LLVM
    bitcode, it is lowered to LLVM IR once, and each chip compiles that.

    A program's modules are known only once its gpu.launch regions are outlined, so each step of its
    plan writes a directory with one file per module, and every module is a fatbin (of the format's
    images), which the program loads with mgpuModuleLoad.

    Args:
      gctx: the gpu_context.
      name: the prefix of the output files (the target's name).
      srcs: the source Files (a program: its one .mlir File).
      chips: the chips, in declared order.
      format: `bin`, `isa`, `offload`, `fatbin` or `jit` (a program: `fatbin`, `bin` or `jit`).
      opts: the compile options (emit_compile's `opts`).
      ptx_chips: the chips whose PTX a fatbin or jit carries (module_settings' `ptx`).
      compress: the fatbin's PTX compression.
      rdc: link several sources into one module (see above).
      rdc_deps: with `rdc`, dict chip -> list of File: relocatable device code compiled elsewhere
        (`cuda_objects`), linked into each chip's module with the sources'; a key for every chip
        the module compiles.
      program: plan every module of an MLIR program (see above).
      fatbin: link a fatbin whatever the format (the one that host code carries: a `bin` module's
        cubins, a `jit` module's PTX); a program always has one.

    Returns:
      A struct: `files_by_chip` (dict chip -> File: each chip's artifact, in `chips`' order), `ptx`
      (File or None: the first of `ptx_chips`' PTX of a fatbin or jit), `ptx_files` (every PTX File a
      fatbin or jit carries), `fatbin` (File or None) and `main` (the list of Files the module is:
      the fatbin, the jit PTX, or each chip's file).
    """
    src = srcs[0] if srcs else None  # none: a module of rdc_deps alone
    kind = kind_of(src) if src else "cuda"
    if format not in ["fatbin", "jit"]:
        ptx_chips = []

    # What each chip's compile starts from: a list of sources (several are linked). A chip whose PTX
    # the fatbin carries needs it too, in `chips` or not.
    all_chips = chips + [c for c in ptx_chips if c not in chips]
    by_chip = {}
    lowered = kind == "mlir" and not rdc and _lowered_to_ptx(format, opts)
    linked_by_chip = {}
    if rdc and opts.compiler == "nvcc":
        # nvcc's relocatable cubin per (source, chip), linked per chip by nvlink: cubins only (the
        # kinds table refuses the formats that need the linked module's PTX).
        if "nvlink" not in gctx.cuda.tools:
            fail("%s: rdc with compiler = \"nvcc\" links each chip's relocatable cubins with nvlink, and the CUDA toolkit has none; use a toolkit with nvlink (NVIDIA's cuda_nvcc archive has it), or compiler = \"clang\"" % gctx.label)
        cubins = plan_relocatable(gctx, name = name, srcs = srcs, chips = chips, opts = opts)
        for chip in chips:
            linked_by_chip[chip] = _declare(gctx, name, program, chip = chip, format = "bin")
            emit_device_link(gctx, cubins = cubins[chip] + rdc_deps.get(chip, []), chip = chip, out = linked_by_chip[chip], srcs = srcs)
    elif rdc:
        by_chip = plan_relocatable(gctx, name = name, srcs = srcs, chips = all_chips, opts = opts)
        for chip in all_chips:
            by_chip[chip] = by_chip[chip] + rdc_deps.get(chip, [])
    elif lowered:
        lower = all_chips if format != "jit" else ptx_chips
        ptx_out = {chip: _declare(gctx, name, program, chip = chip, format = "isa") for chip in lower}

        # NAME.CHIP.ptx in one directory: the helper is given NAME's last part, the directory is the outputs'.
        emit_lower(gctx, src = src, name = name.rpartition("/")[2], chips = lower, outs = [ptx_out[c] for c in lower], opts = opts, program = program)
        for chip in all_chips:
            by_chip[chip] = [ptx_out[chip]] if chip in ptx_out else []
    else:
        start = src
        if kind == "mlir":
            start = _declare(gctx, name, program, what = "llvm")
            emit_lower(gctx, src = src, name = name, chips = None, outs = [start], opts = opts, program = program)
        for chip in all_chips:
            by_chip[chip] = [start]

    def compile(chip, fmt, inputs = None):
        inputs = inputs or by_chip[chip]
        out = _declare(gctx, name, program, chip = chip, format = fmt)
        emit_compile(
            gctx,
            srcs = inputs,
            chip = chip,
            format = fmt,
            out = out,
            opts = opts,
            origin = src if len(inputs) == 1 and inputs[0] != src else None,
            program = program,
        )
        return out

    files_by_chip = {}
    ptx_by_chip = {}
    if format in ["fatbin", "jit"]:
        if kind == "ptx":
            ptx_by_chip[ptx_chips[0]] = src
        else:
            for chip in ptx_chips:
                ptx_by_chip[chip] = by_chip[chip][0] if lowered else compile(chip, "isa")
    ptx_files = ptx_by_chip.values()
    ptx = ptx_files[0] if ptx_files else None
    if linked_by_chip:
        files_by_chip = linked_by_chip
    elif format in ["bin", "fatbin"]:
        for chip in chips:
            # A chip whose PTX the fatbin carries gets its cubin from that PTX through ptxas, not a
            # second run of the whole pipeline (the same bytes, one front end less per module).
            files_by_chip[chip] = compile(chip, "bin", [ptx_by_chip[chip]]) if chip in ptx_by_chip and kind != "ptx" else compile(chip, "bin")
    elif format in ["isa", "offload"]:
        for chip in chips:
            files_by_chip[chip] = by_chip[chip][0] if lowered else compile(chip, format)
    linked = None
    if format == "fatbin" or fatbin or program:
        linked = _declare(gctx, name, program, what = "fatbin")
        emit_link(gctx, images = [files_by_chip[c] for c in chips if c in files_by_chip] + ptx_files, out = linked, compress = compress, program = program)

    if format == "fatbin":
        main = [linked]
    elif format == "jit":
        main = [ptx]
    else:
        main = [files_by_chip[c] for c in chips]
    return struct(files_by_chip = files_by_chip, ptx = ptx, ptx_files = ptx_files, fatbin = linked, main = main)
