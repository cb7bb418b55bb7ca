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

_TEMPLATE = Label("//toolchain/private:BUILD.toolchain.tpl")

# The CPU constraint of each architecture name that Bazel's repository_os.arch or NVIDIA's archive
# names use.
_CPUS = {
    "aarch64": "aarch64",
    "amd64": "x86_64",
    "arm64": "aarch64",
    "sbsa": "aarch64",
    "x86_64": "x86_64",
}

def glob_attr(patterns):
    """An attribute value that the generated BUILD file writes as `glob(patterns)`."""
    return struct(glob = patterns)

def _render(value):
    if type(value) == "struct":
        return "glob(%r, allow_empty = True)" % (value.glob,)
    return repr(value)

def platform_constraints(rctx, arch = None):
    """The constraints of the platform a toolchain's programs run on: its OS and CPU.

    Args:
      rctx: the repository context.
      arch: the architecture as NVIDIA's archives name it (`x86_64`, `sbsa`), or None for the machine
        that runs the repository rule.

    Returns:
      A list of constraint value labels, as strings (only the OS when the CPU is not one Bazel's
      platforms name).
    """
    os = rctx.os.name.lower()
    os = "osx" if os.startswith("mac") else "windows" if os.startswith("windows") else "linux"
    constraints = [str(Label("@platforms//os:" + os))]
    cpu = _CPUS.get(arch or rctx.os.arch)
    if cpu:
        constraints.append(str(Label("@platforms//cpu:" + cpu)))
    return constraints

def write_toolchain_repo(rctx, *, rule_file, rule_name, toolchain_type, attrs, exports, constraints):
    """Writes the BUILD file of a toolchain repository from the template: one rule target and its `toolchain`.

    Every value is written with repr(), so a path with a quote or a backslash cannot break the file.

    Args:
      rctx: the repository context.
      rule_file: the Label of the .bzl defining the toolchain rule.
      rule_name: the toolchain rule's name (and, without `_toolchain`, the target's).
      toolchain_type: the Label of the toolchain type.
      attrs: dict of the rule's attributes: name -> str, list, or glob_attr(patterns).
      exports: glob patterns of the files to export.
      constraints: the platform constraints (platform_constraints) of both the execution and the
        target platform: the toolkit's programs run there, and the code they produce is for it.
    """
    name = rule_name.replace("_toolchain", "")
    rctx.template("BUILD.bazel", _TEMPLATE, substitutions = {
        "%{attrs}": "\n".join(["    %s = %s," % (k, _render(attrs[k])) for k in sorted(attrs)]),
        "%{exec_compatible_with}": repr(constraints),
        "%{exports}": repr(exports),
        "%{generator}": rctx.attr.name,
        "%{name}": repr(name),
        "%{rule_file}": repr(str(rule_file)),
        "%{rule_name}": rule_name,
        "%{rule_symbol}": repr(rule_name),
        "%{target_compatible_with}": repr(constraints),
        "%{toolchain}": repr(":" + name),
        "%{toolchain_type}": repr(str(toolchain_type)),
    }, executable = False)

def write_cuda_repo(rctx, attrs, exports, constraints):
    """Writes the BUILD file of a CUDA toolkit repository: a `cuda_toolchain` and its `toolchain`.

    Args:
      rctx: the repository context.
      attrs: dict of the cuda_toolchain rule's attributes (see write_toolchain_repo).
      exports: glob patterns of the files to export.
      constraints: the platform constraints (platform_constraints).
    """
    write_toolchain_repo(
        rctx,
        rule_file = Label("//toolchain:cuda_toolchain.bzl"),
        rule_name = "cuda_toolchain",
        toolchain_type = Label("//toolchain:cuda_toolchain_type"),
        attrs = attrs,
        exports = exports,
        constraints = constraints,
    )

def local_tag(*, default_name, what, path_doc, attrs = {}):
    """The `local` tag class: a toolchain found on the machine that builds.

    Args:
      default_name: the default repository name.
      what: what is found, for docs ("a CUDA toolkit").
      path_doc: the doc of the `path` attribute.
      attrs: further attributes of the tag.

    Returns:
      A tag_class.
    """
    return tag_class(
        doc = "%s found on the machine that builds." % what,
        attrs = dict(attrs, **{
            "name": attr.string(default = default_name, doc = "The repository's name."),
            "path": attr.string(doc = path_doc),
        }),
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
