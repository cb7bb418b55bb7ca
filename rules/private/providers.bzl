"""Every provider of rules_gpu, in one place."""

GpuModuleInfo = provider(
    doc = "What a `gpu_module` target produced.",
    fields = {
        "chips": "list of str: the chips the module was built for, in declared order (e.g. `[\"sm_80\", \"sm_90\"]`).",
        "format": "str: the artifact format: `bin`, `isa`, `offload`, `fatbin` or `jit`.",
        "files_by_chip": "dict str -> File: the per-chip artifact of each chip (cubin, PTX or LLVM bitcode); empty for `jit`.",
        "fatbin": "File or None: the fatbin (format `fatbin`).",
        "ptx": "File or None: the PTX for the lowest chip that a fatbin embeds, or the `jit` artifact.",
        "artifact": "File or None: the one file to load at run time (the fatbin, the `jit` PTX, or the cubin/PTX of a single-chip target).",
    },
)
