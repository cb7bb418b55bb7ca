"""The link action: per-chip cubins and PTX into one fatbin (`gpubuild link`)."""

load("//rules/private:labels.bzl", "display_label")

def emit_link(ctx, *, gpubuild, images, out, compress):
    """Declares one action that joins `images` into the fatbin `out`.

    Args:
      ctx: the rule context.
      gpubuild: the helper binary (FilesToRunProvider).
      images: the cubin and PTX Files, in the order they are stored.
      out: the fatbin File.
      compress: "none", "lz4" or "zstd" (applied to PTX, as fatbinary does).
    """
    args = ctx.actions.args()
    args.use_param_file("--params=%s", use_always = False)
    args.set_param_file_format("multiline")
    args.add("--target", display_label(ctx.label))
    args.add("--compress", compress)
    args.add("-o", out)
    args.add_all(images)
    ctx.actions.run(
        executable = gpubuild,
        arguments = ["link", args],
        inputs = images,
        outputs = [out],
        mnemonic = "GpuLink",
        progress_message = "Linking %{label} into %{output}",
    )
