// Package host compiles the host side of GPU programs: a CUDA C++ source's host code with clang
// against its fatbin (CUDA), with the CUDA runtime registration of a device-linked fatbin for
// relocatable device code (Register, Registration), and an MLIR program's host code around its
// modules' artifacts (MLIR). Its errors are compile.Errors that name the host as the chip.
//
// CUDA C++:
//
// A CUDA C++ source's host object launches its kernels through the CUDA runtime, which must know
// the device code. Without relocatable device code (RDC), each source's device code is its own
// fatbin, which clang embeds in the host object (-fcuda-include-gpubinary) and registers at start-up.
// With RDC (-fgpu-rdc), the device code of all the sources is linked for each chip into one fatbin,
// which no single object can carry: clang's host object (with --no-offload-new-driver, the CUDA
// runtime's own scheme, which nvcc uses too) then calls an undefined function
// __cudaRegisterLinkedBinary<ID> at start-up, where ID is the source's module id ("__nv_" and a
// hash, also the string in the object's __nv_module_id section), passing the callback that
// registers its kernels and variables. Registration writes the C source that defines those functions for every object: the
// first call registers the linked fatbin (__cudaRegisterFatBinary), each runs its object's callback,
// and the last ends the registration (__cudaRegisterFatBinaryEnd).
//
// Measured with clang 21: every host object compiled with -fgpu-rdc has exactly one such symbol,
// also one that defines no kernel or variable (only __device__ functions, or nothing at all), so
// an object without it was not compiled as RDC, and is refused. The module id depends only on the
// source's path as clang was given it ("a.cu", "./a.cu" and "x/a.cu" differ; the content, the
// macros and the optimisation level do not change it), so two objects have the same id only when
// they are of the same source path: registering both is refused too.
package host

import (
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
)

// CUDAJob is the host side of one CUDA C++ source compiled into one object file.
type CUDAJob struct {
	// Target is the Bazel label (or any name) that error messages cite.
	Target string
	// Src is the CUDA C++ source.
	Src string
	// Out is the object file to write; "-" writes it to Stdout instead. It is written by
	// atomicfile.Write, and left as it was when the compilation fails.
	Out    string
	Stdout io.Writer
	// Fatbin is the source's own fatbin, which the object embeds and registers (without RDC).
	Fatbin string
	// RDC compiles the source as relocatable device code (clang's -fgpu-rdc, nvcc's -rdc=true): the object embeds no
	// device code, and calls the registration of the device-linked fatbin (Registration). Exactly
	// one of Fatbin and RDC is set.
	RDC bool
	// O is the host code's optimisation level, 0 to 3.
	O int
	// ClangOptions are the source's preprocessor options (-I, -D, -include, -std=, ...), as the
	// device compilation takes them (compile.CUDAOptions.ClangOptions), in order, after rules_gpu's own.
	ClangOptions []string
	// HostOptions are more clang options of the host compilation only, after ClangOptions (with
	// nvcc, its host compiler's, each passed with -Xcompiler).
	HostOptions []string

	// Compiler is what compiles the host side: compile.CompilerClang (the default: clang, with
	// tools.Clang) or compile.CompilerNVCC (tools.NVCC, which runs HostCompiler). nvcc's own steps
	// run as package nvcc runs them, with the object embedding Fatbin, or as relocatable device code.
	Compiler compile.Compiler
	// HostCompiler is nvcc's host compiler (its -ccbin): the C++ toolchain's compiler, so that the
	// object sees the C and C++ libraries the rest of the program does. nvcc only.
	HostCompiler string
	// Chip is the virtual architecture of nvcc's own front-end pass (cicc), which writes the code
	// that registers the source's kernels and variables: the lowest of the source's chips. nvcc only.
	Chip chip.Chip
	// ArchList are the chips of the source's device compiles, whose __CUDA_ARCH_LIST__ the host
	// compile defines too (compile.CUDAOptions.ArchList). nvcc only.
	ArchList []chip.Chip
	// NvccOptions are more nvcc options, after rules_gpu's (the device compile's). nvcc only.
	NvccOptions []string
}

// linkedPrefix starts the name of the function that an RDC host object calls to be registered;
// its module id follows ("__nv_f8f599332daf4cdc" from clang: "__cudaRegisterLinkedBinary__nv_...").
const linkedPrefix = "__cudaRegisterLinkedBinary"

// CUDA compiles the host side of job.Src with tools.Clang (and tools.CUDAPath as clang's
// --cuda-path; tools.Missing explains a missing clang, as for compile.Tools) into a position
// independent object file. An RDC object is checked to call its registration.
func CUDA(ctx context.Context, tools compile.Tools, job CUDAJob) error {
	fail := func(cmd []string, stderr string, err error) error {
		return hostError(job.Target, job.Src, cmd, stderr, err)
	}
	switch {
	case job.RDC == (job.Fatbin != ""):
		return fail(nil, "", errors.New("give the source's fatbin, or compile it as relocatable device code (RDC), not both or neither"))
	case job.O < 0 || job.O > 3:
		return fail(nil, "", fmt.Errorf("optimisation level %d: use 0 to 3", job.O))
	case job.Compiler == compile.CompilerNVCC:
		return nvccHost(ctx, tools, job, fail)
	case job.HostCompiler != "" || len(job.NvccOptions) > 0:
		return fail(nil, "", errors.New("a host compiler for nvcc (-ccbin) and nvcc options apply when nvcc compiles the host side"))
	}
	if err := need(tools, [2]string{"clang", tools.Clang}); err != nil {
		return fail(nil, "", err)
	}
	if job.Fatbin != "" {
		if _, err := os.Stat(job.Fatbin); err != nil {
			return fail(nil, "", fmt.Errorf("the source's fatbin: %w", err))
		}
	}
	tmp, err := atomicfile.MkdirTemp(job.Out)
	if err != nil {
		return fail(nil, "", err)
	}
	defer os.RemoveAll(tmp)

	gpubinary := job.Fatbin
	if job.RDC {
		// The object carries no device code of its own: an empty "GPU binary".
		gpubinary = filepath.Join(tmp, "empty.fatbin")
		if err := os.WriteFile(gpubinary, nil, 0o644); err != nil {
			return fail(nil, "", err)
		}
	}
	obj := filepath.Join(tmp, "host.o")
	args := []string{tools.Clang, "-x", "cuda", "--cuda-host-only", "-fPIC", "-O" + strconv.Itoa(job.O), "-c", "-o", obj, job.Src,
		"-Wno-unknown-cuda-version", "-Xclang", "-fcuda-include-gpubinary", "-Xclang", gpubinary}
	if tools.CUDAPath != "" {
		args = append(args, "--cuda-path="+tools.CUDAPath)
	}
	if job.RDC {
		args = append(args, "-fgpu-rdc", "--no-offload-new-driver")
	}
	args = append(args, job.ClangOptions...)
	args = append(args, job.HostOptions...) // last, so that they override rules_gpu's
	if err := run(ctx, tmp, "clang", args, fail); err != nil {
		return tools.ExplainMissingHeader(err)
	}
	if job.RDC {
		if err := registersOnce(obj, args, fail); err != nil {
			return err
		}
	}
	return output(obj, job.Out, job.Stdout, fail)
}

// registersOnce checks that the object of relocatable device code at obj, which the command args
// wrote, calls exactly one registration (clang's and nvcc's do), as Register needs.
func registersOnce(obj string, args []string, fail failFunc) error {
	ids, err := ModuleIDs(obj)
	if err != nil {
		return fail(nil, "", err)
	}
	if len(ids) != 1 {
		return fail(args, "", fmt.Errorf("the object calls %d %s<ID> functions (IDs %s), not one: it cannot be registered", len(ids), linkedPrefix, strings.Join(ids, ", ")))
	}
	return nil
}

// ModuleIDs returns the module ids of a host object compiled as relocatable device code: the ID of
// each __cudaRegisterLinkedBinary<ID> function it calls (an undefined symbol), in symbol table order.
// An object of clang's has one; a relocatable link of several (ld -r) has one for each.
func ModuleIDs(path string) ([]string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: not an ELF object file: %w", path, err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return nil, fmt.Errorf("%s: reading its symbols: %w", path, err)
	}
	var ids []string
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF || !strings.HasPrefix(s.Name, linkedPrefix) {
			continue
		}
		id := s.Name[len(linkedPrefix):]
		if !cIdentifier(id) {
			return nil, fmt.Errorf("%s: calls %s, whose module id %q cannot be part of a C function name", path, s.Name, id)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// cIdentifier says whether s is made of the characters of C identifiers, and not empty.
func cIdentifier(s string) bool {
	for _, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}
