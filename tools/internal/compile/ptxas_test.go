package compile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

const kernelPTX = `.version %s
.target %s
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b64 %%rd<2>;
	ld.param.u64 %%rd1, [p];
	ret;
}
`

func writePTX(t *testing.T, version, target string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "k.ptx")
	if err := os.WriteFile(p, []byte(fmt.Sprintf(kernelPTX, version, target)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustChip(t *testing.T, s string) chip.Chip {
	c, err := chip.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Bad requests fail before ptxas runs, with an error naming the target, the file and the chip, and
// leave no output.
func TestCompileValidation(t *testing.T) {
	for _, tc := range []struct {
		name, version, target, chip, toolkit string
		want                                 string
	}{
		{"chip the toolkit dropped", "7.0", "sm_50", "sm_50", "13.0", "CUDA 13.0 cannot compile for sm_50"},
		{"chip newer than the toolkit", "7.0", "sm_75", "sm_100", "12.4", "CUDA 12.4 cannot compile for sm_100"},
		{"PTX ISA too low for its target", "6.0", "sm_90", "sm_90", "12.4", "sm_90 needs PTX ISA 7.8 or newer"},
		{"PTX ISA newer than the toolkit", "9.0", "sm_75", "sm_90", "12.4", "CUDA 12.4 emits at most PTX ISA 8.4"},
		{".target newer than the chip", "7.8", "sm_90", "sm_80", "12.4", "the PTX is written for sm_90 (.target), newer than sm_80"},
		{"virtual chip", "7.0", "sm_75", "compute_80", "12.4", "compute_80 is a virtual chip (PTX); name real chips, such as sm_80"},
		{"ptxas missing", "7.0", "sm_75", "sm_80", "12.4", "ptxas: /nonexistent/ptxas not found; the CUDA toolchain (@rules_gpu//toolchain:cuda_toolchain_type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := writePTX(t, tc.version, tc.target)
			out := filepath.Join(t.TempDir(), "k.cubin")
			tk, err := chip.ParseToolkit(tc.toolkit)
			if err != nil {
				t.Fatal(err)
			}
			err = Tools{Ptxas: "/nonexistent/ptxas"}.Compile(context.Background(), Job{
				Target: "//pkg:k", Src: src, Out: out, Format: FormatBin, Chip: mustChip(t, tc.chip), Toolkit: tk,
			})
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v, want a *compile.Error", err)
			}
			for _, want := range []string{"//pkg:k", src, tc.chip, tc.want} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("output left behind: %v", err)
			}
		})
	}
}

func findPtxas(t *testing.T) string { return testtool.Find(t, "PTXAS", "ptxas") }

// With the real ptxas: a good PTX becomes a cubin; a malformed one fails with ptxas's message and the
// exact command, and leaves nothing behind.
func TestCompileWithPtxas(t *testing.T) {
	ptxas := findPtxas(t)
	tools := Tools{Ptxas: ptxas}
	good := writePTX(t, "7.0", "sm_75")
	out := filepath.Join(t.TempDir(), "k.sm_80.cubin")
	if err := tools.Compile(context.Background(), Job{Target: "//pkg:k", Src: good, Out: out, Format: FormatBin, Chip: mustChip(t, "sm_80")}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.HasPrefix(string(b), "\x7fELF") {
		t.Fatalf("output is not an ELF cubin: %v", err)
	}

	bad := filepath.Join(t.TempDir(), "bad.ptx")
	os.WriteFile(bad, []byte(".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k() { bogus.instruction; }\n"), 0o644)
	out = filepath.Join(t.TempDir(), "bad.sm_80.cubin")
	err := tools.Compile(context.Background(), Job{Target: "//pkg:bad", Src: bad, Out: out, Format: FormatBin, Chip: mustChip(t, "sm_80")})
	if err == nil {
		t.Fatal("malformed PTX compiled")
	}
	for _, want := range []string{"//pkg:bad", bad, "sm_80", "ptxas exited with status", "command: " + ptxas + " -arch=sm_80", "bogus"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 0 {
		t.Errorf("files left behind: %v", entries)
	}
}
