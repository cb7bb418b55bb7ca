"""The `gpu_module` rule."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("//rules/private:cc.bzl", "CUDA_ATTRS", "cuda_compilation", "has_cuda_attrs")
load("//rules/private:chip_table.bzl", "CHIPS", "UNKNOWN_CHIP", "UNSUPPORTED")
load("//rules/private:context.bzl", "CUDA_TOOLCHAIN", "LLVM_TOOLCHAIN", "gpu_context")
load("//rules/private:providers.bzl", "GpuModuleInfo")
load("//rules/private/actions:check.bzl", "emit_check")
load("//rules/private/actions:compile.bzl", "emit_compile")
load("//rules/private/actions:link.bzl", "emit_link")

_EXT = {"bin": "cubin", "isa": "ptx", "offload": "bc"}

_CHIP_ORDER = {chip: i for i, chip in enumerate(CHIPS)}

def _chip_rank(chip):
    return _CHIP_ORDER[chip]

def _check_chips(label, attr, chips, toolkit):
    """Fails the analysis when a chip is not in the chip table or `toolkit` cannot compile for it.

    The verdicts and their wording come from the chip model (tools/chip), generated into
    chip_table.bzl, so `bazel build` stops before any action runs.
    """
    for chip in chips:
        if chip not in _CHIP_ORDER:
            if chip.startswith("compute_") and "sm_" + chip[len("compute_"):] in _CHIP_ORDER:
                fail("%s: %s: %s is a virtual chip (PTX); list real chips, e.g. %s: fatbins carry PTX for the lowest chip, format = \"jit\" only PTX" % (label, attr, chip, "sm_" + chip[len("compute_"):]))
            fail("%s: %s: %s" % (label, attr, UNKNOWN_CHIP % chip))
        why = UNSUPPORTED.get(toolkit, {}).get(chip) if toolkit else None
        if why:
            fail("%s: %s: %s; fix: change the chip, or use a toolkit that supports it" % (label, attr, why))

def _gpu_module_impl(ctx):
    gctx = gpu_context(ctx)
    label = gctx.label
    cuda = gctx.cuda
    if cuda.missing:
        fail("%s: %s" % (label, cuda.missing))
    if len(ctx.files.srcs) != 1:
        fail("%s: srcs must hold exactly one source file, got %d" % (label, len(ctx.files.srcs)))
    src = ctx.files.srcs[0]

    # Which source kinds exist, and how each compiles, is gpubuild's business (tools/compile); the rule
    # only needs to know whether the source is PTX already (no LLVM toolchain, no PTX of its own).
    is_ptx = src.extension == "ptx"
    if not is_ptx:
        llvm = gctx.llvm
        if not llvm:
            fail("%s: %s needs the LLVM toolchain (//toolchain:llvm_toolchain_type); register one, e.g. the llvm module extension's" % (label, src.short_path))
        if llvm.missing:
            fail("%s: %s" % (label, llvm.missing))
    fmt = ctx.attr.format
    if is_ptx and fmt in ["isa", "offload", "jit"]:
        fail("%s: %s is PTX already; format %s needs MLIR, LLVM IR or CUDA C++; use bin or fatbin" % (label, src.short_path, fmt))
    chips = ctx.attr.chips or ctx.attr._default_chips[BuildSettingInfo].value
    if not chips:
        fail("%s: chips is empty; name at least one chip, e.g. chips = [\"sm_90\"], or set --@rules_gpu//gpu:chips" % label)
    seen = {}
    for chip in chips:
        if chip in seen:
            fail("%s: chip %s is listed twice in chips" % (label, chip))
        seen[chip] = True
    _check_chips(label, "chips" if ctx.attr.chips else "--@rules_gpu//gpu:chips", chips, cuda.version)
    if src.extension != "cu" and has_cuda_attrs(ctx):
        fail("%s: hdrs, deps, includes, defines and copts are for CUDA C++ sources (.cu); %s is not one: remove them" % (label, src.short_path))
    compiler = ctx.attr.compiler or cuda.compiler
    if src.extension == "cu" and compiler == "nvcc":
        if "nvcc" not in cuda.tools:
            fail("%s: compiler nvcc: the CUDA toolchain (%s) has no nvcc; use compiler = \"clang\", or a toolkit with nvcc" % (label, cuda.root))
        if fmt == "offload":
            fail("%s: format offload (LLVM bitcode) needs clang as the CUDA C++ compiler; nvcc makes PTX and cubins: use compiler = \"clang\" or another format" % label)
    opts = struct(
        compiler = compiler if src.extension == "cu" else None,
        cuda = cuda_compilation(ctx) if src.extension == "cu" else None,
        opt_level = ctx.attr.opt_level,
        fast_math = ctx.attr.fast_math,
        ftz = ctx.attr.ftz,
        ptxas_opts = ctx.attr.ptxas_opts,
        module = ctx.attr.module,
    )
    name = ctx.label.name

    # An MLIR source's device code is the same LLVM IR for every chip: one GpuLower action per module
    # writes it, and every chip's compile starts from it.
    chip_src = src
    if src.extension == "mlir" and fmt != "jit":
        chip_src = ctx.actions.declare_file(name + ".ll")
        emit_compile(gctx, src = src, chip = None, format = "llvm", out = chip_src, opts = opts)

    def compile(chip, format, source = None):
        source = source or chip_src
        out = ctx.actions.declare_file("%s.%s.%s" % (name, chip, _EXT[format]))
        emit_compile(
            gctx,
            src = source,
            chip = chip,
            format = format,
            out = out,
            opts = opts,
            origin = src if source != src else None,
        )
        return out

    lowest = sorted(chips, key = _chip_rank)[0]
    files_by_chip = {}
    ptx = None
    if fmt in ["fatbin", "jit"]:
        ptx = src if is_ptx else compile(lowest, "isa")
    if fmt in ["bin", "fatbin"]:
        for chip in chips:
            # A fatbin's PTX is the lowest chip's: its cubin is that PTX through ptxas, not a second
            # run of the whole pipeline (the same bytes, one front end less per module).
            files_by_chip[chip] = compile(chip, "bin", ptx) if chip == lowest and ptx and not is_ptx else compile(chip, "bin")
    elif fmt in ["isa", "offload"]:
        for chip in chips:
            files_by_chip[chip] = compile(chip, fmt)
    fatbin = None
    if fmt == "fatbin":
        fatbin = ctx.actions.declare_file(name + ".fatbin")
        emit_link(gctx, images = [files_by_chip[c] for c in chips] + [ptx], out = fatbin, compress = ctx.attr.compress)

    if fmt == "fatbin":
        main = [fatbin]
    elif fmt == "jit":
        main = [ptx]
    else:
        main = [files_by_chip[c] for c in chips]

    # Runs-on validation: the build fails when the artifact cannot load on a declared runner.
    validation = []
    runners = ctx.attr.runs_on or ctx.attr._runners[BuildSettingInfo].value
    _check_chips(label, "runs_on" if ctx.attr.runs_on else "--@rules_gpu//gpu:runners", runners, None)
    if runners and fmt != "offload":
        stamp = ctx.actions.declare_file(name + ".runs_on.ok")
        emit_check(gctx, files = main, runners = runners, driver = ctx.attr._driver[BuildSettingInfo].value, out = stamp)
        validation.append(stamp)
    return [
        DefaultInfo(files = depset(main)),
        OutputGroupInfo(per_chip = depset(files_by_chip.values()), _validation = depset(validation)),
        GpuModuleInfo(
            chips = list(chips),
            format = fmt,
            files_by_chip = files_by_chip,
            fatbin = fatbin,
            ptx = ptx,
            artifact = main[0] if len(main) == 1 else None,
        ),
    ]

gpu_module = rule(
    implementation = _gpu_module_impl,
    doc = """Compiles a GPU module for a list of chips, one Bazel action per chip.

Sources are MLIR (a `gpu.module`), LLVM IR (`.ll`, `.bc`), CUDA C++ (`.cu`, device side) or PTX. A
CUDA C++ source sees a project as a `cc_library` would: its `hdrs`, `includes`, `defines`, `copts` and
the headers, include paths and defines of its `deps` (any target with `CcInfo`). Each
chip's artifact is built by its own action, so adding a chip to a target runs one more compile action
(and, for fatbins, the link again) and leaves the others cached.

Formats, as MLIR's `gpu-module-to-binary` names them: `offload` (LLVM bitcode per chip), `isa` (PTX
per chip), `bin` (a cubin per chip), `fatbin` (every chip's cubin plus PTX for the lowest chip, which
the driver JIT-compiles on newer GPUs; the lowest chip's cubin is compiled from that PTX) and `jit`
(only the PTX for the lowest chip, for runners whose chips are unknown when building).""",
    attrs = dict(CUDA_ATTRS, **{
        "chips": attr.string_list(
            doc = """The chips to build for, e.g. `["sm_80", "sm_90"]`. Default: `--@rules_gpu//gpu:chips`. A chip
the chip table does not know, or that the CUDA toolchain's version cannot compile, fails the analysis
with the reason and the fix (docs/chips.md lists the chips and toolkits).""",
        ),
        "compiler": attr.string(
            values = ["", "clang", "nvcc"],
            doc = """The device front end of a CUDA C++ source: `clang`, or `nvcc` (the CUDA toolchain's) for code
written for nvcc that clang rejects. Either way each chip is its own action, and ptxas and `gpubuild link`
make the cubins and the fatbin. Default: the CUDA toolchain's `compiler` (`clang` unless it says
otherwise).""",
        ),
        "compress": attr.string(
            default = "lz4",
            values = ["none", "lz4", "zstd"],
            doc = "Compression of the PTX in a fatbin (cubins are stored as they are, as fatbinary does).",
        ),
        "fast_math": attr.bool(doc = "Fast math: approximate division and square root, contracted operations."),
        "format": attr.string(
            default = "fatbin",
            values = ["bin", "isa", "offload", "fatbin", "jit"],
            doc = "What to produce: `bin`, `isa`, `offload`, `fatbin` or `jit` (see above).",
        ),
        "ftz": attr.bool(doc = "Flush f32 denormals to zero."),
        "module": attr.string(doc = "MLIR sources: the `gpu.module` to build, by a POSIX extended regular expression matched anywhere in its name, as MLIR's `--nvvm-attach-target` `module` option reads it (default: the only one)."),
        "opt_level": attr.int(default = 2, values = [0, 1, 2, 3], doc = "Optimisation level, as MLIR's NVVM target's `O`."),
        "ptxas_opts": attr.string_list(doc = "Extra ptxas options, e.g. `[\"-v\"]`."),
        "runs_on": attr.string_list(
            doc = """The GPUs the artifact must load on, e.g. `["sm_75", "sm_90"]`. A validation action runs
`gpubuild check` and fails the build, saying why and what to change, when one of them could not load it
(with the driver version of `--@rules_gpu//gpu:driver`, if set). Default: `--@rules_gpu//gpu:runners`.""",
        ),
        "srcs": attr.label_list(
            allow_files = [".mlir", ".ll", ".bc", ".ptx", ".cu"],
            mandatory = True,
            doc = "The kernel source: one `.mlir`, `.ll`, `.bc`, `.ptx` or `.cu` file.",
        ),
        "_default_chips": attr.label(default = Label("//gpu:chips")),
        "_driver": attr.label(default = Label("//gpu:driver")),
        "_gpubuild": attr.label(
            default = Label("//tools/cmd/gpubuild"),
            executable = True,
            cfg = "exec",
        ),
        "_runners": attr.label(default = Label("//gpu:runners")),
    }),
    toolchains = [
        CUDA_TOOLCHAIN,
        config_common.toolchain_type(LLVM_TOOLCHAIN, mandatory = False),
    ],
)
