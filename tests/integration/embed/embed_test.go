package embed_test

import (
	"slices"
	"strings"
	"testing"

	"example.com/scenario/saxpy_go"
)

func TestEmbedded(t *testing.T) {
	if !strings.HasPrefix(saxpy_go.Artifact, "\x50\xed\x55\xba") {
		t.Errorf("the embedded artifact (%d bytes) does not start with the fatbin magic", len(saxpy_go.Artifact))
	}
	if got := saxpy_go.Kernels(); !slices.Equal(got, []string{"saxpy"}) {
		t.Errorf("Kernels() = %q", got)
	}
	if saxpy_go.Label != "//:saxpy" {
		t.Errorf("Label = %q", saxpy_go.Label)
	}
}
