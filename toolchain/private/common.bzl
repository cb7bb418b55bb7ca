"""What the CUDA and LLVM toolchains share: tool collection, the generated repository, the extension."""

def cuda_version(rctx, ptxas):
    """The CUDA version `MAJOR.MINOR` that `ptxas --version` reports, or None.

    Args:
      rctx: the repository context.
      ptxas: the path of ptxas.

    Returns:
      The version string, e.g. "12.4", or None when ptxas does not run or say it.
    """
    res = rctx.execute([ptxas, "--version"])
    if res.return_code != 0:
        return None
    for line in res.stdout.splitlines():
        if "release " in line:
            # "Cuda compilation tools, release 12.4, V12.4.131"
            return line.split("release ")[1].split(",")[0].strip()
    return None

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

def write_cuda_repo(rctx, attrs, exports):
    """Writes the BUILD file of a CUDA toolkit repository: a `cuda_toolchain` and its `toolchain`.

    Args:
      rctx: the repository context.
      attrs: lines of `name = value,` for the cuda_toolchain rule.
      exports: glob patterns of the files to export.
    """
    write_toolchain_repo(
        rctx,
        rule_file = Label("//toolchain:cuda_toolchain.bzl"),
        rule_name = "cuda_toolchain",
        toolchain_type = Label("//toolchain:cuda_toolchain_type"),
        attrs = attrs,
        exports = exports,
    )

def local_tag(*, default_name, what, path_doc):
    """The `local` tag class: a toolchain found on the machine that builds.

    Args:
      default_name: the default repository name.
      what: what is found, for docs ("a CUDA toolkit").
      path_doc: the doc of the `path` attribute.

    Returns:
      A tag_class.
    """
    return tag_class(
        doc = "%s found on the machine that builds." % what,
        attrs = {
            "name": attr.string(default = default_name, doc = "The repository's name."),
            "path": attr.string(doc = path_doc),
        },
    )

def declare_once(mctx, declare):
    """Calls `declare(tag_name, tag)` for each tag of every module, once per repository name.

    The root module's tags come first, so its choice wins when two modules name the same repository.

    Args:
      mctx: the module context.
      declare: a function of the tag's class name and the tag.
    """
    seen = {}
    for mod in mctx.modules:
        for kind in ["local", "archive"]:
            for tag in getattr(mod.tags, kind, []):
                if tag.name in seen:
                    continue
                seen[tag.name] = True
                declare(kind, tag)

def local_extension(*, repo_rule, default_name, what, path_doc):
    """A module extension with one tag class, `local`, that declares `repo_rule` repositories.

    Args:
      repo_rule: the repository rule (taking name and path).
      default_name: the default repository name.
      what: what is found, for docs ("a CUDA toolkit").
      path_doc: the doc of the `path` attribute.

    Returns:
      A module_extension.
    """

    def _declare(_kind, tag):
        repo_rule(name = tag.name, path = tag.path)

    def _impl(mctx):
        declare_once(mctx, _declare)

    return module_extension(
        implementation = _impl,
        doc = "Declares repositories of %s found on the machine that builds; register `@NAME//:all` as toolchains." % what,
        tag_classes = {"local": local_tag(default_name = default_name, what = what, path_doc = path_doc)},
    )
