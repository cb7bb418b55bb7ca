"""What the CUDA and LLVM toolchains share: tool collection, the generated repository, the extension."""

def collect_tools(ctx, names):
    """The File of every tool attribute in `names` that is set, by attribute name.

    Args:
      ctx: the rule context of a toolchain rule.
      names: the names of its single-file tool attributes.

    Returns:
      A dict from attribute name to File.
    """
    tools = {}
    for name in names:
        f = getattr(ctx.file, name)
        if f:
            tools[name] = f
    return tools

def write_toolchain_repo(rctx, *, rule_file, rule_name, toolchain_type, attrs, exports):
    """Writes the BUILD file of a discovered toolchain: one `rule_name` target and its `toolchain`.

    Args:
      rctx: the repository context.
      rule_file: the Label of the .bzl defining the toolchain rule.
      rule_name: the toolchain rule's name (and the target's).
      toolchain_type: the Label of the toolchain type.
      attrs: lines of `name = value,` for the rule.
      exports: glob patterns of the files to export.
    """
    rctx.file("BUILD.bazel", """\
load("{rule_file}", "{rule_name}")

package(default_visibility = ["//visibility:public"])

exports_files(glob({exports}))

{rule_name}(
    name = "{name}",
{attrs}
)

toolchain(
    name = "toolchain",
    toolchain = ":{name}",
    toolchain_type = "{type}",
)
""".format(
        rule_file = str(rule_file),
        rule_name = rule_name,
        name = rule_name.replace("_toolchain", ""),
        exports = repr(exports),
        attrs = "\n".join(["    " + a for a in attrs]),
        type = str(toolchain_type),
    ))

def local_extension(*, repo_rule, default_name, what, path_doc):
    """A module extension with one tag class, `local`, that declares `repo_rule` repositories.

    Args:
      repo_rule: the repository rule (taking name and path).
      default_name: the default repository name.
      what: what is found, for docs ("A CUDA toolkit").
      path_doc: the doc of the `path` attribute.
    """

    def _impl(mctx):
        seen = {}
        for mod in mctx.modules:
            for tag in mod.tags.local:
                if tag.name in seen:
                    continue
                seen[tag.name] = True
                repo_rule(name = tag.name, path = tag.path)

    return module_extension(
        implementation = _impl,
        doc = "Declares repositories of %s found on the machine that builds; register `@NAME//:all` as toolchains." % what,
        tag_classes = {"local": tag_class(
            doc = "%s found on the machine that builds." % what,
            attrs = {
                "name": attr.string(default = default_name, doc = "The repository's name."),
                "path": attr.string(doc = path_doc),
            },
        )},
    )
