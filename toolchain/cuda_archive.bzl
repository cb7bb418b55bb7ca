"""A hermetic CUDA toolkit: NVIDIA's redistributable archives, pinned by sha256."""

load("//cuda:libraries_table.bzl", "CUDA_LIBRARIES", "LIBRARY_FILES")
load("//toolchain/private:common.bzl", "cuda_version", "glob_attr", "platform_constraints", "write_cuda_repo")
load(":cuda_toolchain.bzl", "CUDA_TOOLS")

_EXTENSIONS = [".tar.xz", ".tar.gz", ".tgz", ".tar.bz2", ".tar.zst", ".tar", ".zip"]

def _archive_root(url):
    """The top directory of an NVIDIA redistributable archive: its file name without the extension.

    `.../cuda_nvcc-linux-x86_64-12.4.131-archive.tar.xz` holds `cuda_nvcc-linux-x86_64-12.4.131-archive/`.
    """
    base = url.rsplit("/", 1)[-1]
    for ext in _EXTENSIONS:
        if base.endswith(ext):
            return base[:-len(ext)]
    return None

def _archive_arch(urls):
    """The CPU architecture that NVIDIA's archive names say (`...-linux-x86_64-...`, `...-linux-sbsa-...`), or None."""
    for url in urls:
        for arch in ["x86_64", "sbsa", "aarch64"]:
            if "-linux-%s-" % arch in url.rsplit("/", 1)[-1]:
                return arch
    return None

def _fetch(rctx, url, sha256, strip_prefix):
    """Downloads one archive, checks its sha256 before extracting it, and extracts it into the root."""
    where = "@%s (%s)" % (rctx.attr.name, url)
    if len(sha256) != 64:
        fail("rules_gpu: %s: sha256 %r is not 64 hex digits; pin the archive's sha256 (NVIDIA lists it in redistrib_VERSION.json)" % (where, sha256))
    prefix = strip_prefix if strip_prefix else _archive_root(url)
    if prefix == None:
        fail("rules_gpu: %s: cannot tell the archive's kind from its name; name it .tar.xz, .tar.gz or .zip" % where)
    tmp = "_download/" + url.rsplit("/", 1)[-1]
    got = rctx.download(url = url, output = tmp, sha256 = sha256, allow_fail = True)
    if not got.success:
        # Fetch again without the pin, only to say what was served instead.
        again = rctx.download(url = url, output = tmp + ".unverified", allow_fail = True)
        rctx.delete(tmp + ".unverified")
        if not again.success:
            fail("rules_gpu: %s: cannot download the archive; check the URL (and the network or a --distdir/--repository_cache that holds it)" % where)
        fail(("rules_gpu: %s: sha256 mismatch: the pin says %s, the archive served is %s. " +
              "If the archive changed on purpose, pin the new sha256 in cuda.archive (MODULE.bazel) or " +
              "cuda_archives (WORKSPACE); otherwise the download is corrupt or was tampered with") % (where, sha256, again.sha256))
    rctx.extract(archive = tmp, stripPrefix = prefix)
    rctx.delete(tmp)

def _cuda_toolkit_archive_impl(rctx):
    if not rctx.attr.archives:
        fail("rules_gpu: @%s: archives is empty; pin at least NVIDIA's cuda_nvcc archive (it holds ptxas)" % rctx.attr.name)
    urls = sorted(rctx.attr.archives.keys())
    for url in urls:
        _fetch(rctx, url, rctx.attr.archives[url], rctx.attr.strip_prefix.get(url, ""))
    rctx.delete("_download")
    if not rctx.path("bin/ptxas").exists:
        fail("rules_gpu: @%s: no archive holds bin/ptxas (NVIDIA's cuda_nvcc archive does); archives: %s" % (rctx.attr.name, ", ".join(urls)))
    version = cuda_version(rctx, rctx.path("bin/ptxas"))
    if not version:
        fail("rules_gpu: @%s: bin/ptxas from %s does not say its version (ptxas --version)" % (rctx.attr.name, ", ".join(urls)))
    if rctx.attr.version and rctx.attr.version != version and not rctx.attr.version.startswith(version + "."):
        fail("rules_gpu: @%s: the archives hold CUDA %s (ptxas --version), but version = %r; pin the archives of CUDA %s or set version = %r" % (
            rctx.attr.name,
            version,
            rctx.attr.version,
            rctx.attr.version,
            version,
        ))
    attrs = {"compiler": rctx.attr.compiler, "root": ", ".join(urls), "version": version}
    for tool in CUDA_TOOLS:
        if rctx.path("bin/" + tool).exists:
            attrs[tool] = "bin/" + tool
    if rctx.path("nvvm/libdevice/libdevice.10.bc").exists:
        attrs["libdevice"] = "nvvm/libdevice/libdevice.10.bc"
    for attr, name in [("cudart_static", "lib/libcudart_static.a"), ("cudart_shared", "lib/libcudart.so")]:
        if rctx.path(name).exists:
            attrs[attr] = name

    # The libraries that host code links (each in its own NVIDIA archive: libcublas, ...), and
    # those whose headers are in include/ (CCCL's in include/cccl since CUDA 13).
    attrs["libraries"] = ["lib/" + f for f in LIBRARY_FILES if rctx.path("lib/" + f).exists]
    headers = {}
    for name, lib in CUDA_LIBRARIES.items():
        for d in ["include", "include/cccl"]:
            if rctx.path(d + "/" + lib.header).exists:
                headers[name] = "" if d == "include" else d
                break
    attrs["library_headers"] = headers
    if rctx.path("include/cuda.h").exists:
        # clang's --cuda-path: this repository, as action inputs (cuda.h, the headers, libdevice).
        attrs["cuda_h"] = "include/cuda.h"
        attrs["headers"] = glob_attr(["include/**"])
    write_cuda_repo(rctx, attrs, exports = ["bin/*", "nvvm/libdevice/*", "include/**", "lib/*"], constraints = platform_constraints(rctx, _archive_arch(urls)))

cuda_toolkit_archive = repository_rule(
    implementation = _cuda_toolkit_archive_impl,
    doc = """A CUDA toolkit made of NVIDIA's redistributable archives, each pinned by URL and sha256.

NVIDIA publishes every component of a toolkit as its own archive under
`https://developer.download.nvidia.com/compute/cuda/redist/` (listed, with sha256, in
`redistrib_VERSION.json`): `cuda_nvcc` holds ptxas, fatbinary and libdevice, `cuda_cudart` the
headers and the CUDA runtime (`lib/libcudart_static.a`) that `cuda_library` links, `cuda_cuobjdump` and `cuda_nvdisasm` those tools. The archives are extracted into one root
(each without its top directory), as the full toolkit lays them out; the version comes from
`ptxas --version` and must match `version` when that is set. A sha256 mismatch fails with both sums and
nothing extracted.""",
    attrs = {
        "archives": attr.string_dict(
            mandatory = True,
            doc = "URL -> sha256 of each archive. `file://` URLs work for archives kept next to the repository.",
        ),
        "compiler": attr.string(default = "clang", values = ["clang", "nvcc"], doc = "The device front end of CUDA C++ sources for targets that choose none: `clang` or `nvcc` (the `cuda_nvcc` archive holds it)."),
        "strip_prefix": attr.string_dict(
            doc = "URL -> the directory to strip; default: the archive's file name without its extension (NVIDIA's layout).",
        ),
        "version": attr.string(doc = "The toolkit version the archives must hold, e.g. `12.4` or `12.4.131`."),
    },
)
