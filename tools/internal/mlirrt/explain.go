package mlirrt

import (
	"fmt"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
)

// GPU describes the device that a module was loaded on.
type GPU struct {
	Ordinal int
	Name    string // "NVIDIA H200"
	// Major and Minor are its compute capability: 9.0 for sm_90.
	Major, Minor int
	// Driver is cuDriverGetVersion's answer: 12080 for CUDA 12.8; 0 if unknown.
	Driver int
}

// Chip is the GPU's real architecture: sm_90.
func (g GPU) Chip() chip.Chip { return chip.Chip{Major: g.Major, Minor: g.Minor} }

// LoadFailure is a module image that the CUDA driver refused.
type LoadFailure struct {
	Call   string // the wrapper: "mgpuModuleLoad" or "mgpuModuleLoadJIT"
	Driver string // the driver call: "cuModuleLoadData"
	Result string // the driver's name of the error: "CUDA_ERROR_NO_BINARY_FOR_GPU"
	Detail string // the driver's description of it (cuGetErrorString)
	Log    string // the JIT compiler's error log, for PTX
	Image  []byte // the fatbin, cubin or PTX that the program embeds
	GPU    GPU
}

// Error says what failed, what the image holds, which chip the GPU is, and, using the chip model
// that `gpubuild check` uses, why nothing in the image runs on it and how to rebuild.
func (f *LoadFailure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s failed with %s", f.Call, f.Driver, f.Result)
	if f.Detail != "" {
		fmt.Fprintf(&b, " (%s)", f.Detail)
	}
	g := f.GPU
	fmt.Fprintf(&b, "\n  GPU %d: %s, %s (compute capability %d.%d)", g.Ordinal, g.Name, g.Chip(), g.Major, g.Minor)
	runner := chip.Runner{Chip: g.Chip()}
	if g.Driver > 0 {
		runner.Driver = chip.Toolkit{Major: g.Driver / 1000, Minor: g.Driver % 1000 / 10}
		fmt.Fprintf(&b, ", driver CUDA %s", runner.Driver)
	}
	a, err := artifact.Parse(f.Image)
	if err != nil {
		fmt.Fprintf(&b, "\n  the module: %d bytes that are not a fatbin, cubin or PTX: %v", len(f.Image), err)
	} else {
		var imgs []string
		for _, img := range a.ChipImages() {
			imgs = append(imgs, img.String())
		}
		fmt.Fprintf(&b, "\n  the module: %s of %d bytes holding %s", a.Format, len(f.Image), strings.Join(imgs, ", "))
		v := artifact.Check(a, []chip.Runner{runner})[0]
		if v.Loads {
			fmt.Fprintf(&b, "\n  the chip table expected it to load (%s)", v.Reason)
		} else {
			fmt.Fprintf(&b, "\n  why: %s", v.Reason)
			if v.Fix != "" {
				fmt.Fprintf(&b, "\n  fix: %s", v.Fix)
			}
			if f.Result == "CUDA_ERROR_NO_BINARY_FOR_GPU" {
				fmt.Fprintf(&b, "\n  with rules_gpu: add %q to the target's chips, or build it with format = \"fatbin\" "+
					"(PTX of the lowest chip, which the driver JIT-compiles for newer ones) or \"jit\"", g.Chip().String())
			}
		}
	}
	if log := strings.TrimSpace(f.Log); log != "" {
		fmt.Fprintf(&b, "\n  JIT log:\n    %s", strings.ReplaceAll(log, "\n", "\n    "))
	}
	return b.String()
}
