"""What a module's attributes ask for: the attributes of every rule that builds one, their analysis-time checks, and the runs-on validation.

`gpu_module`, `cuda_library` and `gpu_binary` check their chips, sources and formats here (from the
chip table and the kinds table, both generated from Go), then plan their actions in plan.bzl.
"""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("//rules/private:cc.bzl", "cuda_compilation", "has_cuda_attrs")
load("//rules/private:chip_table.bzl", "CHIPS", "DRIVERS", "DUPLICATE_CHIP", "NOT_A_RUNNER", "UNKNOWN_CHIP", "UNKNOWN_DRIVER", "UNSUPPORTED", "VIRTUAL_CHIP")
load("//rules/private:context.bzl", "BUILDER_ATTRS")
load("//rules/private:kinds_table.bzl", "RULES", "kind_of")
load("//rules/private:providers.bzl", "GpuPchInfo")
load("//rules/private/actions:check.bzl", "emit_check")

# The attributes of every rule that builds a module (gpu_module, cuda_library), documented once.
MODULE_ATTRS = dict({
    "chips": attr.string_list(
        doc = """The chips to build for, e.g. `["sm_80", "sm_90"]`. Default: `--@rules_gpu//gpu:chips`. A chip
the chip table does not know, or that the CUDA toolchain's version cannot compile, fails the analysis
with the reason and the fix (docs/chips.md lists the chips and toolkits).""",
    ),
    "compiler": attr.string(
        values = ["", "clang", "nvcc"],
        doc = """The compiler of CUDA C++ sources: `clang`, or `nvcc` (the CUDA toolchain's) for code written for
nvcc that clang rejects. Either way each chip is its own action, and ptxas and `gpubuilder link`
make the cubins and the fatbin; `cuda_library`'s host side is compiled by the same compiler (nvcc
with the C++ toolchain's compiler as its host compiler). Default: the CUDA toolchain's `compiler` (`clang` unless it says
otherwise).""",
    ),
    "compress": attr.string(
        default = "lz4",
        values = ["none", "lz4", "zstd"],
        doc = "Compression of the PTX in a fatbin (cubins are stored as they are, as fatbinary does).",
    ),
    "fast_math": attr.bool(doc = "Fast math: approximate division and square root, contracted operations."),
    "ftz": attr.bool(doc = "Flush f32 denormals to zero."),
    "opt_level": attr.int(default = 2, values = [0, 1, 2, 3], doc = "Optimisation level, as MLIR's NVVM target's `O`. With `-c dbg`, 0: the device code is debuggable (clang `-g`, nvcc `-G`, ptxas `-g`)."),
    "ptx": attr.string_list(
        doc = """The chips whose PTX a `fatbin` carries, for the driver to JIT-compile on GPUs newer than any
cubin, e.g. `["sm_90"]`: each is one more compile action, unless it is in `chips` (its cubin is then
compiled from that PTX). Default: the lowest of `chips`. rules_cuda's `compute_XX` codes become these
(`gpubuild migrate`). With `format = "jit"`: one chip, the PTX that is the artifact.""",
    ),
    "ptx_isa": attr.string(doc = """The PTX ISA version of the PTX the sources are compiled to, e.g. `"8.0"` (MLIR's
`nvvm-attach-target` `features = "+ptx80"`, clang's `+ptx80` target feature): for instructions that
need a newer ISA than the chip's lowest, which is the default. It must be one the CUDA toolkit's
ptxas reads, and at least the chip's lowest. Not with nvcc, which writes its release's ISA."""),
    "ptxas_opts": attr.string_list(doc = "Extra ptxas options, e.g. `[\"-v\"]`."),
    "rdc": attr.bool(doc = """Relocatable device code: the sources (CUDA C++, LLVM IR) are linked into one module per chip,
so that a `__device__` function or variable defined in one is usable from another, with one copy at run
time. Each CUDA C++ source is still compiled per chip by its own action; each chip's device link is
one more. With clang, the sources are linked as LLVM bitcode (CUDA C++ and LLVM IR); with
`compiler = "nvcc"`, as nvcc links them: a relocatable cubin per source, linked by nvlink, so the
module is cubins only (no `ptx`, formats `bin` and `fatbin`)."""),
    "runs_on": attr.string_list(
        doc = """The GPUs the artifact must load on, e.g. `["sm_75", "sm_90"]`. A validation action runs
`gpubuilder check` and fails the build, saying why and what to change, when one of them could not load it
(with the driver version of `--@rules_gpu//gpu:driver`, if set). Default: `--@rules_gpu//gpu:runners`.""",
    ),
    "_default_chips": attr.label(default = Label("//gpu:chips")),
    # The precompiled headers of clang's CUDA headers, shared by every target's CUDA C++ compiles.
    "_pch": attr.label(default = Label("//rules/private:cuda_pch"), providers = [GpuPchInfo]),
    "_driver": attr.label(default = Label("//gpu:driver")),
    "_lineinfo": attr.label(default = Label("//gpu:lineinfo")),
    "_runners": attr.label(default = Label("//gpu:runners")),
}, **BUILDER_ATTRS)

_CHIP_ORDER = {chip: i for i, chip in enumerate(CHIPS)}

def check_chips(label, attr, chips, toolkit):
    """Fails the analysis when a chip is not in the chip table or `toolkit` cannot compile for it.

    The verdicts and their wording come from the chip model (tools/chip), generated into
    chip_table.bzl, so `bazel build` stops before any action runs.

    Args:
      label: the target, as messages name it.
      attr: the attribute or flag that named the chips.
      chips: the chips.
      toolkit: the CUDA toolkit's version, or None to check only that the chips exist.
    """
    for chip in chips:
        if chip not in _CHIP_ORDER:
            if chip.startswith("compute_") and "sm_" + chip[len("compute_"):] in _CHIP_ORDER:
                fail("%s: %s: %s" % (label, attr, VIRTUAL_CHIP.format(chip = chip, real = "sm_" + chip[len("compute_"):])))
            fail("%s: %s: %s" % (label, attr, UNKNOWN_CHIP % chip))
        why = UNSUPPORTED.get(toolkit, {}).get(chip) if toolkit else None
        if why:
            fail("%s: %s: %s; fix: change the chip, or use a toolkit that supports it" % (label, attr, why))

def check_runners(label, attr, runners):
    """Fails the analysis when a runner is not a GPU of the chip table, or is named twice.

    A runner is a GPU, named by its compute capability (sm_90); sm_90a and compute_90 are targets.
    The wording is the chip model's (tools/chip ParseRunners), generated into chip_table.bzl.

    Args:
      label: the target, as messages name it.
      attr: the attribute or flag that named the runners.
      runners: the runner chips.
    """
    check_chips(label, attr, runners, None)
    for i, r in enumerate(runners):
        if r in runners[:i]:
            fail("%s: %s" % (label, DUPLICATE_CHIP.format(chip = r, list = attr)))
        if r[-1] in "af":
            fail("%s: %s" % (label, NOT_A_RUNNER.format(list = attr, runner = r, gpu = r[:-1])))

def unlinkable(src):
    """Why `src` cannot be linked with other sources (tools/kinds' rdc rule for its kind), or None.

    Args:
      src: the source File.

    Returns:
      The message of the rule that refuses linking it, or None when it can be linked.
    """
    for r in RULES:
        if r.kind == kind_of(src) and r.rdc and not r.compiler:
            return r.message.format(src = src.short_path, format = "")
    return None

def check_kind(label, src, format, compiler, rdc):
    """Fails the analysis when tools/kinds' table refuses `src` in a module of `format`.

    Args:
      label: the target, as messages name it.
      src: the source File.
      format: the module's format.
      compiler: the CUDA C++ compiler (clang or nvcc).
      rdc: whether the module's sources are linked as relocatable device code.
    """
    kind = kind_of(src)
    for r in RULES:
        if (r.kind == kind and (not r.formats or format in r.formats) and
            (not r.allowed or format not in r.allowed) and
            (not r.compiler or r.compiler == compiler) and (rdc or not r.rdc)):
            fail("%s: %s" % (label, r.message.format(src = src.short_path, format = format)))

def module_settings(ctx, gctx, *, srcs, format, rdc, module = "", no_kernel_ok = False):
    """Checks what a module's attributes ask for and returns its chips and compile options.

    Every check fails the analysis with the target, what is wrong and the fix.

    Args:
      ctx: the rule context (MODULE_ATTRS and cc.bzl's CUDA_ATTRS).
      gctx: the gpu_context.
      srcs: the source Files.
      format: the module's format.
      rdc: whether the sources are linked as relocatable device code.
      module: the MLIR `gpu.module` pattern.
      no_kernel_ok: accept modules that define no kernel.

    Returns:
      A struct: `chips` (list of str, in declared order), `ptx` (the chips whose PTX a fatbin or
      jit carries: the `ptx` attribute, or the lowest chip; none for nvcc's rdc), `all_chips` (`chips`,
      then the `ptx` chips that are not among them: every chip a relocatable compile is for) and
      `opts` (the compile options of plan.bzl's actions).
    """
    label = gctx.label
    cuda = gctx.cuda
    if cuda.missing:
        fail("%s: %s" % (label, cuda.missing))
    src = srcs[0] if srcs else None  # none: a cuda_library of cuda_objects alone
    compiler = getattr(ctx.attr, "compiler", "") or cuda.compiler
    has_cu = [s for s in srcs if kind_of(s) == "cuda"] or not srcs
    for s in srcs:
        check_kind(label, s, format, compiler, rdc)

    # How each kind compiles is the helper's business (tools/internal/compile); the rule needs to know
    # whether the source is PTX already (no LLVM toolchain, no PTX of its own).
    is_ptx = src != None and kind_of(src) == "ptx"
    if not is_ptx and not (compiler == "nvcc" and len([s for s in srcs if kind_of(s) == "cuda"]) == len(srcs)):
        llvm = gctx.llvm
        if not llvm:
            fail("%s: %s needs the LLVM toolchain (//toolchain:llvm_toolchain_type); register one, e.g. the llvm module extension's" % (label, src.short_path if src else "CUDA C++"))
        if llvm.missing:
            fail("%s: %s" % (label, llvm.missing))

    # A flag's list takes a space after a comma, as every command line's chip list does (tools/chip ParseList).
    chips = ctx.attr.chips or [c.strip() for c in ctx.attr._default_chips[BuildSettingInfo].value]
    if not chips:
        fail("%s: chips is empty; name at least one chip, e.g. chips = [\"sm_90\"], or, for every target that names none, add build --@rules_gpu//gpu:chips=sm_80,sm_90 to the repository's .bazelrc (rules_gpu has no default chips)" % label)
    chips_from = "chips" if ctx.attr.chips else "--@rules_gpu//gpu:chips"
    for i, chip in enumerate(chips):
        if chip in chips[:i]:
            fail("%s: %s" % (label, DUPLICATE_CHIP.format(chip = chip, list = chips_from)))
    check_chips(label, chips_from, chips, cuda.version)
    ptx = getattr(ctx.attr, "ptx", [])
    if ptx:
        check_chips(label, "ptx", ptx, cuda.version)
        if format not in ["fatbin", "jit"]:
            fail("%s: ptx names the PTX a fatbin or jit carries; format %s has none: remove ptx, or use format = \"fatbin\"" % (label, format))
        if is_ptx:
            fail("%s: ptx: %s is PTX already, and it is the PTX the fatbin carries: remove ptx" % (label, src.short_path))
        if format == "jit" and len(ptx) != 1:
            fail("%s: ptx: format jit is one PTX file, and ptx names %d chips: name one, or use format = \"fatbin\"" % (label, len(ptx)))
        for i, chip in enumerate(ptx):
            if chip in ptx[:i]:
                fail("%s: %s" % (label, DUPLICATE_CHIP.format(chip = chip, list = "ptx")))
    nvcc_rdc = rdc and compiler == "nvcc"
    if ptx and nvcc_rdc:
        fail("%s: ptx: rdc with nvcc links each chip's relocatable cubins, and a fatbin of the linked module carries no PTX: remove ptx (the chips' cubins are the module), or use compiler = \"clang\", whose rdc links the module's PTX too" % label)
    if not has_cu and has_cuda_attrs(ctx):
        fail("%s: hdrs, deps, includes, defines and copts are for CUDA C++ sources (.cu); %s is not one: remove them" % (label, src.short_path))
    if has_cu and compiler == "nvcc":
        if "nvcc" not in cuda.tools:
            fail("%s: compiler nvcc: the CUDA toolchain (%s) has no nvcc; use compiler = \"clang\", or a toolkit with nvcc" % (label, cuda.root))

    # Device debug information: debuggable code with -c dbg (at O 0: ptxas cannot optimise it), line
    # tables for profilers and compute-sanitizer with --@rules_gpu//gpu:lineinfo.
    debug = ""
    if ctx.var["COMPILATION_MODE"] == "dbg":
        debug = "full"
    elif ctx.attr._lineinfo[BuildSettingInfo].value:
        debug = "lines"
    ptx = [] if nvcc_rdc else list(ptx) or [lowest_chip(chips)]
    all_chips = list(chips) + [c for c in ptx if c not in chips]
    return struct(
        chips = list(chips),
        ptx = ptx,
        all_chips = all_chips,
        opts = struct(
            debug = debug,
            compiler = compiler if has_cu else None,
            # nvcc: every compile of a source defines the __CUDA_ARCH_LIST__ of all its chips.
            arch_list = all_chips if has_cu and compiler == "nvcc" else [],
            cuda = cuda_compilation(ctx) if has_cu else None,
            # A precompiled header holds the target features it was made with: none for another ISA.
            pch = ctx.attr._pch[GpuPchInfo].pchs if has_cu and compiler == "clang" and not ctx.attr.ptx_isa else None,
            opt_level = 0 if debug == "full" else ctx.attr.opt_level,
            fast_math = ctx.attr.fast_math,
            ftz = ctx.attr.ftz,
            ptxas_opts = ctx.attr.ptxas_opts,
            ptx_isa = _ptx_isa(ctx, gctx.label, compiler if has_cu else None),
            module = module,
            no_kernel_ok = no_kernel_ok,
        ),
    )

def _ptx_isa(ctx, label, compiler):
    """The `ptx_isa` attribute, checked: MAJOR.MINOR, and not with nvcc; "" when unset."""
    isa = ctx.attr.ptx_isa
    if not isa:
        return ""
    parts = isa.split(".")
    if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
        fail("%s: ptx_isa = %r is not a PTX ISA version; fix: write MAJOR.MINOR, e.g. \"8.0\"" % (label, isa))
    if compiler == "nvcc":
        fail("%s: ptx_isa = %r: nvcc writes the PTX ISA of its own release; fix: leave ptx_isa out, or compile with compiler = \"clang\"" % (label, isa))
    return isa

def emit_runs_on(ctx, gctx, *, name, files, together = True):
    """The runs-on validation: an action that fails the build when `files` cannot load on a runner.

    Args:
      ctx: the rule context (MODULE_ATTRS).
      gctx: the gpu_context.
      name: the stamp's name prefix.
      files: the artifact's files (or directories of files).
      together: judge the files as one artifact (a module's per-chip cubins: one of them must
        load); otherwise each file is an artifact of its own that must load (a program's modules).

    Returns:
      The validation outputs: a list of one stamp File, or empty when no runner is declared.
    """
    runners = ctx.attr.runs_on or [r.strip() for r in ctx.attr._runners[BuildSettingInfo].value]
    check_runners(gctx.label, "runs_on" if ctx.attr.runs_on else "--@rules_gpu//gpu:runners", runners)
    driver = ctx.attr._driver[BuildSettingInfo].value
    if driver and driver not in DRIVERS:
        fail("%s: --@rules_gpu//gpu:driver %s: %s" % (gctx.label, driver, UNKNOWN_DRIVER.format(driver = driver)))
    if not runners:
        return []
    stamp = ctx.actions.declare_file(name + ".runs_on.ok")
    emit_check(gctx, files = files, runners = runners, driver = driver, out = stamp, together = together)
    return [stamp]

def lowest_chip(chips):
    """The lowest of `chips` in the chip table's order: the chip a fatbin's PTX is for."""
    return sorted(chips, key = lambda c: _CHIP_ORDER[c])[0]
