"""The table of source kinds, formats and compilers, for the rules' analysis-time checks.

Generated from tools/kinds/kinds.go by `go test ./tools/kinds -run TestStarlarkTable -update`. Do not edit.
"""

# Each source extension (a File's extension: no dot) and its kind.
KIND = {
    "mlir": "mlir",
    "ll": "llvm",
    "bc": "llvm",
    "ptx": "ptx",
    "cu": "cuda",
}

def kind_of(src):
    """The kind of a source File, by its extension (KIND); None for no kind of the table."""
    return KIND.get(src.extension.lower())

# Each kind's extensions, with the dot (allow_files).
EXTENSIONS = {
    "mlir": [".mlir"],
    "llvm": [".ll", ".bc"],
    "ptx": [".ptx"],
    "cuda": [".cu"],
}

# The extensions of CUDA C++ headers, with the dot (hdrs); another file that a source includes
# is a textual header (textual_hdrs).
HEADER_EXTENSIONS = [".h", ".hh", ".hpp", ".hxx", ".cuh", ".inc", ".inl"]

# Each format's file extension, with the dot (the per-chip and module files' names).
FORMAT_EXTENSION = {
    "bin": ".cubin",
    "isa": ".ptx",
    "offload": ".bc",
    "fatbin": ".fatbin",
    "jit": ".fatbin",
    "llvm": ".ll",
}

# The combinations of a source's kind with its module's format, compiler and rdc that are refused,
# each with its message ({src}: the source, {format}: the format), in the order they are checked.
RULES = [
    struct(
        kind = "ptx",
        formats = [],
        allowed = ["bin", "fatbin"],
        compiler = "",
        rdc = False,
        message = "{src} is PTX already, which becomes cubins only: format {format} needs an MLIR, LLVM IR or CUDA C++ source; use format bin or fatbin",
    ),
    struct(
        kind = "mlir",
        formats = [],
        allowed = [],
        compiler = "",
        rdc = True,
        message = "rdc links CUDA C++ and LLVM IR sources, and {src} is MLIR: give it a module of its own, without rdc",
    ),
    struct(
        kind = "ptx",
        formats = [],
        allowed = [],
        compiler = "",
        rdc = True,
        message = "rdc links CUDA C++ and LLVM IR sources, and {src} is PTX: give it a module of its own, without rdc",
    ),
    struct(
        kind = "cuda",
        formats = [],
        allowed = ["bin", "fatbin"],
        compiler = "nvcc",
        rdc = True,
        message = "rdc with nvcc links each chip's relocatable cubins with nvlink, and the linked module is a cubin only: format {format} needs its PTX or bitcode, which nvcc cannot make; use format bin or fatbin (of cubins, no PTX), or compiler clang",
    ),
    struct(
        kind = "llvm",
        formats = [],
        allowed = [],
        compiler = "nvcc",
        rdc = True,
        message = "{src} is LLVM IR, which links only with clang's relocatable device code (LLVM bitcode); nvcc's is linked as cubins by nvlink: use compiler clang, or give {src} a module of its own",
    ),
    struct(
        kind = "cuda",
        formats = ["offload"],
        allowed = [],
        compiler = "nvcc",
        rdc = False,
        message = "format offload (LLVM bitcode) needs clang as the CUDA C++ compiler; nvcc makes PTX and cubins: use compiler clang, or another format",
    ),
]
