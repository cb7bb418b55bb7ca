"""rules_cuda's `cuda_binary` and `cuda_test`: a program whose CUDA C++ sources are a `cuda_library` of its own."""

load("@rules_cc//cc:cc_binary.bzl", "cc_binary")
load("//rules/private/rules:cuda_library.bzl", "CUDA_LIBRARY_ATTRS", "cuda_library")
load("//rules/private/rules:gpu_test.bzl", "gpu_cc_test")

# Bazel's attributes of every target that describe where and how it builds: the library and the
# program both take them.
_BOTH = ["compatible_with", "exec_compatible_with", "features", "restricted_to", "tags", "target_compatible_with", "testonly"]

def _split(kwargs, *, test):
    """The library's attributes and the program's, from a cuda_binary's or cuda_test's."""
    library, program = {}, {}
    for key, value in kwargs.items():
        if key in _BOTH:
            library[key] = value
            program[key] = value
        elif key == "runs_on":
            # The library checks its fatbins for the runners; a test is also routed by them.
            library[key] = value
            if test:
                program[key] = value
        elif key in CUDA_LIBRARY_ATTRS:
            library[key] = value
        else:
            program[key] = value
    return library, program

def _program(name, kwargs, program_rule, *, test):
    """Declares NAME_lib, the cuda_library of the sources, and NAME, the program_rule over it."""
    library, program = _split(kwargs, test = test)
    if test:
        library["testonly"] = True
    cuda_library(
        name = name + "_lib",
        alwayslink = True,
        visibility = ["//visibility:private"],
        **library
    )
    program_rule(
        name = name,
        deps = [":" + name + "_lib"],
        **program
    )

def cuda_binary(name, **kwargs):
    """A `cc_binary` whose CUDA C++ sources are compiled as rules_cuda's `cuda_binary` compiles them.

    `NAME_lib`, a `cuda_library`, takes the sources and every attribute that `cuda_library` has (`srcs`,
    `hdrs`, `deps`, `copts`, `host_copts`, `chips`, `compiler`, `runs_on`, ...), linked whole
    (`alwayslink`); the `cc_binary` `NAME` takes the rest (`data`, `args`, `env`, `linkstatic`, ...) and
    depends on it. `tags`, `testonly`, `features` and the compatibility attributes go to both.

    Args:
      name: the program's name; the library is `name + "_lib"`.
      **kwargs: `cuda_library`'s attributes and `cc_binary`'s.
    """
    _program(name, kwargs, cc_binary, test = False)

def cuda_test(name, **kwargs):
    """A test whose CUDA C++ sources are compiled as rules_cuda's `cuda_test` compiles them: a `gpu_cc_test`.

    As `cuda_binary`: `NAME_lib`, a test-only `cuda_library`, takes the sources and `cuda_library`'s
    attributes; the `gpu_cc_test` `NAME` takes the rest (`size`, `timeout`, `data`, `args`, `env`, ...).
    `runs_on` goes to both: the library's kernels are checked for those runners, and the test is
    tagged `gpu` and routed to them.

    Args:
      name: the test's name; the library is `name + "_lib"`.
      **kwargs: `cuda_library`'s attributes and `gpu_cc_test`'s.
    """
    _program(name, kwargs, gpu_cc_test, test = True)
