"""What a CUDA C++ device compile sees of a project: its headers, include paths, defines and options.

The same as what a `cc_library` compile sees: the target's own `hdrs`, `includes`, `defines` and
`copts`, and the `CcInfo` of its `deps` (their headers, include paths, system and quote includes, and
defines). The headers are action inputs, so that a sandboxed compile sees them and nothing else.
And the C++ toolchain of the rules that compile or link host code (`cc_features`).
"""

load("@bazel_skylib//lib:paths.bzl", "paths")
load("@rules_cc//cc:find_cc_toolchain.bzl", "find_cc_toolchain")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//rules/private:kinds_table.bzl", "HEADER_EXTENSIONS")

CUDA_ATTRS = {
    "copts": attr.string_list(doc = "Options of the device compile of CUDA C++ sources, e.g. `[\"-Wall\"]`. A C++ standard among them (`-std=c++20`) is the sources' language on both sides: `cuda_library`'s host compile takes it too. Without one, the last `-std=` of `--cxxopt` or `--copt` is."),
    "defines": attr.string_list(doc = "Preprocessor definitions for CUDA C++ sources, `NAME` or `NAME=VALUE` (as `-D`)."),
    "deps": attr.label_list(
        providers = [CcInfo],
        doc = "Libraries whose headers CUDA C++ sources include: any target with `CcInfo` (`cc_library`). Their headers, include paths and defines reach the device compile.",
    ),
    "hdrs": attr.label_list(
        allow_files = HEADER_EXTENSIONS,
        doc = "Headers of this target that its CUDA C++ sources include.",
    ),
    "textual_hdrs": attr.label_list(
        allow_files = True,
        doc = "Files that the CUDA C++ sources include and that are not compiled on their own, of any extension: a `.cu` that another `.cu` includes, as `cc_library`'s `textual_hdrs`.",
    ),
    "includes": attr.string_list(doc = "Include directories, relative to this package, for CUDA C++ sources (as `cc_library`'s `includes`: added with `-I` from the source and the output tree)."),
}

def cuda_compilation(ctx):
    """The project a CUDA C++ source of `ctx`'s target is compiled in.

    Args:
      ctx: the rule context of a rule with CUDA_ATTRS.

    Returns:
      A struct: `headers` (depset of File, action inputs), `defines`, `quote_includes`, `includes`,
      `system_includes` (lists of strings, in order), `own_includes` (the target's own `includes`,
      as execution-root paths), `copts` (list of strings: the target's, after the C++ standard of
      `--copt`/`--cxxopt` when the target names none) and `std` (the one `-std=` option of the
      sources' language, or none: a list).
    """
    contexts = [dep[CcInfo].compilation_context for dep in ctx.attr.deps]

    # One language for both sides of a source: the target's C++ standard, else the command line's
    # (--copt, then --cxxopt, as a C++ compile orders them; the last wins).
    own_std = _std(ctx.attr.copts)
    std_of_flags = _std(ctx.fragments.cpp.copts + ctx.fragments.cpp.cxxopts)[-1:]
    root = paths.join(ctx.label.workspace_root, ctx.label.package)
    own = []
    for inc in ctx.attr.includes:
        d = paths.normalize(paths.join(root, inc))
        own += [d, paths.join(ctx.bin_dir.path, d)]
    return struct(
        headers = depset(ctx.files.hdrs + ctx.files.textual_hdrs, transitive = [c.headers for c in contexts]),
        defines = ctx.attr.defines + depset(transitive = [c.defines for c in contexts]).to_list(),
        # As a cc_library compile: #include "pkg/file.h" from the repository root, in the source tree
        # and the output tree.
        quote_includes = [ctx.label.workspace_root or ".", paths.join(ctx.bin_dir.path, ctx.label.workspace_root)] +
                         depset(transitive = [c.quote_includes for c in contexts]).to_list(),
        includes = own + depset(transitive = [c.includes for c in contexts]).to_list(),
        own_includes = own,
        system_includes = depset(transitive = [c.system_includes for c in contexts]).to_list(),
        copts = std_of_flags + ctx.attr.copts if std_of_flags and not own_std else ctx.attr.copts,
        std = own_std[-1:] or std_of_flags,
    )

def _std(flags):
    """The -std= options among `flags`."""
    return [f for f in flags if f.startswith("-std=")]

def has_cuda_attrs(ctx):
    """Whether any of the CUDA C++ project attributes is set."""
    return any([getattr(ctx.attr, a, None) for a in ["hdrs", "textual_hdrs", "deps", "includes", "defines", "copts"]])

def cc_features(ctx):
    """The rule's C++ toolchain and its feature configuration, as cc_common's compile and link want them.

    Args:
      ctx: the rule context (its rule uses `use_cc_toolchain()` and the `cpp` fragment).

    Returns:
      (cc_toolchain, feature_configuration).
    """
    cc_toolchain = find_cc_toolchain(ctx)
    return cc_toolchain, cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
