// Package kinds is the one table of what rules_gpu builds from what: the kinds of GPU source and
// their file extensions, the formats of a module, the CUDA C++ compilers, and the rules between
// them, each written once with its message.
//
// The Bazel rules check the rules at analysis time from rules/private/kinds_table.bzl, which
// WriteStarlark generates from this table (a test keeps it in sync); the action helper checks the
// same rules with Check, so a combination is refused with the same words wherever it is first seen.
package kinds

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Kind is the language of a source file.
type Kind string

// The source kinds.
const (
	MLIR Kind = "mlir" // .mlir holding gpu.module ops, or a whole program
	LLVM Kind = "llvm" // LLVM IR or NVVM IR, .ll or .bc
	PTX  Kind = "ptx"  // .ptx
	CUDA Kind = "cuda" // CUDA C++, .cu
)

// kind is a row of the table of source kinds.
type kind struct {
	kind Kind
	name string   // as messages name it
	exts []string // the file extensions, lower case, with the dot
}

var kindTable = []kind{
	{MLIR, "MLIR", []string{".mlir"}},
	{LLVM, "LLVM IR", []string{".ll", ".bc"}},
	{PTX, "PTX", []string{".ptx"}},
	{CUDA, "CUDA C++", []string{".cu"}},
}

// headerExts are the extensions of CUDA C++ headers: what a target's hdrs take. A file of another
// extension that a source includes (a .cu included by another) is a textual header.
var headerExts = []string{".h", ".hh", ".hpp", ".hxx", ".cuh", ".inc", ".inl"}

// HeaderExtensions lists the extensions of headers, with the dot.
func HeaderExtensions() []string { return slices.Clone(headerExts) }

// IsHeader reports whether path has a header's extension (in any case).
func IsHeader(path string) bool {
	return slices.Contains(headerExts, strings.ToLower(filepath.Ext(path)))
}

// Name is the kind as messages name it ("CUDA C++").
func (k Kind) Name() string {
	for _, r := range kindTable {
		if r.kind == k {
			return r.name
		}
	}
	return string(k)
}

// Extensions lists every source extension, with the dot, in table order.
func Extensions() []string {
	var exts []string
	for _, r := range kindTable {
		exts = append(exts, r.exts...)
	}
	return exts
}

// Of recognises a source by its extension (in any case).
func Of(path string) (Kind, error) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, r := range kindTable {
		if slices.Contains(r.exts, ext) {
			return r.kind, nil
		}
	}
	return "", fmt.Errorf("%s: %s", path, unknownKind())
}

// unknownKind is the message for a file of no source kind.
func unknownKind() string {
	exts := Extensions()
	return fmt.Sprintf("unknown source kind: use %s or %s", strings.Join(exts[:len(exts)-1], ", "), exts[len(exts)-1])
}

// Format is what a module becomes, named as MLIR's gpu-module-to-binary names them.
type Format string

// The formats of a module. Bin, ISA and Offload are also what one chip's compile writes.
const (
	Bin     Format = "bin"     // a cubin per chip
	ISA     Format = "isa"     // PTX per chip
	Offload Format = "offload" // LLVM bitcode per chip
	Fatbin  Format = "fatbin"  // every chip's cubin and the lowest chip's PTX in one file
	JIT     Format = "jit"     // PTX only, for the driver to compile
	// Lowered is no module's format but a step's: an MLIR source's device code as LLVM IR, before
	// any per-chip step (lowering and translation do not depend on the chip, so that one action per
	// module does them for every chip).
	Lowered Format = "llvm"
)

// formatFiles are the extension of each format's files: one chip's for bin, isa and offload (and a
// program's module's in each chip's directory), the module's for fatbin and jit.
var formatFiles = []struct {
	format Format
	ext    string
}{{Bin, ".cubin"}, {ISA, ".ptx"}, {Offload, ".bc"}, {Fatbin, ".fatbin"}, {JIT, ".fatbin"}, {Lowered, ".ll"}}

// Extension is the extension, with the dot, of a file in format f; "" for no format of the table.
func (f Format) Extension() string {
	for _, ff := range formatFiles {
		if ff.format == f {
			return ff.ext
		}
	}
	return ""
}

// Compiler is the device front end of CUDA C++ sources.
type Compiler string

// The CUDA C++ front ends.
const (
	// Clang compiles CUDA C++ with clang's CUDA support and LLVM's NVPTX back end (the default).
	Clang Compiler = "clang"
	// NVCC compiles CUDA C++ to PTX with the toolkit's nvcc, for code written for nvcc that clang
	// rejects; ptxas then makes the cubin, as for every source.
	NVCC Compiler = "nvcc"
)

// Compilers lists the CUDA C++ compilers, the default first.
func Compilers() []Compiler { return []Compiler{Clang, NVCC} }

// A rule refuses one combination of a source's kind with its module's format, compiler and rdc.
type rule struct {
	kind     Kind     // the source kind it is about
	formats  []Format // refused for these formats (nil: any)
	allowed  []Format // refused for every format but these (nil: any); formats or allowed, not both
	compiler Compiler // only with this compiler ("": any)
	rdc      bool     // only with relocatable device code
	// message says what is wrong and the fix; {src} stands for the source's path, {format} for
	// the format. It is written for both the rules' attributes and the helper's flags.
	message string
}

var rules = []rule{
	{kind: PTX, allowed: []Format{Bin, Fatbin},
		message: "{src} is PTX already, which becomes cubins only: format {format} needs an MLIR, LLVM IR or CUDA C++ source; use format bin or fatbin"},
	{kind: MLIR, rdc: true,
		message: "rdc links CUDA C++ and LLVM IR sources, and {src} is MLIR: give it a module of its own, without rdc"},
	{kind: PTX, rdc: true,
		message: "rdc links CUDA C++ and LLVM IR sources, and {src} is PTX: give it a module of its own, without rdc"},
	{kind: CUDA, compiler: NVCC, rdc: true, allowed: []Format{Bin, Fatbin},
		message: "rdc with nvcc links each chip's relocatable cubins with nvlink, and the linked module is a cubin only: format {format} needs its PTX or bitcode, which nvcc cannot make; use format bin or fatbin (of cubins, no PTX), or compiler clang"},
	{kind: LLVM, compiler: NVCC, rdc: true,
		message: "{src} is LLVM IR, which links only with clang's relocatable device code (LLVM bitcode); nvcc's is linked as cubins by nvlink: use compiler clang, or give {src} a module of its own"},
	{kind: CUDA, compiler: NVCC, formats: []Format{Offload},
		message: "format offload (LLVM bitcode) needs clang as the CUDA C++ compiler; nvcc makes PTX and cubins: use compiler clang, or another format"},
}

func (r rule) refuses(k Kind, f Format, c Compiler, rdc bool) bool {
	return r.kind == k && (r.formats == nil || slices.Contains(r.formats, f)) &&
		(r.allowed == nil || !slices.Contains(r.allowed, f)) &&
		(r.compiler == "" || r.compiler == c) && (!r.rdc || rdc)
}

func (r rule) text(src string, f Format) string {
	return strings.NewReplacer("{src}", src, "{format}", string(f)).Replace(r.message)
}

// Check says whether a source of kind k (src: its path, as messages name it) can be built into
// format f with compiler c (for CUDA C++; "" is clang), as relocatable device code when rdc is set.
// The error is the first rule that refuses the combination.
func Check(k Kind, src string, f Format, c Compiler, rdc bool) error {
	if c == "" {
		c = Clang
	}
	for _, r := range rules {
		if r.refuses(k, f, c, rdc) {
			return fmt.Errorf("%s", r.text(src, f))
		}
	}
	return nil
}
