// Package cudahost compiles the host side of CUDA C++ sources with clang against a fatbin, and
// writes the CUDA runtime registration of a device-linked fatbin for relocatable device code.
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
package cudahost

import (
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
)

// Job is the host side of one CUDA C++ source compiled into one object file.
type Job struct {
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
	// RDC compiles the source as relocatable device code (clang's -fgpu-rdc): the object embeds no
	// device code, and calls the registration of the device-linked fatbin (Registration). Exactly
	// one of Fatbin and RDC is set.
	RDC bool
	// O is the host code's optimisation level, 0 to 3.
	O int
	// ClangOptions are the source's preprocessor options (-I, -D, -include, -std=, ...), as the
	// device compilation takes them (compile.Job.ClangOptions), in order, after rules_gpu's own.
	ClangOptions []string
	// HostOptions are more clang options of the host compilation only, after ClangOptions.
	HostOptions []string

	tmp string // the job's temporary directory while it runs: clang's TMPDIR (compile.ToolEnv)
}

// linkedPrefix starts the name of the function that an RDC host object calls to be registered;
// its module id follows ("__nv_f8f599332daf4cdc" from clang: "__cudaRegisterLinkedBinary__nv_...").
const linkedPrefix = "__cudaRegisterLinkedBinary"

// Compile compiles the host side of job.Src with tools.Clang (and tools.CUDAPath as clang's
// --cuda-path; tools.Missing explains a missing clang, as for compile.Tools) into a position
// independent object file. An RDC object is checked to call its registration.
func Compile(ctx context.Context, tools compile.Tools, job Job) error {
	switch {
	case job.RDC == (job.Fatbin != ""):
		return job.fail(nil, "", errors.New("give the source's fatbin, or compile it as relocatable device code (RDC), not both or neither"))
	case job.O < 0 || job.O > 3:
		return job.fail(nil, "", fmt.Errorf("optimisation level %d: use 0 to 3", job.O))
	}
	if !present(tools.Clang) {
		explain := tools.Missing
		if explain == nil {
			explain = compile.ToolchainMissing
		}
		return job.fail(nil, "", errors.New(explain("clang", tools.Clang)))
	}
	if job.Fatbin != "" {
		if _, err := os.Stat(job.Fatbin); err != nil {
			return job.fail(nil, "", fmt.Errorf("the source's fatbin: %w", err))
		}
	}
	tmp, err := atomicfile.MkdirTemp(job.Out)
	if err != nil {
		return job.fail(nil, "", err)
	}
	defer os.RemoveAll(tmp)
	job.tmp = tmp

	gpubinary := job.Fatbin
	if job.RDC {
		// The object carries no device code of its own: an empty "GPU binary".
		gpubinary = filepath.Join(tmp, "empty.fatbin")
		if err := os.WriteFile(gpubinary, nil, 0o644); err != nil {
			return job.fail(nil, "", err)
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
	if err := job.run(ctx, args); err != nil {
		return tools.ExplainMissingHeader(err)
	}
	if job.RDC {
		ids, err := ModuleIDs(obj)
		if err != nil {
			return job.fail(nil, "", err)
		}
		if len(ids) != 1 {
			return job.fail(args, "", fmt.Errorf("clang's object calls %d %s<ID> functions (IDs %s), not one: it cannot be registered", len(ids), linkedPrefix, strings.Join(ids, ", ")))
		}
	}
	data, err := os.ReadFile(obj)
	if err != nil {
		return job.fail(nil, "", err)
	}
	if err := atomicfile.Output(job.Out, job.Stdout, data); err != nil {
		return job.fail(nil, "", err)
	}
	return nil
}

// fail is a failed host compilation, as compile reports a device one: "compiling SRC for the host".
func (job Job) fail(cmd []string, stderr string, err error) error {
	return &compile.Error{Target: job.Target, Src: job.Src, Chip: "the host", Command: cmd, Stderr: stderr, Err: err}
}

// run runs clang; a failure carries the command and what clang printed.
func (job Job) run(ctx context.Context, cmd []string) error {
	c := exec.CommandContext(ctx, cmd[0], cmd[1:]...)
	c.Env = compile.ToolEnv(job.tmp)
	out, err := c.CombinedOutput()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("clang: %s exited with status %d", filepath.Base(cmd[0]), exit.ExitCode())
		}
		return job.fail(cmd, string(out), err)
	}
	return nil
}

// present says whether a tool is configured and found: an existing path, or a program on PATH.
func present(tool string) bool {
	if tool == "" {
		return false
	}
	if _, err := os.Stat(tool); err == nil {
		return true
	}
	_, err := exec.LookPath(tool)
	return err == nil
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
