package host

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (regenerate: go test ./tools/internal/host -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output:\n%s\n(regenerate: go test ./tools/internal/host -update)", path, got)
	}
}

// ptxFatbin is a small real fatbin: one PTX image, uncompressed.
func ptxFatbin(t *testing.T) []byte {
	t.Helper()
	ptx := filepath.Join(t.TempDir(), "k.ptx")
	if err := os.WriteFile(ptx, []byte(".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := artifact.ReadImage(ptx, 0)
	if err != nil {
		t.Fatal(err)
	}
	data, err := artifact.Link([]fatbin.Entry{img}, artifact.LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The registration is deterministic: its functions sorted by module id, whatever the order given.
func TestRegistration(t *testing.T) {
	var b bytes.Buffer
	data := []byte("\x50\xed\x55\xba\x01\x00\x10\x00 sixteen+ bytes of fake fatbin\x00\xff")
	if err := Registration(&b, "//examples/rdc:twice", data, []string{"__nv_f8f599332daf4cdc", "__nv_43d3e8b36add2b0d", "__nv_5bf44381849026b"}); err != nil {
		t.Fatal(err)
	}
	golden(t, "registration.c.golden", b.Bytes())
}

// Module ids that cannot name a C function, or that come twice, are refused.
func TestRegistrationRefused(t *testing.T) {
	for _, tc := range []struct {
		ids  []string
		want string
	}{
		{[]string{"__nv_1", "__nv_1"}, "module id __nv_1 twice"},
		{[]string{"__nv_1", "a-b"}, `module id "a-b" cannot be part of a C function name`},
		{[]string{""}, `module id "" cannot be part of a C function name`},
	} {
		if err := Registration(&bytes.Buffer{}, "//t:k", nil, tc.ids); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.ids, err, tc.want)
		}
	}
}

// Register refuses a fatbin that is not one, an object that is not ELF, and an ELF object that
// calls no registration (here the test's own executable).
func TestRegisterRefused(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(t.TempDir(), "k.o")
	if err := os.WriteFile(text, []byte("not an object"), 0o644); err != nil {
		t.Fatal(err)
	}
	fb := ptxFatbin(t)
	for _, tc := range []struct {
		name    string
		fatbin  []byte
		objects []string
		want    string
	}{
		{"not a fatbin", []byte("\x7fELF not a fatbin"), []string{self}, "the device code is not a fatbin (give the fatbin that gpubuild link made"},
		{"no objects", fb, nil, "no host objects to register"},
		{"not ELF", fb, []string{text}, text + ": not an ELF object file"},
		{"not RDC", fb, []string{self}, self + " was not compiled with relocatable device code (gpubuild host --rdc): it calls no __cudaRegisterLinkedBinary<ID> function"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			err := Register(&b, "//t:k", tc.fatbin, tc.objects)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
