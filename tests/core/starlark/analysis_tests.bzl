"""Analysis tests of rules_gpu's rules: their errors and the actions they declare.

Each test analyses a target on one of the fake platforms of toolchains.bzl, so no real toolkit is
needed and no action runs: `bazel test //tests/core/starlark/...` takes seconds.
"""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")

def _settings(platform):
    return {"//command_line_option:platforms": str(Label("//tests/core/starlark:%s_platform" % platform))}

def _failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.message)
    return analysistest.end(env)

def _failure_test(platform):
    return analysistest.make(
        _failure_test_impl,
        expect_failure = True,
        attrs = {"message": attr.string(mandatory = True, doc = "Text the analysis error must contain.")},
        config_settings = _settings(platform),
        doc = "Passes when analysing the target fails with `message` (on the %s fake platform)." % platform,
    )

failure_test = _failure_test("cuda_12_4")

# A target that names no chips, analysed with --@rules_gpu//gpu:chips=sm_80,sm_80.
failure_duplicate_chips_flag_test = analysistest.make(
    _failure_test_impl,
    expect_failure = True,
    attrs = {"message": attr.string(mandatory = True, doc = "Text the analysis error must contain.")},
    config_settings = dict(_settings("cuda_12_4"), **{str(Label("//gpu:chips")): ["sm_80", "sm_80"]}),
    doc = "Passes when analysing the target with --@rules_gpu//gpu:chips=sm_80,sm_80 fails with `message`.",
)

# A target analysed with --@rules_gpu//gpu:runners=sm_90a (a target, not a GPU).
failure_runners_flag_test = analysistest.make(
    _failure_test_impl,
    expect_failure = True,
    attrs = {"message": attr.string(mandatory = True, doc = "Text the analysis error must contain.")},
    config_settings = dict(_settings("cuda_12_4"), **{str(Label("//gpu:runners")): ["sm_90a"]}),
    doc = "Passes when analysing the target with --@rules_gpu//gpu:runners=sm_90a fails with `message`.",
)

# A target analysed with --@rules_gpu//gpu:driver=banana.
failure_driver_flag_test = analysistest.make(
    _failure_test_impl,
    expect_failure = True,
    attrs = {"message": attr.string(mandatory = True, doc = "Text the analysis error must contain.")},
    config_settings = dict(_settings("cuda_12_4"), **{str(Label("//gpu:driver")): "banana"}),
    doc = "Passes when analysing the target with --@rules_gpu//gpu:driver=banana fails with `message`.",
)
failure_cuda_missing_test = _failure_test("cuda_missing")
failure_llvm_missing_test = _failure_test("llvm_missing")
failure_no_llvm_test = _failure_test("no_llvm")
failure_no_nvcc_test = _failure_test("no_nvcc")

def _basenames(files):
    return sorted([f.basename for f in (files.to_list() if type(files) == "depset" else files)])

def _actions_test_impl(ctx):
    env = analysistest.begin(ctx)
    actions = analysistest.target_actions(env)
    counts = {}
    for a in actions:
        if a.mnemonic.startswith("Gpu"):
            counts[a.mnemonic] = counts.get(a.mnemonic, 0) + 1
    asserts.equals(env, {m: int(n) for m, n in ctx.attr.mnemonics.items()}, counts, "the target's gpubuild actions, by mnemonic")

    by_output = {}
    for a in actions:
        for out in a.outputs.to_list():
            by_output[out.basename] = a
    for out, want in ctx.attr.inputs.items():
        a = by_output.get(out)
        asserts.true(env, a != None, "no action writes %s; the outputs: %s" % (out, sorted(by_output)))
        if a:
            asserts.true(env, want in _basenames(a.inputs), "the action writing %s reads %s; its inputs: %s" % (out, want, _basenames(a.inputs)))
    for out, want in ctx.attr.not_inputs.items():
        a = by_output.get(out)
        asserts.true(env, a != None, "no action writes %s; the outputs: %s" % (out, sorted(by_output)))
        if a:
            asserts.false(env, want in _basenames(a.inputs), "the action writing %s must not read %s" % (out, want))

    # Every action that a toolkit's target declares carries its version in its key (a cache shared by
    # machines with different local toolkits must not mix their results).
    for a in actions:
        if a.mnemonic.startswith("Gpu") or a.mnemonic.endswith("HostCompile"):
            asserts.equals(env, "12.4", a.env.get("RULES_GPU_CUDA_VERSION"), "RULES_GPU_CUDA_VERSION of the %s action writing %s" % (a.mnemonic, _basenames(a.outputs)))

    for a in actions:
        if a.mnemonic == "GpuCompile":
            argv = " ".join(a.argv)
            wants = ctx.attr.compile_argv
            if "--origin" not in a.argv:
                wants = wants + ctx.attr.source_argv
            for want in wants:
                asserts.true(env, want in argv, "a GpuCompile command line lacks %r: %s" % (want, argv))
            for unwanted in ctx.attr.not_compile_argv:
                asserts.false(env, unwanted in argv, "a GpuCompile command line has %r: %s" % (unwanted, argv))

    for a in actions:
        if a.mnemonic == "CudaHostCompile":
            argv = " ".join(a.argv)
            for want in ctx.attr.host_argv:
                asserts.true(env, want in argv, "a CudaHostCompile command line lacks %r: %s" % (want, argv))
            for unwanted in ctx.attr.not_host_argv:
                asserts.false(env, unwanted in argv, "a CudaHostCompile command line has %r: %s" % (unwanted, argv))

    for a in actions:
        if a.mnemonic == "GpuLower":
            argv = " ".join(a.argv)
            for want in ctx.attr.lower_argv:
                asserts.true(env, want in argv, "a GpuLower command line lacks %r: %s" % (want, argv))

    target = analysistest.target_under_test(env)
    validation = _basenames(target[OutputGroupInfo]._validation) if hasattr(target[OutputGroupInfo], "_validation") else []
    asserts.equals(env, sorted(ctx.attr.validation), validation, "the _validation output group")
    for out in validation:
        asserts.equals(env, "GpuCheck", by_output[out].mnemonic, "the action writing the validation output " + out)
    return analysistest.end(env)

_ACTIONS_ATTRS = {
    "compile_argv": attr.string_list(doc = "Text every GpuCompile command line must contain."),
    "host_argv": attr.string_list(doc = "Text every CudaHostCompile command line must contain."),
    "inputs": attr.string_dict(doc = "Output basename -> an input basename its action must read."),
    "lower_argv": attr.string_list(doc = "Text every GpuLower command line must contain."),
    "mnemonics": attr.string_dict(doc = "Mnemonic -> how many of the target's actions have it (every Gpu* mnemonic)."),
    "not_compile_argv": attr.string_list(doc = "Text no GpuCompile command line may contain."),
    "not_host_argv": attr.string_list(doc = "Text no CudaHostCompile command line may contain."),
    "not_inputs": attr.string_dict(doc = "Output basename -> an input basename its action must not read."),
    "source_argv": attr.string_list(doc = "Text the command line of every GpuCompile of the user's source (not of PTX made from it) must contain."),
    "validation": attr.string_list(doc = "The basenames of the `_validation` output group."),
}

def _actions_test(flags, doc):
    """An actions test rule on the cuda_12_4 fake platform, with `flags` (setting -> value) set."""
    return analysistest.make(
        _actions_test_impl,
        attrs = _ACTIONS_ATTRS,
        config_settings = dict(_settings("cuda_12_4"), **flags),
        doc = doc,
    )

actions_test = _actions_test({}, "Checks the actions a target declares on the cuda_12_4 fake platform.")
actions_dbg_test = _actions_test({"//command_line_option:compilation_mode": "dbg"}, "actions_test with -c dbg.")
actions_lineinfo_test = _actions_test({str(Label("//gpu:lineinfo")): True}, "actions_test with --@rules_gpu//gpu:lineinfo.")
actions_cxx20_test = _actions_test(
    {"//command_line_option:cxxopt": ["-Wextra", "-std=c++20"]},
    "actions_test with --cxxopt=-Wextra --cxxopt=-std=c++20.",
)
actions_cuda_off_test = _actions_test({str(Label("//gpu:enable")): False}, "actions_test with --@rules_gpu//gpu:enable=false.")
actions_no_pch_test = _actions_test({str(Label("//gpu:pch")): False}, "actions_test with --@rules_gpu//gpu:pch=false.")

def _link_test_impl(ctx):
    env = analysistest.begin(ctx)
    cc = analysistest.target_under_test(env)[CcInfo]
    flags = []
    for linker_input in cc.linking_context.linker_inputs.to_list():
        flags += linker_input.user_link_flags
    asserts.equals(env, ctx.attr.flags, [f.rpartition("/")[2] for f in flags], "the link flags, in order (files by basename)")
    return analysistest.end(env)

_LINK_ATTRS = {"flags": attr.string_list(doc = "The target's link flags in order, a file by its basename.")}

link_test = analysistest.make(
    _link_test_impl,
    attrs = _LINK_ATTRS,
    config_settings = _settings("cuda_12_4"),
    doc = "Checks the link flags of a target with CcInfo on the cuda_12_4 fake platform.",
)

link_shared_test = analysistest.make(
    _link_test_impl,
    attrs = _LINK_ATTRS,
    config_settings = dict(_settings("cuda_12_4"), **{str(Label("//gpu:toolkit_libraries")): "shared"}),
    doc = "link_test with --@rules_gpu//gpu:toolkit_libraries=shared.",
)
