"""`gpu_cc_test`: a `cc_test` that needs a GPU, marked so, and checked for the machines that run it."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("@rules_cc//cc:cc_test.bzl", "cc_test")
load("//rules/private:chip_table.bzl", "FAMILY")
load("//rules/private:context.bzl", "BUILDER_ATTRS", "BUILDER_TOOLCHAIN", "builder_args", "gpu_context", "run_builder")

# The tag of tests that need a GPU: `--test_tag_filters=-gpu` builds them and runs the others.
GPU_TAG = "gpu"

def gpu_exec_properties(runs_on):
    """The execution properties that route a GPU test's run to a runner of `runs_on`'s first chip's family.

    They are set for the `test` execution group: they apply to the action that runs the test, not
    to the compiles and links that build it, which any executor may run. Executors match platform
    properties exactly, so only routing keys are set: `gpu` and the pool key `gpu-family` (the
    family of the first chip, its compute capability's major: `sm_8x`, `sm_9x`). Whether the test's
    code loads on every chip of `runs_on` is checked when it is built.

    Args:
      runs_on: the chips the test may run on, e.g. ["sm_90"]; the first one picks the pool.

    Returns:
      A dict for `exec_properties`: `test.gpu` ("nvidia") and, when chips are named,
      `test.gpu-family` (e.g. "sm_9x").
    """
    props = {"test.gpu": "nvidia"}
    if runs_on and runs_on[0] in FAMILY:
        props["test.gpu-family"] = FAMILY[runs_on[0]]
    return props

def _runner_abi_test_impl(ctx):
    gctx = gpu_context(ctx, toolchains = False)
    program = ctx.executable.program
    report = ctx.actions.declare_file(ctx.label.name + ".abi.txt")
    args = builder_args(gctx)
    have = ctx.attr._runners_have[BuildSettingInfo].value
    if have:
        args.add_joined("--runners-have", have, join_with = ",")
    args.add("--stamp", report)

    # The shared libraries in the program's runfiles (a cc_import's, LLVM's OpenMP runtime) travel
    # with it: what it needs of them is there, and what they need is checked as its own.
    shipped = [f for f in ctx.attr.program[DefaultInfo].default_runfiles.files.to_list() if ".so" in f.basename and f != program]
    args.add_all(shipped, before_each = "--shipped")
    args.add(program)
    run_builder(
        gctx,
        "abi",
        args,
        inputs = [program] + shipped,
        outputs = [report],
        mnemonic = "GpuRunnerAbi",
        progress_message = "Checking that %s starts on the runners (%s)" % (program.short_path, ", ".join(have) or "no versions declared"),
    )
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(script, "#!/bin/sh\n# The check ran when the program was built: its report.\ncat '%s'\n" % report.short_path, is_executable = True)
    return [DefaultInfo(executable = script, runfiles = ctx.runfiles([report]))]

runner_abi_test = rule(
    implementation = _runner_abi_test_impl,
    doc = "Fails the build when `program` needs a newer glibc or libstdc++ than `--@rules_gpu//gpu:runners_have` says the runners have, or a shared library beyond the C and C++ runtime and the driver that it does not list; as a test, prints what it needs.",
    attrs = dict({
        "program": attr.label(mandatory = True, executable = True, cfg = "target", doc = "The test program."),
        "_runners_have": attr.label(default = Label("//gpu:runners_have")),
    }, **BUILDER_ATTRS),
    toolchains = [BUILDER_TOOLCHAIN],
    test = True,
)

def gpu_cc_test(name, runs_on = [], tags = [], exec_properties = {}, **kwargs):
    """A `cc_test` that needs a GPU: tagged `gpu`, routed by `runs_on`, and checked for its runners.

    `bazel test --test_tag_filters=-gpu //...` on a machine without a GPU builds it and runs the
    rest; a GPU runner (tests/gpu/run.sh here, or a remote executor whose platform matches the
    `exec_properties`) runs it. A companion test, `NAME_runner_abi`, runs everywhere: its build fails
    when the program needs a newer glibc or libstdc++ than `--@rules_gpu//gpu:runners_have` declares,
    or a shared library beyond the C and C++ runtime and the driver that it does not list (a toolkit
    library linked shared: `libcublas.so.12`), so a test that could not start on the runners fails
    where it is built.

    Args:
      name: the test's name.
      runs_on: the chips the test may run on, e.g. `["sm_90"]`; they become the test run's
        `exec_properties`: `test.gpu-family`, the first chip's family (e.g. `sm_9x`), is the pool
        key of a remote executor's GPU runners. Whether its kernels load there is
        the `runs_on` of the `cuda_library`s it depends on (or `--@rules_gpu//gpu:runners`).
      tags: more tags; `gpu` is added.
      exec_properties: more execution properties; they win over the derived ones.
      **kwargs: `cc_test`'s attributes (`srcs`, `deps`, `size`, ...).
    """
    cc_test(
        name = name,
        tags = tags + ([GPU_TAG] if GPU_TAG not in tags else []),
        exec_properties = dict(gpu_exec_properties(runs_on), **exec_properties),
        **kwargs
    )
    runner_abi_test(
        name = name + "_runner_abi",
        program = ":" + name,
        tags = [t for t in tags if t != GPU_TAG],
        testonly = True,
        size = "small",
        visibility = kwargs.get("visibility"),
    )
