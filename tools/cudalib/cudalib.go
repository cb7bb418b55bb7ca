// Package cudalib is the one table of the CUDA toolkit's libraries that host code links or includes:
// each library's files (its static archives and its shared library), the other libraries it needs,
// a header that shows its headers are there, and where a toolkit gets it (NVIDIA's redistributable
// archive, Debian's and Ubuntu's package).
//
// The rules' targets @rules_gpu//cuda:NAME and the toolchains' discovery of the files are generated
// from it (cuda/libraries_table.bzl, by WriteStarlark; a test keeps it in sync), and so
// is the reference in docs (WriteMarkdown); `gpubuild migrate` maps rules_cuda's toolkit labels with
// Lookup.
package cudalib

import (
	"fmt"
	"slices"
	"strings"
)

// Library is one library of the CUDA toolkit.
type Library struct {
	Name  string // the target's name: @rules_gpu//cuda:NAME
	Title string // as NVIDIA writes it, for messages
	// Static holds the static archives, in link order ("" for none); Shared the shared library's
	// link name (the file that -l finds; "" for none). A library with neither is headers only.
	Static []string
	Shared string
	// Deps are the libraries of the table this one needs, static or shared; StaticDeps those that
	// only its static archives need.
	Deps, StaticDeps []string
	// System holds what its static archives need of the system (-l options).
	System []string
	// Header is a header, relative to an include directory, that shows its headers are there.
	Header string
	// Includes are the #include paths of the headers whose use means linking it (or, headers
	// only, depending on it): a name, or a directory ending in "/" for every header below it.
	// gazelle resolves such an include to @rules_gpu//cuda:NAME. Headers of its device-side API
	// that need no link (curand_kernel.h) are not among them.
	Includes []string
	// RulesCUDA holds the names rules_cuda's toolkit repository (@local_cuda) gives it, for
	// `gpubuild migrate`.
	RulesCUDA []string
	// Redist is NVIDIA's redistributable archive that holds it (cuda.archive), Debian the Debian and
	// Ubuntu packages that install it (the static archive and the headers).
	Redist, Debian string
}

// What the static archives of the toolkit's libraries need of the system, as NVIDIA documents.
var staticSystem = []string{"-lpthread", "-ldl", "-lrt"}

var table = []Library{
	{Name: "culibos", Title: "culibos (the static libraries' OS layer)", Static: []string{"libculibos.a"},
		System: staticSystem, Header: "cuda_runtime_api.h", Redist: "cuda_cudart", Debian: "nvidia-cuda-dev", RulesCUDA: []string{"culibos"}},
	{Name: "cublasLt", Title: "cuBLASLt", Static: []string{"libcublasLt_static.a"}, Shared: "libcublasLt.so",
		StaticDeps: []string{"culibos"}, System: staticSystem, Header: "cublasLt.h", Includes: []string{"cublasLt.h"}, Redist: "libcublas", Debian: "nvidia-cuda-dev"},
	{Name: "cublas", Title: "cuBLAS", Static: []string{"libcublas_static.a"}, Shared: "libcublas.so",
		Deps: []string{"cublasLt"}, StaticDeps: []string{"culibos"}, System: staticSystem, Header: "cublas_v2.h", Includes: []string{"cublas.h", "cublas_api.h", "cublas_v2.h", "cublasXt.h"}, Redist: "libcublas", Debian: "nvidia-cuda-dev", RulesCUDA: []string{"cublas"}},
	{Name: "cufft", Title: "cuFFT", Static: []string{"libcufft_static.a"}, Shared: "libcufft.so",
		StaticDeps: []string{"culibos"}, System: staticSystem, Header: "cufft.h", Includes: []string{"cufft.h", "cufftXt.h"}, Redist: "libcufft", Debian: "nvidia-cuda-dev", RulesCUDA: []string{"cufft"}},
	{Name: "curand", Title: "cuRAND", Static: []string{"libcurand_static.a"}, Shared: "libcurand.so",
		StaticDeps: []string{"culibos"}, System: staticSystem, Header: "curand.h", Includes: []string{"curand.h"}, Redist: "libcurand", Debian: "nvidia-cuda-dev", RulesCUDA: []string{"curand"}},
	{Name: "nvjitlink", Title: "nvJitLink", Static: []string{"libnvJitLink_static.a"}, Shared: "libnvJitLink.so",
		System: staticSystem, Header: "nvJitLink.h", Includes: []string{"nvJitLink.h"}, Redist: "libnvjitlink", Debian: "nvidia-cuda-dev", RulesCUDA: []string{"nvjitlink"}},
	{Name: "cusparse", Title: "cuSPARSE", Static: []string{"libcusparse_static.a"}, Shared: "libcusparse.so",
		Deps: []string{"nvjitlink"}, StaticDeps: []string{"culibos"}, System: staticSystem, Header: "cusparse.h", Includes: []string{"cusparse.h", "cusparse_v2.h"}, Redist: "libcusparse", Debian: "nvidia-cuda-dev", RulesCUDA: []string{"cusparse"}},
	{Name: "cusolver", Title: "cuSOLVER", Static: []string{"libcusolver_static.a", "libcusolver_lapack_static.a"}, Shared: "libcusolver.so",
		Deps: []string{"cublas", "cusparse"}, StaticDeps: []string{"culibos"}, System: staticSystem, Header: "cusolverDn.h", Includes: []string{"cusolverDn.h", "cusolverMg.h", "cusolverRf.h", "cusolverSp.h", "cusolver_common.h"}, Redist: "libcusolver", Debian: "nvidia-cuda-dev", RulesCUDA: []string{"cusolver"}},
	{Name: "nvptxcompiler", Title: "the PTX compiler library", Static: []string{"libnvptxcompiler_static.a"},
		System: staticSystem, Header: "nvPTXCompiler.h", Includes: []string{"nvPTXCompiler.h"}, Redist: "cuda_nvcc", Debian: "nvidia-cuda-dev", RulesCUDA: []string{"nvptxcompiler"}},
	{Name: "nvrtc", Title: "NVRTC", Static: []string{"libnvrtc_static.a", "libnvrtc-builtins_static.a"}, Shared: "libnvrtc.so",
		StaticDeps: []string{"nvptxcompiler"}, System: staticSystem, Header: "nvrtc.h", Includes: []string{"nvrtc.h"}, Redist: "cuda_nvrtc", Debian: "nvidia-cuda-dev", RulesCUDA: []string{"nvrtc"}},
	{Name: "cupti", Title: "CUPTI", Static: []string{"libcupti_static.a"}, Shared: "libcupti.so",
		System: staticSystem, Header: "cupti.h", Includes: []string{"cupti.h"}, Redist: "cuda_cupti", Debian: "libcupti-dev", RulesCUDA: []string{"cupti"}},
	{Name: "nvtx", Title: "NVTX (NVTX3, headers only)", Header: "nvtx3/nvToolsExt.h", Includes: []string{"nvtx3/", "nvToolsExt.h", "nvToolsExtCuda.h", "nvToolsExtCudaRt.h", "nvToolsExtSync.h"}, Redist: "cuda_nvtx", Debian: "nvidia-cuda-dev", RulesCUDA: []string{"nvtx"}},
	{Name: "cccl", Title: "CCCL (Thrust, CUB and libcu++, headers only)", Header: "thrust/version.h", Includes: []string{"thrust/", "cub/", "cuda/", "nv/"}, Redist: "cuda_cccl", Debian: "libthrust-dev, libcub-dev and libcu++-dev", RulesCUDA: []string{"cccl", "thrust", "cub", "libcudacxx"}},
}

// All returns the table, in order: a library comes after the libraries it needs.
func All() []Library { return slices.Clone(table) }

// ForInclude returns the library that an #include of path (as written) means using: one whose
// Includes name it, or a directory above it.
func ForInclude(path string) (Library, bool) {
	for _, l := range table {
		for _, inc := range l.Includes {
			if inc == path || strings.HasSuffix(inc, "/") && strings.HasPrefix(path, inc) {
				return l, true
			}
		}
	}
	return Library{}, false
}

// FromRulesCUDA returns the library that rules_cuda's toolkit target NAME (@local_cuda//:NAME) is.
func FromRulesCUDA(name string) (Library, bool) {
	i := slices.IndexFunc(table, func(l Library) bool { return slices.Contains(l.RulesCUDA, name) })
	if i < 0 {
		return Library{}, false
	}
	return table[i], true
}

// Lookup returns the library named name.
func Lookup(name string) (Library, bool) {
	i := slices.IndexFunc(table, func(l Library) bool { return l.Name == name })
	if i < 0 {
		return Library{}, false
	}
	return table[i], true
}

// Part is what of a library a build wants: its static archives, its shared library, or (a
// library that is headers only) its headers.
type Part int

// The parts of a library.
const (
	Static Part = iota
	Shared
	Headers
)

// Missing is the message for a library that the CUDA toolkit lacks, with {label} (the target),
// {toolkit} (where the toolkit is), {what} (What) and {fix} (Fix) for the rule to fill in.
const Missing = "{label}: the CUDA toolkit ({toolkit}) has no {what}; {fix}"

// What names part of l, with its files, for Missing.
func (l Library) What(part Part) string {
	switch part {
	case Static:
		return fmt.Sprintf("%s static library (%s)", l.Title, strings.Join(l.Static, ", "))
	case Shared:
		return fmt.Sprintf("%s shared library (%s)", l.Title, l.Shared)
	}
	return fmt.Sprintf("%s headers (%s)", l.Title, l.Header)
}

// Fix says, for Missing, where part of l comes from, and for a library that has both the other kind
// of library, by the build setting that chooses it.
func (l Library) Fix(part Part) string {
	fix := fmt.Sprintf("install Debian's or Ubuntu's %s, or add NVIDIA's %s archive to cuda.archive(archives = ...)", l.Debian, l.Redist)
	switch {
	case part == Static && l.Shared != "":
		fix += ", or link the shared library: --@rules_gpu//gpu:toolkit_libraries=shared"
	case part == Shared && len(l.Static) > 0:
		fix += ", or link the static library: --@rules_gpu//gpu:toolkit_libraries=static"
	}
	return fix
}
