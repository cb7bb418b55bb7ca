"""`artifact_test`: checks a gpu_module's artifact with cuobjdump and `gpubuild inspect|check`."""

load("@rules_shell//shell:sh_test.bzl", "sh_test")

def artifact_test(name, artifact, kernel, images, runs_on, **kwargs):
    """A test that the one file of `artifact` holds `images`, the function `kernel` in every cubin, and loads on `runs_on`.

    Args:
      name: the test's name.
      artifact: a gpu_module target with one output file (a fatbin, a jit PTX, or a one-chip cubin).
      kernel: the kernel's name.
      images: the images gpubuild inspect must list, in order: `["elf:sm_80", "ptx:sm_80"]`.
      runs_on: the chips it must load on (gpubuild check), e.g. `["sm_80", "sm_90"]`.
      **kwargs: passed to sh_test.
    """
    sh_test(
        name = name,
        srcs = ["//examples:artifact_test.sh"],
        args = [
            "$(rootpath @cuda_toolkit//:bin/cuobjdump)",
            "$(rootpath //tools/cmd/gpubuild)",
            kernel,
            ",".join(runs_on),
            ",".join(images),
            "$(rootpath %s)" % artifact,
        ],
        data = [
            artifact,
            "//tools/cmd/gpubuild",
            "@cuda_toolkit//:bin/cuobjdump",
        ],
        **kwargs
    )
