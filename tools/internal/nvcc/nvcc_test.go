package nvcc

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`cicc -arch compute_80`, []string{"cicc", "-arch", "compute_80"}},
		{`"/usr/bin"/clang-21 -E  "x y.cu" `, []string{"/usr/bin/clang-21", "-E", "x y.cu"}},
		{`fatbinary --cicc-cmdline="-ftz=0 -fmad=1 " "--image3=kind=ptx,sm=80,file=a.ptx"`, []string{"fatbinary", "--cicc-cmdline=-ftz=0 -fmad=1 ", "--image3=kind=ptx,sm=80,file=a.ptx"}},
		{`a 'it''s' b\ c "q\"d" "\n"`, []string{"a", "its", "b c", `q"d`, `\n`}},
		{`a ""`, []string{"a", ""}},
	} {
		got, err := split(c.line)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("split(%q) = %q (%v), want %q", c.line, got, err, c.want)
		}
	}
	for _, bad := range []string{`a "b`, `a 'b`} {
		if _, err := split(bad); err == nil {
			t.Errorf("split(%q): no error", bad)
		}
	}
}

// A recorded nvcc 12.4 plan of nvcc -c: its assignments, its steps in order, the source's path given
// to cicc and cudafe++, the fatbinary step's C source, and a program found on the plan's PATH.
func TestParse(t *testing.T) {
	text, err := os.ReadFile("testdata/dryrun-c.txt")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse("nvcc warning : a message that is not a step\n" + string(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Env) != 6 || p.Env[1] != "_SPACE_= " || !strings.HasPrefix(p.Env[4], "PATH=/usr/lib/nvidia-cuda-toolkit/bin:") {
		t.Errorf("assignments %q", p.Env)
	}
	var tools []string
	for _, s := range p.Steps {
		tools = append(tools, s.Tool())
	}
	if want := []string{"clang-21", "cudafe++", "cicc", "fatbinary", "rm", "clang-21"}; !slices.Equal(tools, want) {
		t.Errorf("steps %q, want %q", tools, want)
	}
	if p.Steps[0][0] != "/usr/bin/clang-21" {
		t.Errorf("the first step's program is %q", p.Steps[0][0])
	}
	if got := EmbeddedFatbinPath(p.Steps[3]); got != "/tmp/t/tmpxft_00000036_00000000-3_x.fatbin.c" {
		t.Errorf("the fatbinary step's C source: %q", got)
	}
	if got := EmbeddedFatbinPath(p.Steps[2]); got != "" {
		t.Errorf("cicc's step writes an embedded fatbin: %q", got)
	}
	if !p.SetSourcePath("examples/_nv/x.cu") {
		t.Fatal("SetSourcePath changed no step")
	}
	for _, i := range []int{1, 2} {
		j := slices.Index(p.Steps[i], "--orig_src_path_name")
		if j < 0 || p.Steps[i][j+1] != "examples/_nv/x.cu" {
			t.Errorf("step %d: %q", i, p.Steps[i])
		}
	}
	if strings.Contains(strings.Join(p.Steps[0], " "), "examples/_nv/x.cu") {
		t.Error("SetSourcePath changed the host compiler's step")
	}

	for _, bad := range []string{"", "#$ PATH=/bin\n", "#$ cicc \"unclosed\n"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

// Command finds a program on the plan's PATH (its last), and leaves a path alone.
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	tool := filepath.Join(dir, "cicc")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Plan{Env: []string{"PATH=/nonexistent", "PATH=/nonexistent2:" + dir}}
	if got := p.Command(Step{"cicc", "-x"}); !slices.Equal(got, []string{tool, "-x"}) {
		t.Errorf("Command = %q", got)
	}
	if got := p.Command(Step{"./cicc"}); got[0] != "./cicc" {
		t.Errorf("Command of a path = %q", got)
	}
	if got := p.Command(Step{"nosuchtool"}); got[0] != "nosuchtool" {
		t.Errorf("Command of a program not on PATH = %q", got)
	}
}

// PreprocessorOptions turns -iquote and -idirafter into -I, joined or not, and keeps the rest.
func TestPreprocessorOptions(t *testing.T) {
	got := PreprocessorOptions([]string{"-iquote", "a", "-idirafterb", "-I", "c", "-DX=1", "-isystem", "d"})
	want := []string{"-I", "a", "-Ib", "-I", "c", "-DX=1", "-isystem", "d"}
	if !slices.Equal(got, want) {
		t.Errorf("PreprocessorOptions = %q, want %q", got, want)
	}
}

// The embedded fatbin compiles as C and C++ (with the toolkit's fatbinary_section.h), and the object
// carries the fatbin's bytes in .nv_fatbin; what is not a fatbin is refused.
func TestEmbeddedFatbin(t *testing.T) {
	clang := testtool.LLVM(t, "clang")
	cudaPath := testtool.Find(t, "CUDA_PATH", "/usr/lib/cuda")
	fb, err := fatbin.Marshal([]fatbin.Entry{{Kind: fatbin.KindPTX, Arch: 80, Major: 8, Minor: 4, Payload: []byte(".version 8.4\n.target sm_80\n.address_size 64\n")}}, fatbin.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := EmbeddedFatbin(&b, "//t:k", fb); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "k.fatbin.c")
	if err := os.WriteFile(src, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"c", "c++"} {
		obj := filepath.Join(dir, "k."+lang+".o")
		cmd := exec.CommandContext(context.Background(), clang, "-x", lang, "-c", "-Wall", "-Werror", "-I", filepath.Join(cudaPath, "include"), "-o", obj, src)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", lang, err, out)
		}
		data, _ := os.ReadFile(obj)
		if !bytes.Contains(data, fb) {
			t.Errorf("%s: the object does not carry the fatbin", lang)
		}
	}
	if err := EmbeddedFatbin(&b, "//t:k", []byte("not a fatbin")); err == nil {
		t.Error("EmbeddedFatbin of what is not a fatbin: no error")
	}
}

func TestArchListOptions(t *testing.T) {
	for _, tc := range []struct {
		chips string
		want  []string
	}{
		{"", nil},
		{"sm_90", []string{"-U__CUDA_ARCH_LIST__", "-D__CUDA_ARCH_LIST__=900"}},
		{"sm_90,sm_80,sm_75", []string{"-U__CUDA_ARCH_LIST__", `-D__CUDA_ARCH_LIST__=750\,800\,900`}},
		{"sm_90a,sm_90,sm_100", []string{"-U__CUDA_ARCH_LIST__", `-D__CUDA_ARCH_LIST__=900\,1000`}},
	} {
		var chips []chip.Chip
		if tc.chips != "" {
			var err error
			if chips, err = chip.ParseList(tc.chips, "chips"); err != nil {
				t.Fatal(err)
			}
		}
		if got := ArchListOptions(chips); !slices.Equal(got, tc.want) {
			t.Errorf("ArchListOptions(%s) = %q, want %q", tc.chips, got, tc.want)
		}
	}
}
