package compile

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// pchProject writes, in the working directory, a CUDA C++ source that includes the toolkit's
// runtime, <cmath> and a header of its own, and a toolkit made of links to the real one's files
// but cuda_runtime.h, which is a copy in its include directory (so that a test can edit a header
// of a PCH: compiles search the toolkit's include directory first).
func pchProject(t *testing.T, real string) {
	t.Helper()
	for _, d := range []string{"src", "hdr", "cuda/include"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testtool.WriteFile(t, "hdr", "twice.h", "#pragma once\n__device__ inline float twice(float x) { return 2 * x; }\n")
	testtool.WriteFile(t, "src", "k.cu", "#include <cuda_runtime.h>\n#include <cmath>\n#include <cassert>\n#include \"twice.h\"\n"+
		"__global__ void k(float *x) { assert(x[0] >= 0); x[threadIdx.x] = twice(std::sqrt(x[threadIdx.x])); }\n")
	entries, err := os.ReadDir(real)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "include" {
			if err := os.Symlink(filepath.Join(real, e.Name()), filepath.Join("cuda", e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The toolkit's headers: its include directory's, all linked but cuda_runtime.h (a Debian
	// toolkit's are in /usr/include, which clang searches anyway: then only that copy).
	runtime := filepath.Join(real, "include", "cuda_runtime.h")
	if _, err := os.Stat(runtime); err != nil {
		runtime = "/usr/include/cuda_runtime.h"
	} else if headers, err := os.ReadDir(filepath.Join(real, "include")); err == nil {
		for _, h := range headers {
			if h.Name() != "cuda_runtime.h" {
				if err := os.Symlink(filepath.Join(real, "include", h.Name()), filepath.Join("cuda/include", h.Name())); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	data, err := os.ReadFile(runtime)
	if err != nil {
		t.Fatal(err)
	}
	testtool.WriteFile(t, "cuda/include", "cuda_runtime.h", string(data))
}

// pchRun is one compile's outcome: its output, the clang runs it took, and what it logged.
type pchRun struct {
	out    []byte
	clangs int
	stages []string
	log    string
}

func runPCHJob(t *testing.T, tools Tools, job Job) (pchRun, error) {
	t.Helper()
	var r pchRun
	var log bytes.Buffer
	job.Log = &log
	job.Trace = func(stage string, _ time.Duration) {
		r.stages = append(r.stages, stage)
		if stage == "clang" {
			r.clangs++
		}
	}
	err := tools.Compile(context.Background(), job)
	r.log = log.String()
	if err == nil && job.Out != "" {
		r.out, err = os.ReadFile(job.Out)
	}
	return r, err
}

// A PCH of clang's CUDA headers, made once, serves compiles of any optimisation level 1-3 with and
// without flush-to-zero, in another directory too (two sandboxes): their PTX is the PTX without it,
// and one clang runs. What clang refuses, or an include directory shadows, costs a compile without
// it and changes nothing; what clang would not notice is refused before it runs.
func TestPCH(t *testing.T) {
	tools := findTools(t)
	realCUDA := tools.CUDAPath
	tools.CUDAPath = "cuda" // relative, as a toolkit inside the build: under the virtual root
	tk := chip.Toolkit{Major: 12, Minor: 4}
	sm80 := mustChip(t, "sm_80")
	base := t.TempDir()
	dirs := []string{filepath.Join(base, "a"), filepath.Join(base, "b")}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Chdir(d)
		pchProject(t, realCUDA)
		if _, err := runPCHJob(t, tools, Job{Target: "//t:pch", Format: FormatPCH, Chip: sm80, Toolkit: tk, Out: "sm_80.pch", Codegen: Codegen{O: 2}, CUDA: CUDAOptions{PCHHeaders: "sm_80.pch.headers"}}); err != nil {
			t.Fatal(err)
		}
	}
	a, err := os.ReadFile(filepath.Join(dirs[0], "sm_80.pch"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dirs[1], "sm_80.pch"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("the PCHs made in two directories differ (%d and %d bytes): a path of the directory is in them", len(a), len(b))
	}
	headers, err := os.ReadFile(filepath.Join(dirs[1], "sm_80.pch.headers"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/__clang_cuda_runtime_wrapper.h\n", "\ncuda/include/cuda_runtime.h\n"} {
		if !bytes.Contains(headers, []byte(want)) {
			t.Errorf("the PCH's header list lacks %q:\n%s", want, headers)
		}
	}
	// dirs[1] loads dirs[0]'s PCH: one made in another sandbox, or fetched from a cache.
	if err := os.WriteFile(filepath.Join(dirs[1], "sm_80.pch"), a, 0o644); err != nil {
		t.Fatal(err)
	}
	job := func(c string, o int, opts ...string) Job {
		return Job{Target: "//t:k", Src: "src/k.cu", Format: FormatISA, Chip: mustChip(t, c), Toolkit: tk, Codegen: Codegen{O: o}, CUDA: CUDAOptions{ClangOptions: append([]string{"-I", "hdr"}, opts...), PCH: "sm_80.pch", PCHHeaders: "sm_80.pch.headers"}}
	}
	plain := func(j Job) []byte {
		t.Helper()
		j.CUDA.PCH, j.CUDA.PCHHeaders, j.Out = "", "", "plain.ptx"
		r, err := runPCHJob(t, tools, j)
		if err != nil {
			t.Fatal(err)
		}
		return r.out
	}
	for _, tc := range []struct {
		name   string
		job    Job
		clangs int    // 1: the PCH was used; 2: refused, then compiled without it
		log    string // in the warning; "" for none
		stage  string // a trace stage there must be
	}{
		{name: "O1", job: job("sm_80", 1), clangs: 1},
		{name: "O2", job: job("sm_80", 2), clangs: 1},
		{name: "O3", job: job("sm_80", 3), clangs: 1},
		{name: "O3 ftz", job: func() Job { j := job("sm_80", 3); j.FTZ = true; return j }(), clangs: 1},
		{name: "another chip", job: job("sm_86", 2), clangs: 2, log: "target CPU 'sm_80'"},
		{name: "O0", job: job("sm_80", 0), clangs: 2, log: "__OPTIMIZE__"},
		{name: "fast math", job: func() Job { j := job("sm_80", 2); j.Fast = true; return j }(), clangs: 2, log: "__FAST_MATH__"},
		{name: "shadowed by an include directory", job: job("sm_80", 2, "-isystem", "shadow"), clangs: 1, stage: "pch shadowed by shadow/cmath"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(dirs[1])
			if err := os.MkdirAll("shadow", 0o755); err != nil {
				t.Fatal(err)
			}
			testtool.WriteFile(t, "shadow", "cmath", "#include_next <cmath>\n")
			j := tc.job
			j.Out = "k.ptx"
			r, err := runPCHJob(t, tools, j)
			if err != nil {
				t.Fatal(err)
			}
			if r.clangs != tc.clangs {
				t.Errorf("%d clang runs (%v), want %d", r.clangs, r.stages, tc.clangs)
			}
			if tc.log == "" && r.log != "" || !strings.Contains(r.log, tc.log) {
				t.Errorf("logged %q, want it to hold %q", r.log, tc.log)
			}
			if tc.stage != "" && !strings.Contains(strings.Join(r.stages, "\n"), tc.stage) {
				t.Errorf("stages %q lack %q", r.stages, tc.stage)
			}
			if want := plain(j); !bytes.Equal(r.out, want) {
				t.Errorf("the PTX with the PCH differs from the PTX without it")
			}
		})
	}
	t.Run("its own header in an include directory", func(t *testing.T) {
		t.Chdir(dirs[1])
		j := job("sm_80", 2, "-isystem", "cuda/include")
		j.Out = "k.ptx"
		if r, err := runPCHJob(t, tools, j); err != nil || r.clangs != 1 || r.log != "" {
			t.Fatalf("%d clang runs (%v), logged %q, error %v; want the PCH used: the header that is in it does not shadow it", r.clangs, r.stages, r.log, err)
		}
	})
	t.Run("a header in it edited to the same size", func(t *testing.T) {
		t.Chdir(dirs[1])
		j := job("sm_80", 2)
		j.Out = "k.ptx"
		rt := "cuda/include/cuda_runtime.h"
		data, err := os.ReadFile(rt)
		if err != nil {
			t.Fatal(err)
		}
		edited := bytes.Replace(data, []byte("Copyright"), []byte("COPYRIGHT"), 1) // in its licence comment: the same size
		if bytes.Equal(edited, data) {
			t.Fatal("cuda_runtime.h has no Copyright to edit")
		}
		if err := os.WriteFile(rt, edited, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(rt, data, 0o644)
		r, err := runPCHJob(t, tools, j)
		if err != nil {
			t.Fatal(err)
		}
		if r.clangs != 2 || !strings.Contains(r.log, "content changed") {
			t.Errorf("%d clang runs, logged %q; want the PCH refused for its changed header", r.clangs, r.log)
		}
	})
	for _, tc := range []struct {
		name, want string
		edit       func(*Job)
	}{
		{"a macro", "clang option -DN=1", func(j *Job) { j.CUDA.ClangOptions = append(j.CUDA.ClangOptions, "-DN=1") }},
		{"relocatable device code", "not relocatable device code", func(j *Job) { j.CUDA.RDC, j.Format = true, FormatOffload }},
		{"nvcc", "needs clang", func(j *Job) { j.CUDA.Compiler = CompilerNVCC }},
		{"LLVM IR", "not offload", func(j *Job) { j.Format = FormatOffload }},
		{"no header list", "--pch-headers", func(j *Job) { j.CUDA.PCHHeaders = "" }},
		{"an MLIR source", "this is a mlir source", func(j *Job) { j.Src = "k.mlir" }},
		{"a PCH to standard output", "give -o FILE", func(j *Job) { j.Src, j.CUDA.PCH, j.Format, j.Out = "", "", FormatPCH, "-" }},
	} {
		t.Run("refused/"+tc.name, func(t *testing.T) {
			t.Chdir(dirs[1])
			j := job("sm_80", 2)
			j.Out = "refused.ptx"
			tc.edit(&j)
			_, err := runPCHJob(t, tools, j)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "//t:k") {
				t.Fatalf("error %v, want one naming the target and saying %q", err, tc.want)
			}
			if _, err := os.Stat(j.Out); err == nil {
				t.Errorf("%s written", j.Out)
			}
		})
	}
}

func TestDependencies(t *testing.T) {
	for _, tc := range []struct{ rule string }{
		{"pch: /dev/null \\\n  /a/b.h \\\n  /c/with\\ space.h\n"},
		{"pch: /dev/null /a/b.h /c/with\\ space.h"},
	} {
		got := dependencies(tc.rule)
		if want := []string{"/a/b.h", "/c/with space.h"}; !reflect.DeepEqual(got, want) {
			t.Errorf("dependencies(%q) = %q, want %q", tc.rule, got, want)
		}
	}
}
