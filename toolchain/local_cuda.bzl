"""Discovery of a CUDA toolkit installed on the machine that builds."""

load("//cuda:libraries_table.bzl", "CUDA_LIBRARIES", "LIBRARY_FILES")
load("//toolchain/private:common.bzl", "cuda_version", "platform_constraints", "write_cuda_repo")
load(":cuda_toolchain.bzl", "CUDA_TOOLS")

def _candidates(rctx):
    """Toolkit bin directories to try, most specific first."""
    if rctx.attr.path:
        # A path the user names is the only place to look: falling back to another toolkit would
        # build with one they did not choose.
        return [rctx.attr.path + "/bin"]
    dirs = []
    cuda_path = rctx.os.environ.get("CUDA_PATH", "")
    if cuda_path:
        dirs.append(cuda_path + "/bin")
    dirs.append("/usr/local/cuda/bin")
    dirs.append("/usr/bin")  # Debian and Ubuntu's nvidia-cuda-toolkit
    return dirs

def _local_cuda_toolkit_impl(rctx):
    tried = []
    found = None
    for d in _candidates(rctx):
        tried.append(d)
        p = rctx.path(d + "/ptxas")
        if p.exists:
            found = d
            break
    attrs = {}
    if found:
        version = cuda_version(rctx, rctx.path(found + "/ptxas"))
        if not version:
            fail("rules_gpu: %s/ptxas does not say its version (ptxas --version)" % found)
        for tool in CUDA_TOOLS:
            p = rctx.path(found + "/" + tool)
            if p.exists:
                rctx.symlink(p, "bin/" + tool)
                attrs[tool] = "bin/" + tool
        attrs["version"] = version
        attrs["root"] = found
        attrs["compiler"] = rctx.attr.compiler
        root = found[:-len("/bin")] if found.endswith("/bin") else found

        # libdevice: <root>/nvvm/libdevice in NVIDIA's layout; Debian keeps it with the toolkit's
        # private files.
        for p in [root + "/nvvm/libdevice/libdevice.10.bc", "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc"]:
            if rctx.path(p).exists:
                rctx.symlink(p, "libdevice/libdevice.10.bc")
                attrs["libdevice"] = "libdevice/libdevice.10.bc"
                break

        # The CUDA runtime and the libraries that host code links: <root>/lib64 (or
        # targets/<arch>-linux/lib; CUPTI in extras/CUPTI/lib64) in NVIDIA's layout, the multiarch
        # library directory in Debian's and Ubuntu's.
        libdirs = [root + "/lib64", root + "/lib", root + "/targets/x86_64-linux/lib", root + "/targets/sbsa-linux/lib", root + "/extras/CUPTI/lib64", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu"]
        libraries = []
        for attr, name in [("cudart_static", "libcudart_static.a"), ("cudart_shared", "libcudart.so")] + [("libraries", f) for f in LIBRARY_FILES]:
            for d in libdirs:
                if rctx.path(d + "/" + name).exists:
                    rctx.symlink(d + "/" + name, "lib/" + name)
                    if attr == "libraries":
                        libraries.append("lib/" + name)
                    else:
                        attrs[attr] = "lib/" + name
                    break
        attrs["libraries"] = libraries

        # The libraries' headers: the toolkit's include/ (a path the rules add), Debian's and
        # Ubuntu's /usr/include (the compiler's own), or a directory of their own (CUPTI's; CCCL's
        # since CUDA 13).
        own = [root + "/include", "/usr/include"]
        includes = own + [root + "/targets/x86_64-linux/include", root + "/targets/sbsa-linux/include", root + "/extras/CUPTI/include", root + "/include/cccl"]
        headers = {}
        for name, lib in CUDA_LIBRARIES.items():
            for d in includes:
                if rctx.path(d + "/" + lib.header).exists:
                    headers[name] = "" if d in own else d
                    break
        attrs["library_headers"] = headers

        # clang's --cuda-path wants a root with include/cuda.h and nvvm/libdevice: Debian has one
        # at /usr/lib/cuda.
        for p in [root, "/usr/lib/cuda"]:
            if rctx.path(p + "/include/cuda.h").exists and rctx.path(p + "/nvvm/libdevice").exists:
                attrs["cuda_path"] = p
                break
    elif rctx.attr.path:
        attrs["missing"] = "no CUDA toolkit at %s (no bin/ptxas there), the path that cuda.local(path = ...) or rules_gpu_toolchains(path = ...) names; fix the path, or leave it out to search $CUDA_PATH, /usr/local/cuda and /usr/bin" % rctx.attr.path
    else:
        attrs["missing"] = "no CUDA toolkit found (looked for ptxas in %s); install one, set CUDA_PATH, or use a hermetic toolkit (cuda.archive)" % ", ".join(tried)
    write_cuda_repo(rctx, attrs, exports = ["bin/*", "libdevice/*", "lib/*"], constraints = platform_constraints(rctx))

local_cuda_toolkit = repository_rule(
    implementation = _local_cuda_toolkit_impl,
    doc = """Finds a CUDA toolkit on the machine that builds and exposes it as a `cuda_toolchain`.

Looks only in `path` when it is set; otherwise in `$CUDA_PATH`, `/usr/local/cuda` and the Debian/Ubuntu
layout (`/usr/bin`).
The version comes from `ptxas --version`. Without a toolkit the repository still exists and every
rule that needs ptxas fails with an error that says where it looked.""",
    attrs = {
        "compiler": attr.string(default = "clang", values = ["clang", "nvcc"], doc = "The device front end of CUDA C++ sources for targets that choose none: `clang` or `nvcc`."),
        "path": attr.string(doc = "The toolkit's root directory (the one holding `bin/ptxas`)."),
    },
    environ = ["CUDA_PATH"],
    local = True,
)
