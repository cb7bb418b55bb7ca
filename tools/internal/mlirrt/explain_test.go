package mlirrt

import (
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact/artifacttest"
)

// fakeCubin is a minimal cubin for sm_<arch> as CUDA 12 writes it (ELF ABI 7, the SM in the low
// and third bytes of e_flags): all that artifact reads to recognise one.
func fakeCubin(arch byte) []byte {
	return artifacttest.Cubin(7, uint32(arch)<<16|uint32(arch), artifacttest.MinCubinSize)
}

func fakePTX(version, target string) []byte {
	return []byte(".version " + version + "\n.target " + target + "\n.address_size 64\n")
}

func fakeFatbin(t *testing.T, images ...[]byte) []byte {
	t.Helper()
	var entries []fatbin.Entry
	for _, img := range images {
		a, err := artifact.Parse(img)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, a.Images...)
	}
	data, err := artifact.Link(entries, artifact.LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestLoadFailure(t *testing.T) {
	h200 := GPU{Ordinal: 0, Name: "NVIDIA H200", Major: 9, Minor: 0, Driver: 12080}
	noBinary := func(image []byte) LoadFailure {
		return LoadFailure{Call: "mgpuModuleLoad", Driver: "cuModuleLoadData", Result: "CUDA_ERROR_NO_BINARY_FOR_GPU",
			Detail: "no kernel image is available for execution on the device", Image: image, GPU: h200}
	}
	for _, c := range []struct {
		name string
		f    LoadFailure
		want []string
	}{
		{
			name: "a cubin for another chip",
			f:    noBinary(fakeCubin(80)),
			want: []string{
				"mgpuModuleLoad: cuModuleLoadData failed with CUDA_ERROR_NO_BINARY_FOR_GPU (no kernel image is available for execution on the device)\n",
				"\n  GPU 0: NVIDIA H200, sm_90 (compute capability 9.0), driver CUDA 12.8\n",
				"\n  the module: cubin of 208 bytes holding sm_80 cubin\n",
				"\n  why: ",
				"\n  fix: add sm_90 to the chips",
				"\n  with rules_gpu: add \"sm_90\" to the target's chips, or build it with format = \"fatbin\"",
			},
		},
		{
			name: "a fatbin without the GPU's chip",
			f:    noBinary(fakeFatbin(t, fakeCubin(80), fakeCubin(86))),
			want: []string{"holding sm_80 cubin, sm_86 cubin\n", "\n  fix: add sm_90 to the chips"},
		},
		{
			name: "PTX newer than the driver",
			f: LoadFailure{Call: "mgpuModuleLoadJIT", Driver: "cuModuleLoadDataEx", Result: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
				Log: "ptxas application ptx input, line 1; fatal   : Unsupported .version 9.0\nsecond line", Image: fakePTX("9.0", "sm_90"),
				GPU: GPU{Name: "NVIDIA H200", Major: 9, Driver: 12040}},
			want: []string{
				"mgpuModuleLoadJIT: cuModuleLoadDataEx failed with CUDA_ERROR_UNSUPPORTED_PTX_VERSION\n",
				"driver CUDA 12.4",
				"the module: ptx of 44 bytes holding compute_90 PTX (ISA 9.0)",
				"update the driver",
				"\n  JIT log:\n    ptxas application ptx input, line 1; fatal   : Unsupported .version 9.0\n    second line",
			},
		},
		{
			name: "an image the chip table expects to load",
			f:    LoadFailure{Call: "mgpuModuleLoad", Driver: "cuModuleLoadData", Result: "CUDA_ERROR_INVALID_IMAGE", Image: fakeCubin(90), GPU: h200},
			want: []string{"\n  the chip table expected it to load ("},
		},
		{
			name: "bytes that are no image",
			f:    LoadFailure{Call: "mgpuModuleLoad", Driver: "cuModuleLoadData", Result: "CUDA_ERROR_INVALID_IMAGE", Image: []byte("junk"), GPU: GPU{Name: "X", Major: 8}},
			want: []string{"GPU 0: X, sm_80 (compute capability 8.0)\n", "the module: 4 bytes that are not a fatbin, cubin or PTX: "},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := c.f.Error()
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message lacks %q:\n%s", w, msg)
				}
			}
			if hint := strings.Contains(msg, "with rules_gpu"); hint != (c.f.Result == "CUDA_ERROR_NO_BINARY_FOR_GPU") {
				t.Errorf("rules_gpu's fix shown: %v, want it for CUDA_ERROR_NO_BINARY_FOR_GPU alone:\n%s", hint, msg)
			}
			if c.f.GPU.Driver == 0 && strings.Contains(msg, "driver CUDA") {
				t.Errorf("message names a driver that is unknown:\n%s", msg)
			}
		})
	}
}
