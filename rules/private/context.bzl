"""The one argument factory for the helper's actions, as rules_go's `go/private/context.bzl` is for its builder.

Every action of rules_gpu runs the action helper `gpubuilder`, which the builder toolchain provides
(`//toolchain:builder_toolchain_type`, as rules_go's builder comes with its Go toolchain):
`gpu_context(ctx)` gathers what they share (the helper, the label that messages name, the resolved
toolchains), `builder_args` starts a command line (a parameter file when it is long, `--target`),
`add_tools` passes a toolchain's programs by flag, and `run_builder` declares the action with the
toolchain its programs come from.
"""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("//rules/private:labels.bzl", "display_label")

BUILDER_TOOLCHAIN = Label("//toolchain:builder_toolchain_type")
CUDA_TOOLCHAIN = Label("//toolchain:cuda_toolchain_type")
LLVM_TOOLCHAIN = Label("//toolchain:llvm_toolchain_type")

# The environment variable that carries the CUDA toolkit's version into every action's key.
TOOLKIT_ENV = "RULES_GPU_CUDA_VERSION"

# The attributes of every rule that runs the helper: whether it runs as a worker. (The helper itself
# comes from BUILDER_TOOLCHAIN, which every such rule declares.)
BUILDER_ATTRS = {
    "_worker": attr.label(default = Label("//gpu:worker")),
}

# What a helper action asks of Bazel's worker strategy under --@rules_gpu//gpu:worker: gpubuilder
# speaks the JSON form of the worker protocol (tools/internal/cmdline/worker.go).
_WORKER_REQUIREMENTS = {
    "requires-worker-protocol": "json",
    "supports-workers": "1",
}

def gpu_context(ctx, *, toolchains = True):
    """What every helper action of a target needs.

    Args:
      ctx: the rule context; the rule has BUILDER_ATTRS, declares BUILDER_TOOLCHAIN and, with
        `toolchains`, the CUDA toolchain type and (optionally) the LLVM one.
      toolchains: whether the rule resolves the CUDA and LLVM toolchains.

    Returns:
      A struct: `actions`, `label` (the target as messages name it), `builder` (the helper's
        FilesToRunProvider),
      `cuda` (CudaToolkitInfo or None), `llvm` (LlvmToolchainInfo, or None when no LLVM toolchain
      resolved), `worker` (whether the helper runs as a persistent worker: --@rules_gpu//gpu:worker).
    """
    cuda = None
    llvm = None
    if toolchains:
        cuda = ctx.toolchains[CUDA_TOOLCHAIN].cuda
        resolved = ctx.toolchains[LLVM_TOOLCHAIN]
        llvm = resolved.llvm if resolved else None
    return struct(
        actions = ctx.actions,
        label = display_label(ctx.label),
        builder = ctx.toolchains[BUILDER_TOOLCHAIN].builder.executable,
        cuda = cuda,
        llvm = llvm,
        worker = ctx.attr._worker[BuildSettingInfo].value,
    )

def builder_args(gctx, target = None):
    """A new command line for one verb of the helper: a parameter file when it is long (always, for a worker), then `--target`.

    Args:
      gctx: the gpu_context.
      target: the label that the helper's messages name; default: the context's target.

    Returns:
      An Args object.
    """
    args = gctx.actions.args()
    if gctx.worker:
        # A worker's requests are their parameter files (Bazel finds them by --flagfile=).
        args.use_param_file("--flagfile=%s", use_always = True)
    else:
        args.use_param_file("--params=%s", use_always = False)
    args.set_param_file_format("multiline")
    args.add("--target", target or gctx.label)
    return args

def add_tools(args, toolkit, names = None):
    """Passes programs of a toolchain to the helper, each by its flag (`llvm_link` -> `--llvm-link`).

    Args:
      args: the Args object.
      toolkit: a CudaToolkitInfo or LlvmToolchainInfo.
      names: the programs to pass, where the toolchain has them; default: all of them.

    Returns:
      The programs' Files, the action's tools.
    """
    tools = []
    for name in sorted(toolkit.tools):
        if names != None and name not in names:
            continue
        args.add("--" + name.replace("_", "-"), toolkit.tools[name])
        tools.append(toolkit.tools[name])
    return tools

def run_builder(gctx, verb, args, *, inputs, outputs, mnemonic, progress_message, tools = [], toolchain = None):
    """Declares one action that runs `gpubuilder VERB ARGS`.

    Args:
      gctx: the gpu_context.
      verb: the helper's verb.
      args: the Args object (from builder_args).
      inputs: list or depset of input Files.
      outputs: the output Files.
      mnemonic: the action's mnemonic.
      progress_message: the progress message.
      tools: the toolchain programs the action runs, besides the helper.
      toolchain: the toolchain type those programs come from (CUDA_TOOLCHAIN, LLVM_TOOLCHAIN), so
        that the action runs on an execution platform that toolchain was resolved for; None when
        the action runs the helper alone.
    """

    # The CUDA toolkit's version is part of the key of every action of a target built with one
    # (RULES_GPU_CUDA_VERSION in its environment): a cache shared by machines whose local toolkits
    # differ never gives one machine's results to the other, even where the action reads nothing of
    # the toolkit as an input (a local toolkit's headers, at its absolute --cuda-path).
    env = None
    if gctx.cuda and gctx.cuda.version:
        env = {TOOLKIT_ENV: gctx.cuda.version}
    gctx.actions.run(
        executable = gctx.builder,
        arguments = [verb, args],
        inputs = inputs,
        outputs = outputs,
        tools = tools,
        mnemonic = mnemonic,
        progress_message = progress_message,
        toolchain = toolchain,
        env = env,
        execution_requirements = _WORKER_REQUIREMENTS if gctx.worker else None,
    )
