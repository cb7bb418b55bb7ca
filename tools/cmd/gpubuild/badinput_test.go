package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Bad input on the command line (docs/errors.md): one error that names what is wrong and the fix,
// exit status 1, and the inputs untouched, no output left.
func TestBadInput(t *testing.T) {
	fakeMachine(t)
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ptx := write("k.ptx", fakePTX)
	cu := write("k.cu", "__global__ void k() {}\n")
	ll := write("k.ll", "define void @k() { ret void }\n")
	cubin := write("k.cubin", "not a cubin")
	link := filepath.Join(dir, "link.ptx") // another path to k.ptx
	if err := os.Symlink(ptx, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string // the whole of stderr
	}{
		{"compile -o the source", []string{"compile", "--chip", "sm_90", "-o", ptx, ptx},
			"gpubuild compile: -o " + ptx + " is also an input (" + ptx + "): the output would replace it before or while it is read; write the output to another file\n"},
		{"compile -o a link to the source", []string{"compile", "--target", "//t:k", "--chip", "sm_90", "-o", link, ptx},
			"gpubuild compile: //t:k: -o " + link + " is also an input (" + ptx + "): the output would replace it before or while it is read; write the output to another file\n"},
		{"compile -o one of the LLVM IR sources", []string{"compile", "--chip", "sm_90", "--format", "isa", "-o", ll, ll, ll + "x"},
			"gpubuild compile: -o " + ll + " is also an input (" + ll + "): the output would replace it before or while it is read; write the output to another file\n"},
		{"link -o an image", []string{"link", "-o", cubin, "sm_90=" + cubin},
			"gpubuild link: -o " + cubin + " is also an input (" + cubin + "): the output would replace it before or while it is read; write the output to another file\n"},
		{"dlink -o a cubin", []string{"dlink", "--chip", "sm_90", "-o", cubin, cubin},
			"gpubuild dlink: -o " + cubin + " is also an input (" + cubin + "): the output would replace it before or while it is read; write the output to another file\n"},
		{"--ptx newer than the table", []string{"compile", "--chip", "sm_80", "--format", "isa", "--ptx", "99.0", "-o", filepath.Join(dir, "o.ptx"), cu},
			"gpubuild compile: --ptx 99.0: PTX ISA 99.0 for sm_80: CUDA 12.4 emits at most PTX ISA 8.4 (and the chip table knows no PTX ISA newer than 9.1); sm_80 accepts PTX ISA 7.0 to 8.4 with CUDA 12.4: give one of them, or leave --ptx out (the chip's lowest)\n"},
		{"--ptx below the chip's lowest", []string{"compile", "--chip", "sm_80", "--format", "isa", "--ptx", "6.0", "-o", filepath.Join(dir, "o.ptx"), cu},
			"gpubuild compile: --ptx 6.0: PTX ISA 6.0 for sm_80 with CUDA 12.4: sm_80 needs PTX ISA 7.0 or newer; sm_80 accepts PTX ISA 7.0 to 8.4 with CUDA 12.4: give one of them, or leave --ptx out (the chip's lowest)\n"},
		{"--ptx that never was", []string{"compile", "--target", "//t:k", "--toolkit", "12.4", "--chip", "sm_90", "--format", "isa", "--ptx", "7.9", "-o", filepath.Join(dir, "o.ptx"), cu},
			"gpubuild compile: //t:k: --ptx 7.9: PTX ISA 7.9 for sm_90 with CUDA 12.4: there is no PTX ISA version 7.9; sm_90 accepts PTX ISA 7.8 to 8.4 with CUDA 12.4: give one of them, or leave --ptx out (the chip's lowest)\n"},
		{"--ptx without a toolkit", []string{"compile", "--target", "//t:k", "--chip", "sm_90", "--format", "isa", "--ptx", "7.0", "-o", filepath.Join(dir, "o.ptx"), cu},
			"gpubuild compile: //t:k: --ptx 7.0: PTX ISA 7.0 for sm_90: sm_90 needs PTX ISA 7.8 or newer; sm_90 accepts PTX ISA 7.8 to 9.1 with the chip table's PTX ISA versions: give one of them, or leave --ptx out (the chip's lowest)\n"},
		{"check --runs-on a chip twice", []string{"check", "--runs-on", "sm_90, sm_90", cubin},
			"gpubuild check: chip sm_90 is listed twice in --runs-on: name each chip once\n"},
		{"check --driver the table does not know", []string{"check", "--runs-on", "sm_90", "--driver", "99.0", cubin},
			"gpubuild check: --driver 99.0: no driver reports CUDA 99.0 in the chip table, which knows drivers of CUDA 1.0 to 13.1 (nvidia-smi's \"CUDA Version\"; docs/chips.md); give one of them, or, for a newer driver, add its CUDA release to tools/chip/table.go\n"},
		{"check --runs-on a target", []string{"check", "--runs-on", "sm_90a", cubin},
			"gpubuild check: --runs-on: runner sm_90a is a target, not a GPU: a runner is a GPU, named by its compute capability (sm_90); code for sm_90a runs on sm_90 GPUs\n"},
		{"compile --chips with an empty entry", []string{"compile", "--chips", "sm_80,,sm_90", "--format", "isa", "--toolkit", "12.4", "-o", filepath.Join(dir, "d"), write("k.mlir", "gpu.module @k {}\n")},
			"gpubuild compile: --chips \"sm_80,,sm_90\": an empty chip name; write chips like sm_80,sm_90\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := entries(t, dir)
			code, _, stderr := gpubuild(t, tc.args...)
			if code != 1 || stderr != tc.want {
				t.Errorf("exit %d, stderr:\n%s\nwant 1 and\n%s", code, stderr, tc.want)
			}
			if after := entries(t, dir); !slices.Equal(before, after) {
				t.Errorf("files before %v, after %v", before, after)
			}
			if got, _ := os.ReadFile(ptx); string(got) != fakePTX {
				t.Errorf("the source now holds %q", got)
			}
		})
	}
}

// A source whose name starts with "-" (after "--") reaches the tools as ./-NAME, never as an option.
func TestSourceNamedLikeAnOption(t *testing.T) {
	cudaBin, _ := fakeMachine(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "-x.ptx"), []byte(fakePTX), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	gpubuild(t, "compile", "--chip", "sm_90", "-o", "k.cubin", "--", "-x.ptx") // the fake ptxas writes no cubin
	args := toolArgs(t, cudaBin, "ptxas")
	if !slices.Contains(args, "./-x.ptx") || slices.Contains(args, "-x.ptx") {
		t.Errorf("ptxas ran with %s; want ./-x.ptx", strings.Join(args, " "))
	}
}
