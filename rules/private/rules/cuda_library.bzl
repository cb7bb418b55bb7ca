"""The `cuda_library` rule: CUDA C++ with host code, built per chip, as a C++ library."""

load("@rules_cc//cc:action_names.bzl", "ACTION_NAMES")
load("@rules_cc//cc:find_cc_toolchain.bzl", "use_cc_toolchain")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//rules/private:cc.bzl", "CUDA_ATTRS", "cc_features", "cuda_compilation")
load("//rules/private:context.bzl", "BUILDER_TOOLCHAIN", "CUDA_TOOLCHAIN", "LLVM_TOOLCHAIN", "gpu_context")
load("//rules/private:kinds_table.bzl", "EXTENSIONS", "kind_of")
load("//rules/private:labels.bzl", "display_label")
load("//rules/private:module.bzl", "MODULE_ATTRS", "emit_runs_on", "lowest_chip", "module_settings")
load("//rules/private:plan.bzl", "plan_module", "plan_relocatable", "source_stem")
load("//rules/private:providers.bzl", "CudaObjectsInfo", "OpenMPInfo")
load("//rules/private/actions:host.bzl", "emit_host_compile", "emit_register")

# The options of a C++ toolchain that choose the C library and the target: a host compile by clang
# takes them too, so that its objects and the rest of the program see the same headers.
_TOOLCHAIN_FLAGS_JOINED = ["--sysroot=", "--gcc-toolchain=", "--target="]
_TOOLCHAIN_FLAGS_SPLIT = ["--sysroot", "-isysroot", "-target", "--gcc-toolchain"]

def _toolchain_flags(ctx, cc_toolchain, features):
    """The C++ toolchain's --sysroot (and target) options, from its C++ compile command line."""
    variables = cc_common.create_compile_variables(
        feature_configuration = features,
        cc_toolchain = cc_toolchain,
        user_compile_flags = ctx.fragments.cpp.cxxopts + ctx.fragments.cpp.copts,
    )
    line = cc_common.get_memory_inefficient_command_line(
        feature_configuration = features,
        action_name = ACTION_NAMES.cpp_compile,
        variables = variables,
    )
    flags = ["--sysroot=" + cc_toolchain.sysroot] if cc_toolchain.sysroot else []
    for i, flag in enumerate(line):
        if [p for p in _TOOLCHAIN_FLAGS_JOINED if flag.startswith(p)]:
            flags.append(flag)
        elif flag in _TOOLCHAIN_FLAGS_SPLIT and i + 1 < len(line):
            flags += [flag, line[i + 1]]
    return flags

def _openmp(ctx, nvcc):
    """The OpenMP runtime's linking context when the host compile has -fopenmp, else None.

    clang's option, in `host_copts`; with nvcc, its host compiler's, in `host_copts` or as nvcc's
    `-Xcompiler -fopenmp` in `copts`.
    """
    wants = [o for o in ctx.attr.host_copts if o.startswith("-fopenmp")]
    if nvcc:
        copts = ctx.attr.copts
        for i, o in enumerate(copts):
            if o in ["-Xcompiler", "--compiler-options"] and i + 1 < len(copts) and "-fopenmp" in copts[i + 1].split(","):
                wants.append(copts[i + 1])
            elif "=" in o and o.partition("=")[0] in ["-Xcompiler", "--compiler-options"] and "-fopenmp" in o.partition("=")[2].split(","):
                wants.append(o)
    if not wants:
        return None
    info = ctx.attr._openmp[OpenMPInfo]
    if info.missing:
        fail("%s: %s asks for OpenMP: %s" % (display_label(ctx.label), wants[0], info.missing))
    return info.cc_info.linking_context

def _objects_of_deps(infos, label, rdc, compiler, chips):
    """What the `cuda_objects` in deps (their `infos`) give a target, as rdc says: (dict chip -> list of File, objects, validation).

    With rdc, each chip's relocatable device code (checked here: the same compiler, every chip of
    `chips`) and the host objects that ask to be registered with the target's fatbin; without, the
    host objects that carry their own fatbins, and the runs-on checks of those.
    """
    if not rdc:
        return {}, depset(transitive = [i.objects for i in infos]).to_list(), depset(transitive = [i.validation for i in infos]).to_list()
    by_chip = {}
    for info in infos:
        dep = display_label(info.label)
        if info.compiler != compiler:
            fail("%s: links the relocatable device code of %s, compiled by %s, with its own, compiled by %s, and the two do not link together: set compiler = \"%s\" on %s, or \"%s\" on %s" % (label, dep, info.compiler, compiler, compiler, dep, info.compiler, label))
        for chip in chips:
            if chip not in info.rdc_by_chip:
                fail("%s: links the device code of %s for %s, which %s is not built for (it has %s): add %s to its chips, or build both with --@rules_gpu//gpu:chips" % (label, dep, chip, dep, ", ".join(sorted(info.rdc_by_chip)), chip))
            by_chip.setdefault(chip, []).append(info.rdc_by_chip[chip])
    objects = depset(transitive = [i.rdc_objects for i in infos]).to_list()
    return {c: depset(transitive = d).to_list() for c, d in by_chip.items()}, objects, []

def _cuda_impl(ctx, objects_only):
    """The implementation of cuda_library, and of cuda_objects (objects_only).

    The same compiles; a cuda_objects' are linked by the target that depends on it, not by its own.
    """
    gctx = gpu_context(ctx)
    label = gctx.label
    srcs = ctx.files.srcs
    fmt = ctx.attr.format
    rdc = False if objects_only else ctx.attr.rdc
    infos = [d[CudaObjectsInfo] for d in ctx.attr.deps if CudaObjectsInfo in d]
    if not [s for s in srcs if kind_of(s) == "cuda"] and not infos:
        fail("%s: srcs holds no .cu source, and no dep is a cuda_objects; a cuda_library compiles CUDA C++ with its host code, or links cuda_objects (headers alone go in a cc_library, device code alone in a gpu_module)" % label)
    ir = [s for s in srcs if kind_of(s) != "cuda"]
    if ir and not rdc:
        fail("%s: %s is LLVM IR, which joins the device code of the other sources only by device linking: set rdc = True" % (label, ir[0].short_path))

    # A source may hold host code that launches other sources' kernels, and no kernel of its own.
    settings = module_settings(ctx, gctx, srcs = srcs, format = fmt, rdc = rdc, no_kernel_ok = True)
    cc_toolchain, features = cc_features(ctx)
    nvcc = None
    if settings.opts.compiler == "nvcc":
        # nvcc compiles the host side too, as nvcc -c does, with the C++ toolchain's compiler as its
        # host compiler (its sysroot with it), and the device code of the per-chip actions.
        nvcc = struct(
            ccbin = cc_common.get_tool_for_action(feature_configuration = features, action_name = ACTION_NAMES.cpp_compile),
            cc_files = cc_toolchain.all_files,
            chip = lowest_chip(settings.chips),
            arch_list = settings.opts.arch_list,
        )
    elif not gctx.llvm or gctx.llvm.missing or "clang" not in gctx.llvm.tools:
        fail("%s: the host side of CUDA C++ is compiled by clang, and the LLVM toolchain has none; register an LLVM toolchain with clang (the llvm module extension's), or set compiler = \"nvcc\"" % label)
    host_flags = _toolchain_flags(ctx, cc_toolchain, features)
    project = cuda_compilation(ctx)
    opt = ["-O0", "-g"] if ctx.var["COMPILATION_MODE"] == "dbg" else ["-O2"]

    # With clang, the sources' C++ standard is an option of the host compile; nvcc takes it among
    # its own options (copts), for both sides.
    host_copts = ctx.attr.host_copts if nvcc else project.std + ctx.attr.host_copts
    name = ctx.label.name

    def module(mod_name, mod_srcs, rdc_deps = {}):
        built = plan_module(
            gctx,
            name = mod_name,
            srcs = mod_srcs,
            chips = settings.chips,
            format = fmt,
            opts = settings.opts,
            compress = ctx.attr.compress,
            rdc = rdc,
            rdc_deps = rdc_deps,
            ptx_chips = settings.ptx,
            fatbin = True,  # host code carries one, whatever the format
        )
        return built, built.fatbin

    def host(src, fatbin, suffix = ""):
        obj = ctx.actions.declare_file("_objs/%s/%s%s.pic.o" % (name, source_stem(src), suffix))
        emit_host_compile(gctx, src = src, out = obj, fatbin = fatbin, project = project, host_copts = host_copts, opt = opt, toolchain_flags = host_flags, nvcc = nvcc)
        return obj

    def own_modules():
        """Builds each source as its own module, as nvcc compiles it.

        Each has its per-chip actions and fatbin, carried and registered by its own host object.
        Returns a struct of lists: fatbins, per_chip (files), objects, validation.
        """
        mods = struct(fatbins = [], per_chip = [], objects = [], validation = [])
        for src in srcs:
            mod_name = "%s_cu/%s" % (name, source_stem(src))
            built, fatbin = module(mod_name, [src])
            mods.fatbins.append(fatbin)
            mods.per_chip.extend(built.files_by_chip.values())
            mods.objects.append(host(src, fatbin))
            mods.validation.extend(emit_runs_on(ctx, gctx, name = mod_name, files = [fatbin]))
        return mods

    objects = []
    fatbins = []
    per_chip = []
    validation = []
    generated = []
    deferred = None  # cuda_objects: what the target that depends on it links, as its rdc says
    rdc_objects = []  # cuda_objects: its host objects as relocatable device code
    plain = []  # cuda_objects: its host objects, each with its source's fatbin
    if objects_only:
        # rules_cuda's cuda_objects: compiled both ways, and not linked here; the target that
        # depends on it links one or the other (Bazel runs the actions of that one only). With
        # rdc: each source's relocatable device code per chip, device-linked into that target's
        # module, and host objects registered with its fatbin. Without: each source its own
        # module, as below, its host object carrying the fatbin.
        rsettings = module_settings(ctx, gctx, srcs = srcs, format = fmt, rdc = True, no_kernel_ok = True)
        all_chips = rsettings.all_chips
        reloc = plan_relocatable(gctx, name = name, srcs = srcs, chips = all_chips, opts = rsettings.opts)
        rdc_objects = [host(src, None, ".rdc") for src in srcs]
        mods = own_modules()
        fatbins += mods.fatbins
        plain = mods.objects
        deferred = CudaObjectsInfo(
            compiler = rsettings.opts.compiler,
            label = ctx.label,
            objects = depset(plain, transitive = [i.objects for i in infos]),
            rdc_by_chip = {c: depset(reloc[c], transitive = [i.rdc_by_chip[c] for i in infos if c in i.rdc_by_chip]) for c in all_chips},
            rdc_objects = depset(rdc_objects, transitive = [i.rdc_objects for i in infos]),
            validation = depset(mods.validation, transitive = [i.validation for i in infos]),
        )
        for files in reloc.values():
            per_chip += files
    elif rdc:
        # One module for every source, and the cuda_objects' device code of deps: the host objects
        # ask to be registered by their module ids, and one generated source registers the
        # device-linked fatbin for all of them.
        all_chips = settings.all_chips
        rdc_deps, dep_objects, _ = _objects_of_deps(infos, label, rdc, settings.opts.compiler, all_chips)
        built, fatbin = module(name, srcs, rdc_deps)
        fatbins.append(fatbin)
        per_chip += built.files_by_chip.values()

        # LLVM IR sources are device code only: linked per chip, no host side.
        objects = [host(src, None) for src in srcs if kind_of(src) == "cuda"] + dep_objects
        register = ctx.actions.declare_file("_objs/%s/%s.register.c" % (name, name))
        emit_register(gctx, objects = objects, fatbin = fatbin, out = register)
        generated.append(register)
        validation += emit_runs_on(ctx, gctx, name = name, files = [fatbin])
    else:
        # The deps' cuda_objects in their plain form, and each source its own module.
        _, objects, validation = _objects_of_deps(infos, label, rdc, settings.opts.compiler, [])
        mods = own_modules()
        fatbins += mods.fatbins
        per_chip += mods.per_chip
        objects += mods.objects
        validation += mods.validation

    deps = [dep[CcInfo] for dep in ctx.attr.deps]
    compilation_context, compiled = cc_common.compile(
        name = name,
        actions = ctx.actions,
        feature_configuration = features,
        cc_toolchain = cc_toolchain,
        srcs = generated,
        public_hdrs = ctx.files.hdrs,
        textual_hdrs = ctx.files.textual_hdrs,
        includes = project.own_includes,
        defines = ctx.attr.defines,
        compilation_contexts = [d.compilation_context for d in deps],
    )
    outputs = cc_common.merge_compilation_outputs(compilation_outputs = [
        compiled,
        cc_common.create_compilation_outputs(objects = depset(objects), pic_objects = depset(objects)),
    ])
    linking_context, linked = cc_common.create_linking_context_from_compilation_outputs(
        name = name,
        actions = ctx.actions,
        feature_configuration = features,
        cc_toolchain = cc_toolchain,
        compilation_outputs = outputs,
        linking_contexts = [d.linking_context for d in deps] + [ctx.attr._cudart[CcInfo].linking_context] + [c for c in [_openmp(ctx, nvcc)] if c],
        user_link_flags = getattr(ctx.attr, "linkopts", []),
        # With rdc, the one fatbin's registration ends when every source's host object has
        # registered: a source that nothing references (device functions only) must still be
        # linked, or no kernel of the library loads ("invalid device function", found on the H200).
        alwayslink = getattr(ctx.attr, "alwayslink", False) or rdc,
        disallow_dynamic_library = True,
    )
    library = linked.library_to_link
    files = [f for f in [library.pic_static_library, library.static_library] if f] if library else []
    providers = [
        # A cuda_objects' default outputs are its relocatable code (as rules_cuda's): its plain
        # variant is built only for a target that links it.
        DefaultInfo(files = depset(rdc_objects + per_chip) if deferred else depset(files + fatbins)),
        CcInfo(compilation_context = compilation_context, linking_context = linking_context),
        OutputGroupInfo(
            fatbins = depset(fatbins),
            objects = depset(rdc_objects + plain) if deferred else depset(objects),
            per_chip = depset(per_chip),
            _validation = depset(validation),
        ),
    ]
    return providers + ([deferred] if deferred else [])

def _cuda_library_impl(ctx):
    return _cuda_impl(ctx, objects_only = False)

def _cuda_objects_impl(ctx):
    return _cuda_impl(ctx, objects_only = True)

# The attributes of cuda_library; cuda_binary and cuda_test (rules_cuda's macros) give these to the
# library they make, the rest to the program.
CUDA_LIBRARY_ATTRS = dict(CUDA_ATTRS, **dict(MODULE_ATTRS, **{
    "alwayslink": attr.bool(doc = "Link every object into the programs that depend on this library, as `cc_library`'s `alwayslink`. Always so with `rdc`: the one fatbin is registered with the CUDA runtime once every source's host object has registered its part, so each must be linked, even one that nothing calls."),
    "format": attr.string(
        default = "fatbin",
        values = ["fatbin", "bin", "jit"],
        doc = """What the host code carries, as `gpu_module`'s formats: `fatbin` (each chip's cubin and PTX for
the lowest chip, or for the chips `ptx` names), `bin` (only the cubins: no JIT on other GPUs) or `jit` (only PTX for the lowest chip).""",
    ),
    "host_copts": attr.string_list(doc = "Options of the host compile of the sources, e.g. `[\"-Wall\"]`: clang's, or with `compiler = \"nvcc\"` its host compiler's (each passed with `-Xcompiler`). With `-fopenmp` (or nvcc's `-Xcompiler -fopenmp` in `copts`), the library links LLVM's OpenMP runtime (`@rules_gpu//cuda:openmp`)."),
    "linkopts": attr.string_list(doc = "Options for linking programs that depend on this library, as `cc_library`'s `linkopts`."),
    "srcs": attr.label_list(
        allow_files = EXTENSIONS["cuda"] + EXTENSIONS["llvm"],
        doc = "The CUDA C++ sources: their device side is built per chip, their host side into this library. With `rdc`, also LLVM IR (`.ll`, `.bc`: device code linked into the module per chip). None when `deps` has `cuda_objects`, which the library links (rules_cuda's rdc form).",
    ),
    "_cc_toolchain": attr.label(default = Label("@rules_cc//cc:current_cc_toolchain")),
    "_cudart": attr.label(default = Label("//cuda:runtime"), providers = [CcInfo]),
    "_openmp": attr.label(default = Label("//cuda:openmp_or_none"), providers = [OpenMPInfo]),
}))

cuda_library = rule(
    implementation = _cuda_library_impl,
    doc = """CUDA C++ with its host code, built per chip, as a C++ library that `cc_library`, `cc_binary` and
`cc_test` depend on (it returns `CcInfo`).

The attributes are rules_cuda's where they mean the same (`srcs`, `hdrs`, `textual_hdrs`, `deps`, `includes`,
`defines`, `copts`, `host_copts`, `rdc`, `linkopts`, `alwayslink`), plus `gpu_module`'s (`chips`,
`runs_on`, `format`, `compress`, ...). Each source's device side is compiled for each chip by its own
action, as `gpu_module` does, and linked into a fatbin; clang compiles its host side against that
fatbin (`-fcuda-include-gpubinary`), so the kernels it launches with `<<<...>>>` are registered with
the CUDA runtime when the program starts. With `compiler = "nvcc"`, nvcc compiles the host side
too, as `nvcc -c` does (host code written for nvcc builds as it is), with the C++ toolchain's
compiler as its host compiler (`-ccbin`) and that fatbin in place of its own device code. The runtime comes from the CUDA toolchain
(`@rules_gpu//cuda:runtime`: static unless `--@rules_gpu//gpu:cudart=shared`).

Without `rdc`, each source is its own module, as nvcc compiles it. With `rdc = True` the sources are
one module: a `__device__` function or variable of one is usable from another, with one copy at run
time. Each source is still compiled per chip by its own action; each chip's device link is one more,
and a generated source registers the one fatbin for every host object.

`runs_on` (or `--@rules_gpu//gpu:runners`) applies to every fatbin: a program that depends on this
library fails to build, with the reason and the fix, when its kernels could not load on a declared
runner.""",
    attrs = CUDA_LIBRARY_ATTRS,
    fragments = ["cpp"],
    toolchains = use_cc_toolchain() + [
        BUILDER_TOOLCHAIN,
        CUDA_TOOLCHAIN,
        config_common.toolchain_type(LLVM_TOOLCHAIN, mandatory = False),
    ],
)

# rules_cuda's cuda_objects has no rdc (the target that links it chooses) and is no library of its
# own (no alwayslink, no linkopts); its sources are CUDA C++.
CUDA_OBJECTS_ATTRS = {k: v for k, v in CUDA_LIBRARY_ATTRS.items() if k not in ["alwayslink", "linkopts", "rdc"]}
CUDA_OBJECTS_ATTRS["srcs"] = attr.label_list(
    allow_files = EXTENSIONS["cuda"],
    mandatory = True,
    doc = "The CUDA C++ sources.",
)

cuda_objects = rule(
    implementation = _cuda_objects_impl,
    doc = """rules_cuda's `cuda_objects`: CUDA C++ compiled for the `cuda_library` (or `cuda_binary`,
`cuda_test`) that depends on it, which links it, with `cuda_library`'s attributes but `rdc`.

As rules_cuda does, it is compiled both ways, and the target that depends on it chooses (Bazel runs
the actions of the way it takes): with that target's `rdc = True`, each source's relocatable device
code per chip (clang: LLVM bitcode; `compiler = "nvcc"`: a relocatable cubin) is linked into that
target's module for each chip, and these host objects are archived and registered with its fatbin,
so that a `__device__` function or variable of one target is used from the other's; without, each
source is its own module, as in a `cuda_library`, and its host object goes into that target's
archive. A `cuda_objects` passes on those of its own `cuda_objects` deps.

With rdc, both must be built by the same compiler, the objects for every chip the target compiles
(the `--@rules_gpu//gpu:chips` default serves both): each is checked at analysis. The objects are
linked by each target that depends on them: two such targets in one program define them twice.
Its default outputs are the relocatable ones, as rules_cuda's.""",
    attrs = CUDA_OBJECTS_ATTRS,
    fragments = ["cpp"],
    provides = [CcInfo, CudaObjectsInfo],
    toolchains = use_cc_toolchain() + [
        BUILDER_TOOLCHAIN,
        CUDA_TOOLCHAIN,
        config_common.toolchain_type(LLVM_TOOLCHAIN, mandatory = False),
    ],
)
