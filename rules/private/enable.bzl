"""Whether CUDA is on for a build: --@rules_gpu//gpu:enable, as rules_cuda's --@rules_cuda//cuda:enable."""

def requires_cuda():
    """The `target_compatible_with` of a target that builds only when CUDA is on.

    With `--@rules_gpu//gpu:enable=false` such a target is incompatible: `bazel build //...` leaves
    it out, and building it by name fails saying why. rules_cuda's `requires_cuda()`, for code that
    switches CUDA off on machines without it:

    ```starlark
    cuda_library(name = "kernels", srcs = ["k.cu"], target_compatible_with = requires_cuda())
    cc_binary(
        name = "main",
        srcs = ["main.cc"],
        defines = select({"@rules_gpu//gpu:is_enabled": ["WITH_CUDA"], "//conditions:default": []}),
        deps = select({"@rules_gpu//gpu:is_enabled": [":kernels"], "//conditions:default": []}),
    )
    ```

    Returns:
      A select(): no constraint when CUDA is on, `@platforms//:incompatible` when it is off.
    """
    return select({
        str(Label("//gpu:is_enabled")): [],
        "//conditions:default": [str(Label("@platforms//:incompatible"))],
    })
