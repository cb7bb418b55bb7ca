// The Go package that gpu_go_library generates carries the fatbin that gpu_module built, byte for
// byte, and says what it holds.
package embed_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rulesgpu/rules_gpu/examples/saxpy/saxpy_gpu"
	"github.com/rulesgpu/rules_gpu/tools/fatbin"
)

func TestEmbeddedFatbin(t *testing.T) {
	path := filepath.Join(os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"), os.Getenv("ARTIFACT"))
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if saxpy_gpu.Artifact != string(want) {
		t.Fatalf("the embedded artifact (%d bytes) is not %s (%d bytes)", len(saxpy_gpu.Artifact), path, len(want))
	}
	f, err := fatbin.Read([]byte(saxpy_gpu.Artifact))
	if err != nil {
		t.Fatalf("the embedded artifact is not a fatbin: %v", err)
	}
	if len(f.Entries) != 3 {
		t.Errorf("the embedded fatbin has %d entries, want 3 (two cubins and PTX)", len(f.Entries))
	}
	if got := saxpy_gpu.Kernels(); !slices.Equal(got, []string{"saxpy"}) {
		t.Errorf("Kernels() = %q", got)
	}
	if got := saxpy_gpu.Chips(); !slices.Equal(got, []string{"sm_80", "sm_90"}) {
		t.Errorf("Chips() = %q", got)
	}
	if saxpy_gpu.Label != "//examples/saxpy:saxpy_mlir" || saxpy_gpu.Format != "fatbin" {
		t.Errorf("Label %q, Format %q", saxpy_gpu.Label, saxpy_gpu.Format)
	}
}
