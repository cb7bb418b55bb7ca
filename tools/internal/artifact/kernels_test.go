package artifact

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// twoKernels has two kernels and a device function, which is not a kernel.
const twoKernels = `.version 7.0
.target sm_80
.address_size 64

.func (.reg .f32 %r) twice(.reg .f32 %a)
{
	add.f32 %r, %a, %a;
	ret;
}

.visible .entry scale(.param .u64 p)
{
	ret;
}

.entry zero(
	.param .u64 p
)
{
	ret;
}
`

func TestKernels(t *testing.T) {
	// CUDA 13.0 nvcc's cubins (e_version 1).
	for _, file := range []string{"testdata/cuda13_sm90.cubin", "testdata/cuda13_sm90a.cubin"} {
		a, err := Open(file)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := a.Kernels(); err != nil || !slices.Equal(got, []string{"scale"}) {
			t.Errorf("%s: Kernels() = %q, %v; want [scale]", file, got, err)
		}
	}

	ptx, err := Parse([]byte(twoKernels))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ptx.Kernels(); err != nil || !slices.Equal(got, []string{"scale", "zero"}) {
		t.Errorf("PTX: Kernels() = %q, %v; want [scale zero]", got, err)
	}

	// The local toolkit's cubin (CUDA 12 writes its ELF ABI version, 124, into e_version), and a
	// fatbin of it and the PTX, compressed: the kernels once each.
	ptxas := testtool.Find(t, "PTXAS", "ptxas")
	dir := t.TempDir()
	src, cubin := filepath.Join(dir, "k.ptx"), filepath.Join(dir, "k.cubin")
	if err := os.WriteFile(src, []byte(twoKernels), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(ptxas, "-arch=sm_80", "-o", cubin, src).CombinedOutput(); err != nil {
		t.Fatalf("ptxas: %v\n%s", err, out)
	}
	elf, err := ReadImage(cubin, 0)
	if err != nil {
		t.Fatal(err)
	}
	data, err := Link([]fatbin.Entry{elf, ptx.Images[0]}, LinkOptions{Compression: fatbin.CompressionLZ4, CompressAll: true})
	if err != nil {
		t.Fatal(err)
	}
	fb, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := fb.Kernels(); err != nil || !slices.Equal(got, []string{"scale", "zero"}) {
		t.Errorf("fatbin: Kernels() = %q, %v; want [scale zero]", got, err)
	}
}
