//go:build cuda

package mlirrt

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// TestTensorMapEncode makes a TMA descriptor of device memory as a lowered program does and checks
// that the driver's refusal of another is reported with its arguments (exit status 1). On a GPU
// only: the driver encodes tensor maps for sm_90 and newer.
func TestTensorMapEncode(t *testing.T) {
	// The wrappers push and pop the context on the calling thread, which a C caller keeps; a Go
	// caller must stay on one thread itself.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// An 8x16 f32 memref in device memory and a box; the box sizes as the lowering passes them,
	// outermost first.
	encode := func(box0, box1 uint64) unsafe.Pointer {
		dev := mgpuMemAlloc(8*16*4, nil, 0)
		desc := words(addr(dev), addr(dev), 0, 8, 16, 16, 1)
		return mgpuTensorMapEncodeTiledMemref(2, desc, 7 /* FLOAT32 */, 0, 0, 0, 0, int64sAt(words(box0, box1)))
	}
	if os.Getenv("MLIRRT_CHILD") == "TestTensorMapEncode" {
		encode(4, 3) // 3 f32 = 12 bytes: not a multiple of 16
		os.Exit(3)
	}
	requireGPU(t)
	if g := describeGPU(0); g.Major < 9 {
		t.Skipf("%s (%s) has no TMA", g.Name, g.Chip())
	}
	mgpuSetDefaultDevice(0)
	if p := encode(4, 8); p == nil {
		t.Fatal("mgpuTensorMapEncodeTiledMemref returned a null descriptor")
	}

	_, stderr, err := child(t, "TestTensorMapEncode")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("the program ended with %v, want exit status 1\n%s", err, stderr)
	}
	for _, want := range []string{
		"mlirrt: mgpuTensorMapEncodeTiledMemref: cuTensorMapEncodeTiled(FLOAT32, rank 2, address 0x",
		"globalDim [16 8], globalStrides [64] bytes, boxDim [3 4], elementStrides [1 1], interleave NONE",
		"from the memref's sizes [8 16], strides [16 1] and box [4 3]",
		"boxDim[0] * 4 bytes = 12 bytes is not a multiple of 16",
		"failed with CUDA_ERROR_INVALID_VALUE",
	} {
		if !strings.Contains(string(stderr), want) {
			t.Errorf("the report lacks %q:\n%s", want, stderr)
		}
	}
}
