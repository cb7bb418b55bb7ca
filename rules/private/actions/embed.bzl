"""The embed action: one artifact into a Go file or a C header and source (`gpubuilder embed`)."""

load("//rules/private:context.bzl", "builder_args", "run_builder")
load("//rules/private:labels.bzl", "display_label")

def emit_embed(gctx, *, module_label, info, lang, outputs):
    """Declares the action that writes the host-language files carrying `info.artifact`.

    Args:
      gctx: the gpu_context.
      module_label: the gpu_module's Label, written into the files.
      info: the module's GpuModuleInfo.
      lang: "go" or "c".
      outputs: for go, a struct(package, go, copy); for c, a struct(symbol, h, include, c).
    """
    module = display_label(module_label)
    args = builder_args(gctx, target = module)
    args.add("--lang", lang)
    args.add("--format", info.format)
    args.add_joined("--chips", info.chips, join_with = ",")
    if lang == "go":
        args.add("--package", outputs.package)
        args.add("--go-out", outputs.go)
        args.add("--copy-to", outputs.copy)
        files = [outputs.go, outputs.copy]
    else:
        args.add("--symbol", outputs.symbol)
        args.add("--h-out", outputs.h)
        args.add("--include", outputs.include)
        args.add("--c-out", outputs.c)
        files = [outputs.h, outputs.c]
    args.add(info.artifact)
    run_builder(
        gctx,
        "embed",
        args,
        inputs = [info.artifact],
        outputs = files,
        mnemonic = "GpuEmbed",
        progress_message = "Embedding %s of %s in %s (%%{label})" % (info.artifact.basename, module, "Go" if lang == "go" else "C"),
    )
