package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
	"github.com/rulesgpu/rules_gpu/tools/internal/nvcc"
)

// nvccHost compiles the host side of job.Src with nvcc, as `nvcc -c` does, against job.Fatbin: nvcc's
// own steps (package nvcc), its host compiler preprocessing the source, cudafe++ splitting off the
// host code, cicc writing the code that registers the kernels (for job.Chip's virtual architecture;
// the PTX it also writes is not used) and the host compiler compiling the result, which includes the
// fatbin as nvcc's fatbinary would have written it. So the object is the one nvcc -c makes, with the
// device code that rules_gpu's per-chip actions built. As relocatable device code (job.RDC: nvcc
// -rdc=true -c), the object carries no device code and calls its registration by its module id, as
// clang's does (Registration).
func nvccHost(ctx context.Context, tools compile.Tools, job CUDAJob, fail failFunc) error {
	if job.Chip.IsZero() {
		return fail(nil, "", errors.New("nvcc's host compile needs the source's lowest chip (--chip), the architecture its registration code is written for"))
	}
	for _, o := range job.HostOptions {
		if strings.Contains(o, ",") {
			return fail(nil, "", fmt.Errorf("host option %q has a comma, where nvcc's -Xcompiler splits its options: give the host compiler that option another way (for -Wl,..., in linkopts)", o))
		}
	}
	if err := need(tools, [2]string{"nvcc", tools.NVCC}); err != nil {
		return fail(nil, "", err)
	}
	var data []byte
	if !job.RDC {
		var err error
		if data, err = os.ReadFile(job.Fatbin); err != nil {
			return fail(nil, "", fmt.Errorf("the source's fatbin: %w", err))
		}
		if _, err := fatbin.Read(data); err != nil {
			return fail(nil, "", fmt.Errorf("%s is not a fatbin (give the fatbin that gpubuild link made of the source's cubins and PTX): %w", job.Fatbin, err))
		}
	}
	tmp, err := atomicfile.MkdirTemp(job.Out)
	if err != nil {
		return fail(nil, "", err)
	}
	defer os.RemoveAll(tmp)

	virtual := job.Chip
	virtual.Virtual = true
	obj := filepath.Join(tmp, "host.o")
	args := []string{"-x", "cu", "-c", "-o", obj, "-arch=" + virtual.String(), "-code=" + virtual.String(), "-O" + strconv.Itoa(job.O), "-Xcompiler", "-fPIC"}
	if job.RDC {
		args = append(args, "-rdc=true")
	}
	if job.HostCompiler != "" {
		// The C++ toolchain decides the host compiler: nvcc's list of the versions it was tested with
		// is not consulted (docs/cuda.md says so).
		args = append(args, "-ccbin", job.HostCompiler, "-allow-unsupported-compiler")
	}
	args = append(args, nvcc.ArchListOptions(job.ArchList)...)
	args = append(args, nvcc.PreprocessorOptions(job.ClangOptions)...)
	args = append(args, job.NvccOptions...)
	for _, o := range job.HostOptions {
		args = append(args, "-Xcompiler", o)
	}
	args = append(args, job.Src)

	embedded := false
	replace := func(s nvcc.Step) (bool, error) {
		if s.Tool() != "fatbinary" {
			return false, nil
		}
		path := nvcc.EmbeddedFatbinPath(s)
		if path == "" {
			return false, fmt.Errorf("nvcc's fatbinary step writes no --embedded-fatbin=FILE for the host code: %s", strings.Join(s, " "))
		}
		var b bytes.Buffer
		if job.RDC {
			if err := nvcc.EmbeddedRelocatable(&b, job.Target); err != nil {
				return false, err
			}
		} else if err := nvcc.EmbeddedFatbin(&b, job.Target, data); err != nil {
			return false, fmt.Errorf("%s: %w", job.Fatbin, err)
		}
		embedded = true
		return true, os.WriteFile(path, b.Bytes(), 0o644)
	}
	err = nvcc.Compile(ctx, tools.NVCC, args, compile.ToolEnv(tmp), tmp, job.Src, replace, func(cmd, env []string) error {
		return runEnv(ctx, tmp, "nvcc", env, cmd, fail)
	})
	var dryrun *nvcc.Error
	var failed *compile.Error
	switch {
	case errors.As(err, &dryrun):
		return fail(dryrun.Command, dryrun.Output, err)
	case err != nil && !errors.As(err, &failed):
		return fail(nil, "", err)
	case err != nil:
		return tools.ExplainMissingHeader(err)
	}
	if !embedded {
		return fail(args, "", errors.New("nvcc's plan has no fatbinary step, so the object would carry no device code"))
	}
	if job.RDC {
		if err := registersOnce(obj, args, fail); err != nil {
			return err
		}
	}
	return output(obj, job.Out, job.Stdout, fail)
}
