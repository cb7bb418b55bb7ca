package toolfind

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const fakePtxas = "#!/bin/sh\necho 'ptxas: NVIDIA (R) Ptx optimizing assembler'\necho 'Cuda compilation tools, release 12.4, V12.4.131'\n"

// tree makes a fake file system under a temporary root: each path of files (absolute, as on the
// machine) with its content; a content starting with "#!" is executable, "/" makes a directory.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, spec := range files {
		path, content, _ := strings.Cut(spec, "=")
		p := filepath.Join(root, path)
		if strings.HasSuffix(path, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(content, "#!") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// rel strips the fake root from a path found, and "" stays "".
func rel(root, p string) string {
	if p == "" {
		return ""
	}
	return "/" + strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
}

func TestFindCUDA(t *testing.T) {
	nvidia := []string{"/usr/local/cuda/bin/ptxas=" + fakePtxas, "/usr/local/cuda/bin/nvcc=" + fakePtxas,
		"/usr/local/cuda/nvvm/libdevice/libdevice.10.bc=BC", "/usr/local/cuda/include/cuda.h=//"}
	debian := []string{"/usr/bin/ptxas=" + fakePtxas, "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc=BC",
		"/usr/lib/cuda/include/cuda.h=//", "/usr/lib/cuda/nvvm/libdevice/"}
	for _, tc := range []struct {
		name      string
		files     []string
		cudaPath  string // $CUDA_PATH under the fake root
		ptxas     string // an explicit ptxas under the fake root
		want      CUDA   // paths under the fake root; Tried and Env not compared
		wantWhere string
		wantEnv   string // EnvError, the fake root removed
	}{
		{name: "nothing", wantWhere: "/usr/local/cuda/bin, /usr/bin; CUDA_PATH is not set"},
		{name: "NVIDIA's layout", files: nvidia,
			want: CUDA{Ptxas: "/usr/local/cuda/bin/ptxas", Libdevice: "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc", CUDAPath: "/usr/local/cuda", NVCC: "/usr/local/cuda/bin/nvcc"}},
		{name: "Debian's layout", files: debian,
			want: CUDA{Ptxas: "/usr/bin/ptxas", Libdevice: "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc", CUDAPath: "/usr/lib/cuda"}},
		{name: "/usr/local/cuda before /usr/bin", files: append(append([]string{}, debian...), nvidia...),
			want: CUDA{Ptxas: "/usr/local/cuda/bin/ptxas", Libdevice: "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc", CUDAPath: "/usr/local/cuda", NVCC: "/usr/local/cuda/bin/nvcc"}},
		{name: "CUDA_PATH first", files: append([]string{"/opt/cuda-12.8/bin/ptxas=" + fakePtxas, "/opt/cuda-12.8/nvvm/libdevice/libdevice.10.bc=BC"}, nvidia...),
			cudaPath:  "/opt/cuda-12.8",
			want:      CUDA{Ptxas: "/opt/cuda-12.8/bin/ptxas", Libdevice: "/opt/cuda-12.8/nvvm/libdevice/libdevice.10.bc"},
			wantWhere: "/opt/cuda-12.8/bin"},
		// A set CUDA_PATH that holds no ptxas is an error, not a reason to take another toolkit.
		{name: "CUDA_PATH without ptxas", files: nvidia, cudaPath: "/opt/none",
			wantEnv: "CUDA_PATH is /opt/none, and /opt/none/bin has no ptxas: CUDA_PATH names the root of the installation (the directory above bin/), and discovery looks nowhere else while it is set; set it to that root, or unset it to search /usr/local/cuda/bin and /usr/bin"},
		{name: "ptxas not executable", files: []string{"/usr/local/cuda/bin/ptxas=not a program", "/usr/bin/ptxas=" + fakePtxas},
			want: CUDA{Ptxas: "/usr/bin/ptxas"}},
		{name: "explicit ptxas: its toolkit's libdevice", files: append([]string{"/opt/c/bin/ptxas=" + fakePtxas, "/opt/c/nvvm/libdevice/libdevice.10.bc=BC"}, nvidia...),
			ptxas: "/opt/c/bin/ptxas", want: CUDA{Ptxas: "/opt/c/bin/ptxas", Libdevice: "/opt/c/nvvm/libdevice/libdevice.10.bc"}},
		{name: "cuda.h without libdevice is no CUDA path", files: []string{"/usr/local/cuda/bin/ptxas=" + fakePtxas, "/usr/local/cuda/include/cuda.h=//"},
			want: CUDA{Ptxas: "/usr/local/cuda/bin/ptxas"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, tc.files...)
			vars := map[string]string{}
			if tc.cudaPath != "" {
				vars["CUDA_PATH"] = root + tc.cudaPath
			}
			ptxas := ""
			if tc.ptxas != "" {
				ptxas = root + tc.ptxas
			}
			got := Machine{Getenv: env(vars), Root: root}.FindCUDA(ptxas)
			if g := (CUDA{Ptxas: rel(root, got.Ptxas), Libdevice: rel(root, got.Libdevice), CUDAPath: rel(root, got.CUDAPath), NVCC: rel(root, got.NVCC)}); g.Ptxas != tc.want.Ptxas ||
				g.Libdevice != tc.want.Libdevice || g.CUDAPath != tc.want.CUDAPath || g.NVCC != tc.want.NVCC {
				t.Errorf("found %+v, want %+v", g, tc.want)
			}
			if w := strings.ReplaceAll(got.Where(), root, ""); tc.wantWhere != "" && w != tc.wantWhere {
				t.Errorf("Where() = %q, want %q", w, tc.wantWhere)
			}
			if e := strings.ReplaceAll(got.EnvError(), root, ""); e != tc.wantEnv {
				t.Errorf("EnvError() = %q, want %q", e, tc.wantEnv)
			}
		})
	}
}

func TestFindLLVM(t *testing.T) {
	both := func(dir string) []string {
		return []string{dir + "/llc=#!", dir + "/mlir-opt=#!", dir + "/clang=#!"}
	}
	for _, tc := range []struct {
		name      string
		files     []string
		llvmPath  string
		want      string
		wantWhere string
		wantEnv   string // EnvError, the fake root removed
	}{
		{name: "nothing", wantWhere: "/usr/lib/llvm-*/bin, /usr/local/bin, /usr/bin; LLVM_PATH is not set"},
		{name: "the newest /usr/lib/llvm-N", files: append(both("/usr/lib/llvm-9/bin"), append(both("/usr/lib/llvm-21/bin"), both("/usr/bin")...)...),
			want: "/usr/lib/llvm-21/bin", wantWhere: "/usr/lib/llvm-21/bin, /usr/lib/llvm-9/bin, /usr/local/bin, /usr/bin; LLVM_PATH is not set"},
		{name: "llc without mlir-opt is skipped", files: append([]string{"/usr/lib/llvm-21/bin/llc=#!"}, both("/usr/local/bin")...),
			want: "/usr/local/bin"},
		{name: "/usr/bin", files: both("/usr/bin"), want: "/usr/bin"},
		{name: "LLVM_PATH first", files: append(both("/opt/llvm/bin"), both("/usr/lib/llvm-21/bin")...), llvmPath: "/opt/llvm",
			want: "/opt/llvm/bin", wantWhere: "/opt/llvm/bin"},
		{name: "LLVM_PATH without LLVM", files: both("/usr/lib/llvm-21/bin"), llvmPath: "/opt/none",
			wantEnv: "LLVM_PATH is /opt/none, and /opt/none/bin has no llc and mlir-opt: LLVM_PATH names the root of the installation (the directory above bin/), and discovery looks nowhere else while it is set; set it to that root, or unset it to search /usr/lib/llvm-N/bin, /usr/local/bin and /usr/bin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, tc.files...)
			vars := map[string]string{}
			if tc.llvmPath != "" {
				vars["LLVM_PATH"] = root + tc.llvmPath
			}
			got := Machine{Getenv: env(vars), Root: root}.FindLLVM()
			if rel(root, got.Bin) != tc.want {
				t.Errorf("found %q, want %q", rel(root, got.Bin), tc.want)
			}
			if e := strings.ReplaceAll(got.EnvError(), root, ""); e != tc.wantEnv {
				t.Errorf("EnvError() = %q, want %q", e, tc.wantEnv)
			}
			if w := strings.ReplaceAll(got.Where(), root, ""); tc.wantWhere != "" && w != tc.wantWhere {
				t.Errorf("Where() = %q, want %q", w, tc.wantWhere)
			}
			if tc.want != "" {
				if rel(root, got.Tool("clang")) != tc.want+"/clang" || got.Tool("opt") != "" {
					t.Errorf("Tool: clang %q, opt %q", got.Tool("clang"), got.Tool("opt"))
				}
			}
		})
	}
}

func TestPtxasVersion(t *testing.T) {
	for _, tc := range []struct{ name, script, want, wantErr string }{
		{"CUDA 12.4", fakePtxas, "12.4", ""},
		{"CUDA 13.0", "#!/bin/sh\necho 'Cuda compilation tools, release 13.0, V13.0.48'\n", "13.0", ""},
		{"no release", "#!/bin/sh\necho 'ptxas 1.0'\n", "", "does not say its CUDA release"},
		{"fails", "#!/bin/sh\necho broken >&2\nexit 3\n", "", "broken"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, "/ptxas="+tc.script)
			got, err := PtxasVersion(context.Background(), filepath.Join(root, "ptxas"))
			if got != tc.want || (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("PtxasVersion = %q, %v; want %q, %q", got, err, tc.want, tc.wantErr)
			}
		})
	}
}

// On a machine with the tools (the build environment: env/env.sh run go test ./...), discovery
// finds a toolkit with a version and an LLVM with every tool of the pipeline.
func TestRealMachine(t *testing.T) {
	cuda := Machine{}.FindCUDA("")
	if cuda.Ptxas == "" {
		t.Skipf("no CUDA toolkit here (looked in %s)", cuda.Where())
	}
	v, err := PtxasVersion(context.Background(), cuda.Ptxas)
	if err != nil || !regexp.MustCompile(`^\d+\.\d+$`).MatchString(v) {
		t.Errorf("%s: version %q, %v", cuda.Ptxas, v, err)
	}
	t.Logf("CUDA %s: %+v", v, cuda)
	if cuda.Libdevice == "" {
		t.Errorf("no libdevice beside %s", cuda.Ptxas)
	}
	llvm := Machine{}.FindLLVM()
	if llvm.Bin == "" {
		t.Skipf("no LLVM with MLIR here (looked in %s)", llvm.Where())
	}
	for _, tool := range []string{"llc", "opt", "llvm-link", "clang", "mlir-opt", "mlir-translate"} {
		if llvm.Tool(tool) == "" {
			t.Errorf("no %s in %s", tool, llvm.Bin)
		}
	}
}
