"""Discovery of LLVM (with MLIR) installed on the machine that builds."""

load("//toolchain/private:common.bzl", "glob_attr", "platform_constraints", "write_toolchain_repo")
load(":llvm_toolchain.bzl", "LLVM_TOOLS")

def _candidates(rctx):
    dirs = []
    if rctx.attr.path:
        dirs.append(rctx.attr.path + "/bin")
    llvm_path = rctx.os.environ.get("LLVM_PATH", "")
    if llvm_path:
        dirs.append(llvm_path + "/bin")

    # Debian and Ubuntu install each LLVM version under /usr/lib/llvm-N; newest first.
    for v in range(30, 17, -1):
        dirs.append("/usr/lib/llvm-%d/bin" % v)
    dirs.append("/usr/local/bin")
    dirs.append("/usr/bin")
    return dirs

def _version(rctx, llc):
    res = rctx.execute([llc, "--version"])
    for line in res.stdout.splitlines():
        if "LLVM version " in line:
            return line.split("LLVM version ")[1].strip().split(".")[0]
    return None

def _local_llvm_toolchain_impl(rctx):
    found = None
    tried = []
    for d in _candidates(rctx):
        tried.append(d)
        if rctx.path(d + "/llc").exists and rctx.path(d + "/mlir-opt").exists:
            found = d
            break
    attrs = {}
    if found:
        version = _version(rctx, rctx.path(found + "/llc"))
        if not version:
            fail("rules_gpu: %s/llc does not say its version (llc --version)" % found)
        for attr, tool in LLVM_TOOLS.items():
            p = rctx.path(found + "/" + tool)
            if p.exists:
                rctx.symlink(p, "bin/" + tool)
                attrs[attr] = "bin/" + tool
        attrs["version"] = version
        attrs["root"] = found
        if "clang" in attrs:
            # clang's own headers (its CUDA wrappers among them), linked into the repository so that
            # compiles read them as inputs, by a relative path (-resource-dir): where clang would find
            # them itself depends on where its binary is, and a remote executor's copy of it is
            # elsewhere (tests/remote.sh).
            res = rctx.execute([rctx.path(found + "/clang"), "-print-resource-dir"]).stdout.strip()
            if res and rctx.path(res + "/include/__clang_cuda_runtime_wrapper.h").exists:
                rctx.symlink(res + "/include", "clang_resource/include")
                attrs["clang_resource"] = "clang_resource/include/__clang_cuda_runtime_wrapper.h"
                attrs["clang_headers"] = glob_attr(["clang_resource/include/**"])

            # LLVM's OpenMP runtime for the programs built here: $LLVM_OPENMP (one built for the
            # C library the C++ toolchain targets, such as its sysroot's), or LLVM's own beside its
            # libraries (Debian's libomp-N-dev). A program that links it needs libomp.so.5 and
            # finds this copy in its runfiles.
            libomp = rctx.path(rctx.os.environ.get("LLVM_OPENMP", "") or found.rpartition("/")[0] + "/lib/libomp.so.5")
            if libomp.exists:
                rctx.symlink(libomp.realpath, "lib/libomp.so.5")
                attrs["openmp"] = "lib/libomp.so.5"
    else:
        attrs["missing"] = "no LLVM with MLIR found (looked for llc and mlir-opt in %s); install LLVM/MLIR 21 or set LLVM_PATH" % ", ".join(tried)
    write_toolchain_repo(
        rctx,
        rule_file = Label("//toolchain:llvm_toolchain.bzl"),
        rule_name = "llvm_toolchain",
        toolchain_type = Label("//toolchain:llvm_toolchain_type"),
        attrs = attrs,
        exports = ["bin/*"],
        constraints = platform_constraints(rctx),
    )

local_llvm_toolchain = repository_rule(
    implementation = _local_llvm_toolchain_impl,
    doc = """Finds LLVM with MLIR on the machine that builds and exposes it as an `llvm_toolchain`.

Looks in `path`, then `$LLVM_PATH`, the newest `/usr/lib/llvm-N` (Debian, Ubuntu), `/usr/local/bin`
and `/usr/bin`, for a directory holding both `llc` and `mlir-opt`. The OpenMP runtime that host code
compiled with `-fopenmp` links (`@rules_gpu//cuda:openmp`) is `$LLVM_OPENMP`, or LLVM's own
`lib/libomp.so.5`: name one built for the C library your C++ toolchain targets when that is older
than the build machine's (a sysroot's).""",
    attrs = {
        "path": attr.string(doc = "LLVM's root directory (the one holding `bin/llc`)."),
    },
    environ = ["LLVM_PATH", "LLVM_OPENMP"],
    local = True,
)
