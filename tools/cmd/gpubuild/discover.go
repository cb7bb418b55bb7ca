package main

import (
	"context"
	"fmt"

	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
	"github.com/rulesgpu/rules_gpu/tools/internal/toolfind"
)

// cudaTool are the tools that come with the CUDA toolkit; the others come with LLVM.
var cudaTool = map[string]bool{"ptxas": true, "libdevice": true, "nvcc": true, "nvlink": true}

// machine is the builder's Discovery by hand: the CUDA toolkit and LLVM of this machine.
type machine struct{}

// PtxasVersion is the CUDA version that ptxas --version reports.
func (machine) PtxasVersion(ctx context.Context, ptxas string) (string, error) {
	return toolfind.PtxasVersion(ctx, ptxas)
}

// Tools completes the tools that t does not name with those found on the machine, as the
// toolchains' local discovery finds them (tools/internal/toolfind), and sets Missing to say where
// it looked and which flag or variable provides a missing tool. Verbs run by hand use it (compile,
// host); Bazel actions pass their tools, and nothing is looked for.
func (machine) Tools(t compile.Tools) compile.Tools {
	var m toolfind.Machine
	cuda := m.FindCUDA(t.Ptxas)
	explicitPtxas := t.Ptxas != ""
	if t.Ptxas == "" {
		t.Ptxas = cuda.Ptxas
	}
	if t.Libdevice == "" {
		t.Libdevice = cuda.Libdevice
	}
	if t.CUDAPath == "" {
		t.CUDAPath = cuda.CUDAPath
	}
	if t.NVCC == "" {
		t.NVCC = cuda.NVCC
	}
	if t.NVLink == "" {
		t.NVLink = cuda.NVLink
	}
	llvm := m.FindLLVM()
	for _, tool := range []struct {
		name string
		path *string
	}{{"llc", &t.Llc}, {"opt", &t.Opt}, {"llvm-link", &t.LLVMLink}, {"clang", &t.Clang}, {"mlir-opt", &t.MLIROpt}, {"mlir-translate", &t.MLIRTranslate}} {
		if *tool.path == "" {
			*tool.path = llvm.Tool(tool.name)
		}
	}
	t.Missing = func(tool, path string) string {
		switch {
		case path != "":
			return fmt.Sprintf("%s: %s not found (--%s names it); give the path of an existing %s", tool, path, tool, tool)
		case cudaTool[tool] && cuda.EnvError() != "":
			return fmt.Sprintf("no %s: %s; or pass --%s PATH", tool, cuda.EnvError(), tool)
		case !cudaTool[tool] && llvm.EnvError() != "":
			return fmt.Sprintf("no %s: %s; or pass --%s PATH", tool, llvm.EnvError(), tool)
		case tool == "ptxas":
			return fmt.Sprintf("no ptxas found (looked in %s); install the CUDA toolkit, set CUDA_PATH to its root, or pass --ptxas PATH", cuda.Where())
		case tool == "libdevice" && (cuda.Ptxas != "" || explicitPtxas):
			return "no libdevice.10.bc found (looked in the toolkit's nvvm/libdevice and /usr/lib/nvidia-cuda-toolkit/libdevice); pass --libdevice PATH"
		case tool == "libdevice":
			return fmt.Sprintf("no libdevice.10.bc found: no CUDA toolkit found (looked for ptxas in %s); install it, set CUDA_PATH to its root, or pass --libdevice PATH", cuda.Where())
		case llvm.Bin == "":
			return fmt.Sprintf("no %s found (looked for a directory holding llc and mlir-opt in %s); install LLVM with MLIR (e.g. Debian's llvm-21, clang-21 and mlir-21-tools), set LLVM_PATH to its root, or pass --%s PATH", tool, llvm.Where(), tool)
		default:
			return fmt.Sprintf("no %s in %s, the LLVM found (it holds llc and mlir-opt); install it there, or pass --%s PATH", tool, llvm.Bin, tool)
		}
	}
	return t
}
