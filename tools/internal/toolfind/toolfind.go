// Package toolfind finds the CUDA toolkit and LLVM with MLIR on this machine, where the Bazel
// toolchains' local discovery looks (toolchain/local_cuda.bzl, toolchain/local_llvm.bzl), so that
// `gpubuild compile` run by hand finds the tools that a Bazel build on the same machine would use.
//
// The CUDA toolkit is $CUDA_PATH/bin when CUDA_PATH is set (one that holds no ptxas is an error, not
// a reason to look elsewhere), else the first of /usr/local/cuda/bin and /usr/bin (Debian's and
// Ubuntu's nvidia-cuda-toolkit) that holds ptxas; its version is what `ptxas --version` reports.
// Its libdevice is <root>/nvvm/libdevice/libdevice.10.bc or Debian's
// /usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc, where <root> is the parent of ptxas's
// directory; clang's --cuda-path is <root>, or Debian's /usr/lib/cuda, whichever holds
// include/cuda.h and nvvm/libdevice.
//
// LLVM is $LLVM_PATH/bin when LLVM_PATH is set (again, no looking elsewhere), else the first of
// /usr/lib/llvm-N/bin (Debian and Ubuntu; newest N first), /usr/local/bin and /usr/bin that holds both
// llc and mlir-opt; every LLVM tool comes from there.
package toolfind

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Machine is where discovery looks.
type Machine struct {
	// Getenv reads CUDA_PATH and LLVM_PATH; os.Getenv when nil.
	Getenv func(string) string
	// Root is prefixed to the fixed places (/usr/local/cuda, /usr/lib/llvm-N, /usr/bin, ...), not to
	// the environment's paths; "" is the machine's own file system. Tests point it at a fake tree.
	Root string
}

func (m Machine) getenv(key string) string {
	if m.Getenv == nil {
		return os.Getenv(key)
	}
	return m.Getenv(key)
}

func (m Machine) fixed(p string) string { return m.Root + p }

// CUDA is the CUDA toolkit found.
type CUDA struct {
	// Ptxas is the path of ptxas; "" when none was found.
	Ptxas string
	// Libdevice is libdevice.10.bc; "" when none was found.
	Libdevice string
	// CUDAPath is the toolkit root for clang's --cuda-path; "" when none was found.
	CUDAPath string
	// NVCC and NVLink are the toolkit's nvcc and nvlink, beside its ptxas; "" when it has none.
	NVCC, NVLink string
	// Tried are the directories looked in for ptxas, in order; Env is $CUDA_PATH.
	Tried []string
	Env   string
}

// Where says where ptxas was looked for, for messages: "/usr/local/cuda/bin, /usr/bin; CUDA_PATH
// is not set".
func (c CUDA) Where() string { return where(c.Tried, "CUDA_PATH", c.Env) }

// FindCUDA finds the toolkit whose ptxas is ptxas when that is set (a path, or a name on PATH),
// else $CUDA_PATH/bin when CUDA_PATH is set, else the first directory of /usr/local/cuda/bin and
// /usr/bin holding ptxas, and looks for its libdevice and CUDA path around it.
func (m Machine) FindCUDA(ptxas string) CUDA {
	c := CUDA{Env: m.getenv("CUDA_PATH")}
	if ptxas != "" {
		if !strings.ContainsRune(ptxas, filepath.Separator) {
			if p, err := exec.LookPath(ptxas); err == nil {
				ptxas = p
			}
		}
		if isFile(ptxas) {
			c.Ptxas = ptxas
		}
	} else {
		if c.Env != "" {
			c.Tried = append(c.Tried, filepath.Join(c.Env, "bin")) // and nowhere else
		} else {
			c.Tried = append(c.Tried, m.fixed("/usr/local/cuda/bin"), m.fixed("/usr/bin"))
		}
		for _, dir := range c.Tried {
			if p := filepath.Join(dir, "ptxas"); isExecutable(p) {
				c.Ptxas = p
				break
			}
		}
	}
	if c.Ptxas == "" {
		return c
	}
	if p := filepath.Join(filepath.Dir(c.Ptxas), "nvcc"); isExecutable(p) {
		c.NVCC = p
	}
	if p := filepath.Join(filepath.Dir(c.Ptxas), "nvlink"); isExecutable(p) {
		c.NVLink = p
	}
	root := filepath.Dir(filepath.Dir(c.Ptxas))
	for _, p := range []string{filepath.Join(root, "nvvm", "libdevice", "libdevice.10.bc"),
		m.fixed("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc")} {
		if isFile(p) {
			c.Libdevice = p
			break
		}
	}
	for _, p := range []string{root, m.fixed("/usr/lib/cuda")} {
		if isFile(filepath.Join(p, "include", "cuda.h")) && isDir(filepath.Join(p, "nvvm", "libdevice")) {
			c.CUDAPath = p
			break
		}
	}
	return c
}

// releaseRE reads ptxas --version's "Cuda compilation tools, release 12.4, V12.4.131".
var releaseRE = regexp.MustCompile(`release (\d+\.\d+)`)

// PtxasVersion is the CUDA version that ptxas --version reports, e.g. "12.4".
func PtxasVersion(ctx context.Context, ptxas string) (string, error) {
	out, err := exec.CommandContext(ctx, ptxas, "--version").CombinedOutput()
	if err != nil {
		if s := strings.TrimSpace(string(out)); s != "" {
			err = fmt.Errorf("%w: %s", err, s)
		}
		return "", fmt.Errorf("%s --version: %w", ptxas, err)
	}
	m := releaseRE.FindSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("%s --version does not say its CUDA release (\"release 12.4\"): %q", ptxas, strings.TrimSpace(string(out)))
	}
	return string(m[1]), nil
}

// LLVM is the LLVM installation found.
type LLVM struct {
	// Bin is the directory that holds llc and mlir-opt; "" when none was found.
	Bin string
	// Tried are the directories looked in, in order; Env is $LLVM_PATH.
	Tried []string
	Env   string
}

// Where says where LLVM was looked for, for messages.
func (l LLVM) Where() string { return where(l.Tried, "LLVM_PATH", l.Env) }

// Tool is the path of the named tool (llc, opt, llvm-link, clang, mlir-opt, mlir-translate) in Bin,
// or "" when it is not there.
func (l LLVM) Tool(name string) string {
	if l.Bin == "" {
		return ""
	}
	if p := filepath.Join(l.Bin, name); isExecutable(p) {
		return p
	}
	return ""
}

// FindLLVM finds $LLVM_PATH/bin when LLVM_PATH is set, else the first directory of
// /usr/lib/llvm-N/bin (newest N first), /usr/local/bin and /usr/bin, that holds both llc and mlir-opt.
func (m Machine) FindLLVM() LLVM {
	l := LLVM{Env: m.getenv("LLVM_PATH")}
	switch v := m.versioned(); {
	case l.Env != "":
		l.Tried = append(l.Tried, filepath.Join(l.Env, "bin")) // and nowhere else
	case len(v) > 0:
		l.Tried = append(l.Tried, v...)
	default:
		l.Tried = append(l.Tried, m.fixed("/usr/lib/llvm-*/bin")) // none there: named for messages
	}
	if l.Env == "" {
		l.Tried = append(l.Tried, m.fixed("/usr/local/bin"), m.fixed("/usr/bin"))
	}
	for _, dir := range l.Tried {
		if isExecutable(filepath.Join(dir, "llc")) && isExecutable(filepath.Join(dir, "mlir-opt")) {
			l.Bin = dir
			break
		}
	}
	return l
}

// versioned lists the /usr/lib/llvm-N/bin directories, newest first.
func (m Machine) versioned() []string {
	matches, _ := filepath.Glob(m.fixed("/usr/lib/llvm-*"))
	type dir struct {
		path    string
		version int
	}
	var dirs []dir
	for _, p := range matches {
		if v, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(p), "llvm-")); err == nil {
			dirs = append(dirs, dir{filepath.Join(p, "bin"), v})
		}
	}
	slices.SortFunc(dirs, func(a, b dir) int { return b.version - a.version })
	var out []string
	for _, d := range dirs {
		out = append(out, d.path)
	}
	return out
}

// envMissing is the message for an environment variable (CUDA_PATH, LLVM_PATH) that is set and does
// not hold the tools it names: {env} stands for the variable, {value} for its value, {want} for what
// was looked for, {default} for where discovery looks without it.
const envMissing = "{env} is {value}, and {value}/bin has no {want}: {env} names the root of the installation (the directory above bin/), and discovery looks nowhere else while it is set; set it to that root, or unset it to search {default}"

// EnvError is the message for a set CUDA_PATH whose bin/ holds no ptxas; "" when CUDA_PATH is not set
// or ptxas was found.
func (c CUDA) EnvError() string {
	if c.Env == "" || c.Ptxas != "" || len(c.Tried) == 0 {
		return ""
	}
	return strings.NewReplacer("{env}", "CUDA_PATH", "{value}", c.Env, "{want}", "ptxas", "{default}", "/usr/local/cuda/bin and /usr/bin").Replace(envMissing)
}

// EnvError is the message for a set LLVM_PATH whose bin/ lacks llc or mlir-opt; "" when LLVM_PATH is
// not set or LLVM was found.
func (l LLVM) EnvError() string {
	if l.Env == "" || l.Bin != "" {
		return ""
	}
	return strings.NewReplacer("{env}", "LLVM_PATH", "{value}", l.Env, "{want}", "llc and mlir-opt", "{default}", "/usr/lib/llvm-N/bin, /usr/local/bin and /usr/bin").Replace(envMissing)
}

// where lists the directories tried and says how the environment variable was set.
func where(tried []string, env, value string) string {
	s := strings.Join(tried, ", ")
	if value == "" {
		s += "; " + env + " is not set"
	}
	return s
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

func isExecutable(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}
