"""`gpu_go_library` and `gpu_cc_library`: a gpu_module's artifact inside a host program."""

load("@io_bazel_rules_go//go:def.bzl", "go_library")
load("@rules_cc//cc:cc_library.bzl", "cc_library")
load("//rules/private:context.bzl", "BUILDER_ATTRS", "BUILDER_TOOLCHAIN", "gpu_context")
load("//rules/private:labels.bzl", "display_label")
load("//rules/private:providers.bzl", "GpuModuleInfo")
load("//rules/private/actions:embed.bzl", "emit_embed")

def _artifact_info(ctx):
    """The module's GpuModuleInfo, after checking that it has one artifact to embed."""
    info = ctx.attr.module[GpuModuleInfo]
    if not info.artifact:
        fail("%s: module %s has no single artifact to embed: format %r with chips %s gives one file per chip; use format = \"fatbin\" (every chip in one file) or a single chip" % (
            display_label(ctx.label),
            display_label(ctx.attr.module.label),
            info.format,
            info.chips,
        ))
    return info

def _gpu_go_embed_impl(ctx):
    info = _artifact_info(ctx)
    outputs = struct(
        package = ctx.attr.package,
        go = ctx.actions.declare_file("%s/%s.go" % (ctx.label.name, ctx.attr.package)),
        copy = ctx.actions.declare_file("%s/%s" % (ctx.label.name, info.artifact.basename)),
    )
    emit_embed(gpu_context(ctx, toolchains = False), module_label = ctx.attr.module.label, info = info, lang = "go", outputs = outputs)
    return [
        DefaultInfo(files = depset([outputs.go])),
        OutputGroupInfo(embedsrcs = depset([outputs.copy])),
    ]

def _gpu_cc_embed_impl(ctx):
    info = _artifact_info(ctx)
    h = ctx.actions.declare_file(ctx.attr.basename + ".h")
    outputs = struct(
        symbol = ctx.attr.symbol,
        h = h,
        include = h.short_path if not h.short_path.startswith("../") else h.short_path.split("/", 2)[2],
        c = ctx.actions.declare_file(ctx.attr.basename + ".c"),
    )
    emit_embed(gpu_context(ctx, toolchains = False), module_label = ctx.attr.module.label, info = info, lang = "c", outputs = outputs)
    return [
        DefaultInfo(files = depset([outputs.c])),
        OutputGroupInfo(hdrs = depset([h])),
    ]

_COMMON_ATTRS = dict({
    "module": attr.label(mandatory = True, providers = [GpuModuleInfo], doc = "The gpu_module whose artifact to embed."),
}, **BUILDER_ATTRS)

_gpu_go_embed = rule(
    implementation = _gpu_go_embed_impl,
    attrs = dict(_COMMON_ATTRS, package = attr.string(mandatory = True)),
    toolchains = [BUILDER_TOOLCHAIN],
)

_gpu_cc_embed = rule(
    implementation = _gpu_cc_embed_impl,
    attrs = dict(_COMMON_ATTRS, basename = attr.string(mandatory = True), symbol = attr.string(mandatory = True)),
    toolchains = [BUILDER_TOOLCHAIN],
)

def _last_element(importpath):
    return importpath.rstrip("/").rsplit("/", 1)[-1].replace("-", "_").replace(".", "_")

def gpu_go_library(name, module, importpath, package = None, **kwargs):
    """A Go package that carries a gpu_module's artifact, embedded with `//go:embed`.

    The package (a `go_library`, usable as any Go target's dependency) declares:

    ```go
    var Artifact string          // the fatbin, cubin or PTX, for cuModuleLoadData (cu.LoadData)
    const Label, Format string   // the gpu_module target and its format
    func Chips() []string        // the chips it was built for
    func Kernels() []string      // the kernels it defines, read from the artifact
    ```

    Args:
      name: the go_library's name.
      module: the gpu_module (one artifact: format `fatbin`, `jit`, or a single chip).
      importpath: the Go import path of the package.
      package: the Go package name; default: the last element of `importpath`.
      **kwargs: passed to go_library (visibility, tags, ...).
    """
    pkg = package or _last_element(importpath)
    _gpu_go_embed(
        name = name + "_embed",
        module = module,
        package = pkg,
        visibility = ["//visibility:private"],
        tags = kwargs.get("tags"),
    )
    native.filegroup(
        name = name + "_embedsrcs",
        srcs = [name + "_embed"],
        output_group = "embedsrcs",
        visibility = ["//visibility:private"],
        tags = kwargs.get("tags"),
    )
    go_library(
        name = name,
        srcs = [name + "_embed"],
        embedsrcs = [name + "_embedsrcs"],
        importpath = importpath,
        **kwargs
    )

def gpu_cc_library(name, module, symbol = None, **kwargs):
    """A C/C++ library that carries a gpu_module's artifact as bytes: `#include "PKG/NAME.h"`.

    The header (C and C++) declares, for `symbol`:

    ```c
    extern const unsigned char SYMBOL[];          // 16-byte aligned; a NUL follows (PTX is a C string)
    extern const size_t SYMBOL_size;              // its size, without that NUL
    extern const char *const SYMBOL_kernels[];    // the kernels it defines, then NULL
    ```

    so that `cuModuleLoadData(&module, SYMBOL)` loads it.

    Args:
      name: the cc_library's name; the header is `NAME.h` in this package.
      module: the gpu_module (one artifact: format `fatbin`, `jit`, or a single chip).
      symbol: the C name of the bytes; default: `name`.
      **kwargs: passed to cc_library (visibility, tags, ...).
    """
    _gpu_cc_embed(
        name = name + "_embed",
        basename = name,
        module = module,
        symbol = symbol or name,
        visibility = ["//visibility:private"],
        tags = kwargs.get("tags"),
    )
    native.filegroup(
        name = name + "_hdrs",
        srcs = [name + "_embed"],
        output_group = "hdrs",
        visibility = ["//visibility:private"],
        tags = kwargs.get("tags"),
    )
    cc_library(
        name = name,
        srcs = [name + "_embed"],
        hdrs = [name + "_hdrs"],
        **kwargs
    )
