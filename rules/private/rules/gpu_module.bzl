"""The `gpu_module` rule."""

load("//rules/private:cc.bzl", "CUDA_ATTRS")
load("//rules/private:context.bzl", "BUILDER_TOOLCHAIN", "CUDA_TOOLCHAIN", "LLVM_TOOLCHAIN", "gpu_context")
load("//rules/private:kinds_table.bzl", "EXTENSIONS")
load("//rules/private:module.bzl", "MODULE_ATTRS", "emit_runs_on", "module_settings", "unlinkable")
load("//rules/private:plan.bzl", "plan_module")
load("//rules/private:providers.bzl", "GpuModuleInfo")

# The messages of gpu_module's own analysis errors ({label}: the target).
NO_SRCS = "{label}: srcs is empty: a gpu_module compiles one source (.mlir, .ll, .bc, .ptx or .cu), or with rdc = True several CUDA C++ or LLVM IR sources linked into one module; fix: name its source in srcs"
MLIR_SRCS = "{label}: srcs holds {n} files, among them the MLIR source {src}: one MLIR source per gpu_module (an MLIR source is a module of its own, and rdc links only CUDA C++ and LLVM IR); fix: give each .mlir its own gpu_module, or put their gpu.modules into one .mlir and pick one with module"
OFFLOAD_RUNS_ON = "{label}: runs_on with format = \"offload\": LLVM bitcode is linked into another module, and no GPU loads it, so there is nothing to check on the runners; fix: remove runs_on and set it on the target that links this bitcode (its check covers the runners), or use format = \"fatbin\" or \"bin\""

def _gpu_module_impl(ctx):
    gctx = gpu_context(ctx)
    srcs = ctx.files.srcs
    if not srcs:
        fail(NO_SRCS.format(label = gctx.label))
    mlir = [s for s in srcs if s.extension == "mlir"]
    if mlir and len(srcs) > 1:
        fail(MLIR_SRCS.format(label = gctx.label, n = len(srcs), src = mlir[0].short_path))
    if ctx.attr.format == "offload" and ctx.attr.runs_on:
        fail(OFFLOAD_RUNS_ON.format(label = gctx.label))
    if len(srcs) > 1 and not ctx.attr.rdc:
        for s in srcs:
            why = unlinkable(s)
            if why:
                fail("%s: srcs holds %d files, but a gpu_module is one translation unit; %s" % (gctx.label, len(srcs), why))
    if len(srcs) != 1 and not ctx.attr.rdc:
        fail("%s: srcs holds %d files, but a gpu_module without rdc is one translation unit: set rdc = True to link them into one module (a __device__ function or variable of one source usable from another), or give each its own gpu_module (or use cuda_library, where each source is its own module)" % (gctx.label, len(srcs)))
    fmt = ctx.attr.format
    settings = module_settings(ctx, gctx, srcs = srcs, format = fmt, rdc = ctx.attr.rdc, module = ctx.attr.module)
    built = plan_module(
        gctx,
        name = ctx.label.name,
        srcs = srcs,
        chips = settings.chips,
        format = fmt,
        opts = settings.opts,
        compress = ctx.attr.compress,
        rdc = ctx.attr.rdc,
        ptx_chips = settings.ptx,
    )
    main = built.main

    # Runs-on validation: the build fails when the artifact cannot load on a declared runner. Offload
    # bitcode loads nowhere: the module that links it is checked (runs_on is refused above; the
    # --@rules_gpu//gpu:runners flag, for every target, passes it by).
    validation = emit_runs_on(ctx, gctx, name = ctx.label.name, files = main) if fmt != "offload" else []
    return [
        DefaultInfo(files = depset(main)),
        OutputGroupInfo(per_chip = depset(built.files_by_chip.values()), _validation = depset(validation)),
        GpuModuleInfo(
            chips = settings.chips,
            format = fmt,
            files_by_chip = built.files_by_chip,
            fatbin = built.fatbin,
            ptx = built.ptx,
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
(and, for fatbins, the link again) and leaves the others cached. An MLIR source is lowered once,
by one action that writes every chip's PTX as MLIR's own pipeline does (`nvvm-attach-target` per
chip, `gpu-module-to-binary`); each chip's cubin is then ptxas over its own chip's PTX, so adding a
chip re-runs that lowering, whose other chips' PTX comes out the same, and no other chip's ptxas.
With `fast_math` or `ftz`, which only LLVM's opt and llc apply to the code, it is lowered to LLVM IR
once and compiled per chip instead.

Formats, as MLIR's `gpu-module-to-binary` names them: `offload` (LLVM bitcode per chip), `isa` (PTX
per chip), `bin` (a cubin per chip), `fatbin` (every chip's cubin plus PTX for the lowest chip, or for the
chips `ptx` names, which the driver JIT-compiles on newer GPUs; a chip's cubin is compiled from its
PTX) and `jit` (only the PTX for the lowest chip, for runners whose chips are unknown when building).
An `offload` module is not checked for its runners: no GPU loads bitcode, and the module that links
it is checked instead (`runs_on` on an `offload` module is an error; `--@rules_gpu//gpu:runners`
passes it by).""",
    attrs = dict(CUDA_ATTRS, **dict(MODULE_ATTRS, **{
        "format": attr.string(
            default = "fatbin",
            values = ["bin", "isa", "offload", "fatbin", "jit"],
            doc = "What to produce: `bin`, `isa`, `offload`, `fatbin` or `jit` (see above).",
        ),
        "module": attr.string(doc = "MLIR sources: the `gpu.module` to build, by a POSIX extended regular expression matched anywhere in its name, as MLIR's `--nvvm-attach-target` `module` option reads it (default: the only one)."),
        "srcs": attr.label_list(
            allow_files = EXTENSIONS["mlir"] + EXTENSIONS["llvm"] + EXTENSIONS["ptx"] + EXTENSIONS["cuda"],
            mandatory = True,
            doc = "The kernel source: one `.mlir`, `.ll`, `.bc`, `.ptx` or `.cu` file; with `rdc`, several `.cu`, `.ll` and `.bc` files.",
        ),
    })),
    # --copt/--cxxopt: the C++ standard of CUDA C++ sources whose copts name none.
    fragments = ["cpp"],
    toolchains = [
        BUILDER_TOOLCHAIN,
        CUDA_TOOLCHAIN,
        config_common.toolchain_type(LLVM_TOOLCHAIN, mandatory = False),
    ],
)
