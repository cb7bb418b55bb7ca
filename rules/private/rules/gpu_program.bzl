"""`gpu_binary` and `gpu_test`: whole MLIR GPU programs (host code and kernels) as executables and tests."""

load("@rules_cc//cc:find_cc_toolchain.bzl", "use_cc_toolchain")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//rules/private:cc.bzl", "cc_features")
load("//rules/private:context.bzl", "BUILDER_TOOLCHAIN", "CUDA_TOOLCHAIN", "LLVM_TOOLCHAIN", "gpu_context")
load("//rules/private:labels.bzl", "display_label")
load("//rules/private:module.bzl", "MODULE_ATTRS", "emit_runs_on", "lowest_chip", "module_settings")
load("//rules/private:plan.bzl", "plan_module")
load("//rules/private/actions:host.bzl", "emit_prepare", "emit_program_host")
load("//rules/private/rules:gpu_test.bzl", "GPU_TAG", "gpu_exec_properties", "runner_abi_test")

# What the runtime (package mlirrt, a Go C archive) needs of the system besides itself.
_RUNTIME_LINKOPTS = ["-lcuda", "-lpthread", "-ldl"]

def _gpu_binary_impl(ctx):
    gctx = gpu_context(ctx)
    src = ctx.file.src
    label = gctx.label
    if ctx.attr.passes:
        # The program as the passes leave it is what the lowering and the host compile read.
        prepared = ctx.actions.declare_file("_prepared/%s/%s.prepared.mlir" % (ctx.label.name, src.basename[:-len(".mlir")]))
        emit_prepare(gctx, src = src, passes = ctx.attr.passes, out = prepared)
        src = prepared
    fmt = ctx.attr.format
    settings = module_settings(ctx, gctx, srcs = [src], format = fmt, rdc = False)
    if [t for t in ["mlir_opt", "mlir_translate", "llc"] if t not in gctx.llvm.tools]:
        fail("%s: an MLIR program's host side needs mlir-opt, mlir-translate and llc from the LLVM toolchain" % label)
    name = ctx.label.name
    lowest = lowest_chip(settings.chips)
    built = plan_module(gctx, name = name, srcs = [src], chips = settings.chips, format = fmt, opts = settings.opts, ptx_chips = [lowest], compress = ctx.attr.compress, program = True)

    # Every module of the program must load on every runner: each is judged alone.
    validation = emit_runs_on(ctx, gctx, name = name, files = [built.fatbin], together = False)

    obj = ctx.actions.declare_file("_objs/%s/%s.pic.o" % (name, name))
    emit_program_host(gctx, src = src, modules = built.fatbin, chip = lowest, out = obj, opt = 0 if ctx.var["COMPILATION_MODE"] == "dbg" else ctx.attr.host_opt_level)

    cc_toolchain, features = cc_features(ctx)
    linked = cc_common.link(
        name = name,
        actions = ctx.actions,
        feature_configuration = features,
        cc_toolchain = cc_toolchain,
        compilation_outputs = cc_common.create_compilation_outputs(objects = depset([obj]), pic_objects = depset([obj])),
        linking_contexts = [ctx.attr.runtime[CcInfo].linking_context],
        user_link_flags = _RUNTIME_LINKOPTS + ctx.attr.linkopts,
        output_type = "executable",
    )
    exe = linked.executable
    return [
        DefaultInfo(executable = exe, files = depset([exe])),
        OutputGroupInfo(
            modules = depset([built.fatbin]),
            per_chip = depset(built.files_by_chip.values() + ([built.ptx] if built.ptx else [])),
            objects = depset([obj]),
            _validation = depset(validation),
        ),
    ]

def _shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

# What gpu_test's `check` runs the program with: the shell redirection of the output FileCheck reads.
_CHECK_REDIRECTS = {
    "combined": '>"$out" 2>&1',
    "exit_status": "",
    "stderr": '2>"$out"',
    "stdout": '>"$out"',
}

def _gpu_test_impl(ctx):
    program = ctx.executable.program
    checker = ctx.executable._filecheck
    script = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.expand_template(
        template = ctx.file._template,
        output = script,
        substitutions = {
            "%{label}": display_label(ctx.label),
            "%{program}": program.short_path,
            "%{filecheck}": checker.short_path,
            "%{checks}": ctx.file.src.short_path,
            "%{prefixes}": " ".join(["--check-prefix=" + p for p in ctx.attr.check_prefixes]),
            "%{args}": " ".join([_shell_quote(a) for a in ctx.attr.program_args]),
            "%{check}": ctx.attr.check,
            "%{redirect}": _CHECK_REDIRECTS[ctx.attr.check],
        },
        is_executable = True,
    )
    runfiles = ctx.runfiles([program, ctx.file.src]).merge_all([
        ctx.attr.program[DefaultInfo].default_runfiles,
        ctx.attr._filecheck[DefaultInfo].default_runfiles,
    ])
    return [DefaultInfo(executable = script, runfiles = runfiles)]

_PROGRAM_ATTRS = {
    "format": attr.string(
        default = "fatbin",
        values = ["bin", "fatbin", "jit"],
        doc = """What each module of the program carries: `fatbin` (every chip's cubin and PTX for the lowest
chip), `bin` (the cubins only: the program runs only on the chips' families) or `jit` (PTX only, which
the driver compiles when the program loads it). The program loads each with `mgpuModuleLoad`.""",
    ),
    "host_opt_level": attr.int(
        default = 2,
        values = [0, 1, 2, 3],
        doc = "The optimisation level of the host side's code generation (llc's `-O`, as upstream's runner takes one); 0 with `-c dbg`.",
    ),
    "linkopts": attr.string_list(doc = "Extra linker options of the program, e.g. `[\"-lm\"]`."),
    "passes": attr.string_list(doc = """mlir-opt's options to run over the program before its GPU lowering, in order, as
a RUN line's first `mlir-opt` (e.g. `["--convert-linalg-to-parallel-loops", "--gpu-map-parallel-loops",
"--convert-parallel-loops-to-gpu"]`, or a sparsifier or transform pipeline). One action runs them
(`GpuPrepare`); the lowering and the host compile read its output. The chips and format stay the
rules': of a pipeline among the passes that gives modules a target or serializes them (the
sparsifier with a `gpu-triple`), the program is taken as it is before `nvvm-attach-target`,
`gpu-module-to-binary` or `gpu-to-llvm`, so its `gpu-chip` and `gpu-format` decide nothing
(docs/mlir.md)."""),
    "src": attr.label(
        allow_single_file = [".mlir"],
        mandatory = True,
        doc = """The program: an MLIR file with a host `func.func @main` (taking nothing, or `(i32, !llvm.ptr)`:
argc and argv; returning nothing, for exit status 0, or `i32`, the exit status) and its kernels, in
`gpu.module`s (`gpu.launch_func`) or `gpu.launch` regions (outlined into `gpu.module @FUNC_kernel`), as
MLIR's GPU integration tests are written. Its printing calls (`printMemrefF32`, `printF32`,
`printNewline`, ...) print as MLIR's runner utilities do.""",
    ),
    "runtime": attr.label(
        default = Label("//tools/internal/mlirrt/archive"),
        providers = [CcInfo],
        doc = """The library that provides what the lowered program calls: MLIR's CUDA runtime wrappers
(`mgpuModuleLoad`, `mgpuLaunchKernel`, ...) and runner utilities (`printMemrefF32`, ...). Default:
rules_gpu's (package mlirrt, a Go C archive over the CUDA driver); any `CcInfo` target with the same
symbols, e.g. one wrapping upstream's `libmlir_cuda_runtime` and `libmlir_c_runner_utils`.""",
    ),
}

# Module attributes that mean nothing for a program (no CUDA C++, one source).
_NOT_FOR_PROGRAMS = ["compiler", "ptx", "rdc"]

_ATTRS = {k: v for k, v in MODULE_ATTRS.items() if k not in _NOT_FOR_PROGRAMS}
_ATTRS.update(_PROGRAM_ATTRS)

_TOOLCHAINS = [
    BUILDER_TOOLCHAIN,
    CUDA_TOOLCHAIN,
    LLVM_TOOLCHAIN,
] + use_cc_toolchain()

_PROGRAM_DOC = """The device modules are built as `gpu_module`'s are, for every module the program holds: one
action lowers them all and writes each chip's PTX, one compile action per chip (ptxas over its chip's
PTX), one link making each module's fatbin,
and the runs-on check over each module (every one must load on every runner). The host side is lowered
by MLIR with each `gpu.module` replaced by a `gpu.binary` holding its fatbin, compiled by llc, and
linked with rules_gpu's runtime (package mlirrt: MLIR's CUDA runtime wrappers over the CUDA driver,
whose errors name the call, and for a module that cannot load the chips it holds and the GPU's) and
`-lcuda`."""

gpu_binary = rule(
    implementation = _gpu_binary_impl,
    doc = "An MLIR GPU program (host code and kernels) as an executable.\n\n" + _PROGRAM_DOC,
    attrs = _ATTRS,
    executable = True,
    toolchains = _TOOLCHAINS,
    fragments = ["cpp"],
)

_gpu_test = rule(
    implementation = _gpu_test_impl,
    doc = "Runs a `gpu_binary` and checks its standard output against the `// CHECK` lines of its source.",
    attrs = {
        "check": attr.string(
            default = "stdout",
            values = sorted(_CHECK_REDIRECTS.keys()),
            doc = """What the CHECK lines are matched against: `stdout` (the program's standard output, as
`mlir-runner ... | FileCheck %s`), `stderr` (its standard error, for what the runtime reports, such as
a failed device assert), `combined` (both, interleaved, as upstream's `2>&1 | FileCheck %s`), or
`exit_status`: no CHECK lines, the test passes when the program exits with status 0 (upstream's
tests that only check that a program runs).""",
        ),
        "check_prefixes": attr.string_list(
            default = ["CHECK"],
            doc = "The FileCheck prefixes whose directives the output must match.",
        ),
        "program": attr.label(mandatory = True, executable = True, cfg = "target", doc = "The gpu_binary to run."),
        "program_args": attr.string_list(doc = "The program's arguments, written into the test script (so that a runner that starts the script by hand passes them too), before any `--test_arg`."),
        "src": attr.label(mandatory = True, allow_single_file = [".mlir"], doc = "The file holding the CHECK lines: the program's source."),
        "_filecheck": attr.label(
            default = Label("//tools/cmd/filecheck"),
            executable = True,
            cfg = "target",
            doc = "filecheck (LLVM's FileCheck in Go), which checks the output where the test runs.",
        ),
        "_template": attr.label(
            default = Label("//rules/private/rules:gpu_test.sh.tpl"),
            allow_single_file = True,
        ),
    },
    test = True,
)

# The attributes of a test rule rather than of the program it runs.
_TEST_ARGS = ["check", "check_prefixes", "env", "env_inherit", "flaky", "local", "shard_count", "size", "timeout"]

def gpu_test(name, src, runs_on = [], tags = [], exec_properties = {}, visibility = None, **kwargs):
    """An MLIR GPU program run as a test: its standard output must match its source's `// CHECK` lines.

    The program is `NAME_program`, a `gpu_binary`; the test runs it (with `args`, which the test
    script holds, then any `--test_arg`) and checks what it
    prints with rules_gpu's `filecheck` (LLVM's FileCheck in Go), which reads `CHECK`, `CHECK-NEXT`, `CHECK-SAME`, `CHECK-NOT`,
    `CHECK-COUNT-n`, `CHECK-LABEL`, `{{regex}}` and `[[VAR:regex]]` as LLVM's FileCheck does. A
    program that exits with a non-zero status fails the test. The test needs a GPU: it is tagged `gpu`
    and routed as `gpu_cc_test` is (`bazel test --test_tag_filters=-gpu` builds it, program included,
    and runs the others), and its companion `NAME_runner_abi` runs everywhere: its build fails when
    the program needs a newer glibc than `--@rules_gpu//gpu:runners_have` declares.

    Args:
      name: the test's name.
      src: the program (.mlir), which also holds the CHECK lines.
      runs_on: the chips the test runs on, e.g. `["sm_90"]`: every module of the program must load on
        each (a build error says why not), and they become the test run's `exec_properties`
        (`test.gpu-family`: the first chip's family, e.g. `sm_9x`, is the pool key of a remote
        executor's GPU runners). Default: `--@rules_gpu//gpu:runners`.
      tags: more tags; `gpu` is added to the test.
      exec_properties: more execution properties; they win over the derived ones.
      visibility: the targets' visibility.
      **kwargs: `gpu_binary`'s attributes (`chips`, `format`, `opt_level`, ...), `check` (what the CHECK
        lines match: `stdout`, `stderr`, `combined`, or `exit_status` alone), `check_prefixes`,
        and those of every test (`args`, `size`, `timeout`, ...).
    """
    test_kwargs = {k: kwargs.pop(k) for k in _TEST_ARGS if k in kwargs}
    program_args = kwargs.pop("args", [])
    other_tags = [t for t in tags if t != GPU_TAG]
    gpu_binary(
        name = name + "_program",
        src = src,
        runs_on = runs_on,
        tags = other_tags,
        testonly = True,
        visibility = visibility,
        **kwargs
    )
    _gpu_test(
        name = name,
        program = ":" + name + "_program",
        program_args = program_args,
        src = src,
        tags = tags + ([GPU_TAG] if GPU_TAG not in tags else []),
        exec_properties = dict(gpu_exec_properties(runs_on), **exec_properties),
        visibility = visibility,
        **test_kwargs
    )
    runner_abi_test(
        name = name + "_runner_abi",
        program = ":" + name + "_program",
        tags = other_tags,
        testonly = True,
        size = "small",
        visibility = visibility,
    )
