"""The link action: per-chip cubins and PTX into one fatbin (`gpubuilder link`)."""

load("//rules/private:context.bzl", "builder_args", "run_builder")

def emit_link(gctx, *, images, out, compress, program = False):
    """Declares one action that joins `images` into the fatbin `out`.

    Args:
      gctx: the gpu_context.
      images: the cubin and PTX Files, in the order they are stored.
      out: the fatbin File.
      compress: "none", "lz4" or "zstd" (applied to PTX, as fatbinary does).
      program: link each module of an MLIR program (`gpubuilder link --program`): `images` are
        directories of the modules' files, one per chip (and PTX), and `out` a directory of
        fatbins, NAME.fatbin.
    """
    args = builder_args(gctx)
    if program:
        args.add("--program")
    args.add("--compress", compress)
    args.add("-o", out.path)
    if program:
        args.add_all(images, expand_directories = False)
    else:
        args.add_all(images)
    run_builder(
        gctx,
        "link",
        args,
        inputs = images,
        outputs = [out],
        mnemonic = "GpuLink",
        progress_message = "Linking %{label} into %{output}",
    )
