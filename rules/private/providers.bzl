"""Every provider of rules_gpu, in one place."""

GpuModuleInfo = provider(
    doc = "What a `gpu_module` target produced.",
    fields = {
        "chips": "list of str: the chips the module was built for, in declared order (e.g. `[\"sm_80\", \"sm_90\"]`).",
        "format": "str: the artifact format (`bin`: one cubin per chip).",
        "files_by_chip": "dict str -> File: the per-chip artifact of each chip.",
    },
)
