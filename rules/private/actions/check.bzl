"""The runs-on check: a validation action that fails the build when an artifact cannot load on a runner."""

load("//rules/private:context.bzl", "builder_args", "run_builder")

def emit_check(gctx, *, files, runners, driver, out, together = True):
    """Declares the action that runs `gpubuilder check` on `files` for `runners`, writing `out` on success.

    Args:
      gctx: the gpu_context.
      files: the artifact's files (or directories of files).
      together: judge the files as one artifact (one cubin per chip counts as one artifact);
        otherwise each file must load by itself (each module of a program; a program with no
        kernels of its own has none).
      runners: the runner chips, e.g. ["sm_75", "sm_90"].
      driver: the runners' driver CUDA version, or "".
      out: the stamp File, the validation output.
    """
    args = builder_args(gctx)
    args.add("--runs-on", ",".join(runners))
    if driver:
        args.add("--driver", driver)
    if together:
        args.add("--together")
    else:
        args.add("--modules")
    args.add("--stamp", out)
    args.add_all(files)
    run_builder(
        gctx,
        "check",
        args,
        inputs = files,
        outputs = [out],
        mnemonic = "GpuCheck",
        progress_message = "Checking that %%{label} loads on %s" % ", ".join(runners),
    )
