package artifact

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// mlirEscape writes b as MLIR prints string attributes (llvm::printEscapedString): a backslash
// doubled, printable ASCII other than '"' as is, every other byte as \XX.
func mlirEscape(b []byte) string {
	const hex = "0123456789ABCDEF"
	var s strings.Builder
	for _, c := range b {
		switch {
		case c == '\\':
			s.WriteString(`\\`)
		case c >= 0x20 && c < 0x7f && c != '"':
			s.WriteByte(c)
		default:
			s.WriteByte('\\')
			s.WriteByte(hex[c>>4])
			s.WriteByte(hex[c&15])
		}
	}
	return s.String()
}

// Parse reads MLIR's serialised output as the images its objects hold, in text order.
func TestParseMLIR(t *testing.T) {
	cubin80, cubin90 := fakeCubin(7, 0x500550, 256), fakeCubin(7, 0x5a055a, 216)
	fat, err := fatbin.Marshal([]fatbin.Entry{
		{Kind: fatbin.KindELF, Arch: 75, Major: 1, Minor: 7, Payload: fakeCubin(7, 0x4b054b, 208)},
		{Kind: fatbin.KindPTX, Arch: 75, Major: 7, Minor: 0, Payload: []byte(".version 7.0\n.target sm_75\n"), Compression: fatbin.CompressionLZ4},
	}, fatbin.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	object := func(target, keyword string, data []byte) string {
		return "#gpu.object<#nvvm.target<" + target + ">, properties = {O = 3 : i32}, " + keyword + `"` + mlirEscape(data) + `">`
	}
	text := "// serialised by mlir-opt\nmodule attributes {gpu.container_module} {\n" +
		"  gpu.binary @a [" + object(`chip = "sm_80"`, "bin = ", cubin80) + ", " + object(`chip = "sm_90"`, "bin = ", cubin90) + "]\n" +
		"  gpu.binary @b [" + object(`chip = "sm_80"`, "assembly = ", []byte(samplePTX)) + "]\n" +
		"  gpu.binary @c [" + object(`chip = "sm_75"`, "", fat) + "]\n" +
		"}\n"
	a, err := Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if a.Format != FormatMLIR {
		t.Errorf("format %s, want mlir", a.Format)
	}
	var got []string
	for _, e := range a.Images {
		got = append(got, e.Kind.String()+" "+e.ArchName())
	}
	if want := []string{"elf sm_80", "elf sm_90", "ptx sm_80", "elf sm_75", "ptx sm_75"}; !reflect.DeepEqual(got, want) {
		t.Errorf("images %q, want %q", got, want)
	}
	if !bytes.Equal(a.Images[0].Payload, cubin80) || string(a.Images[2].Payload) != samplePTX {
		t.Errorf("payloads differ from the objects' bytes")
	}

	for _, tc := range []struct{ name, text, want string }{
		{"no gpu.binary", "module {\n  gpu.module @k {\n  }\n}\n", "without gpu.binary ops"},
		{"offload", "gpu.binary @k [" + object("", "offload = ", []byte("BC\xc0\xde")) + "]", "line 1: gpu.binary @k object 0 (offload, sm_50): it holds LLVM bitcode"},
		{"rocdl", `gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx90a">, bin = "x">]`, "is not a CUDA (#nvvm.target) target"},
		{"bad cubin", "module {\n\n  gpu.binary @k [" + object(`chip = "sm_80"`, "bin = ", []byte("\x7fELF")) + "]\n}", "line 3: gpu.binary @k object 0 (bin, sm_80): cubin: 4 bytes: shorter than an ELF header (64 bytes): the file is damaged"},
		{"bad ptx", "gpu.binary @k [" + object(`chip = "sm_80"`, "assembly = ", []byte("hello")) + "]", "(isa, sm_80): no .version"},
		{"bad fatbin", "gpu.binary @k [" + object(`chip = "sm_80"`, "", []byte("P\xed\x55\xba\x01")) + "]", "(fatbin, sm_80)"},
		{"bad escape", "module {\n  gpu.binary @k [#gpu.object<#nvvm.target, bin = \"\\x\">]\n}", "line 2: unknown escape"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// Parse never panics, whatever the text. (mlir's FuzzGPUObjects fuzzes the reader itself.)
func FuzzParseMLIR(f *testing.F) {
	f.Add(`gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_80">, bin = "\7FELF">]`)
	f.Add(`"gpu.binary"() <{objects = [#gpu.object<#t, "x">], sym_name = "g"}> : () -> ()`)
	f.Add("#t = #nvvm.target\ngpu.binary @\"q\" <#gpu.select_object<0>> [#gpu.object<#t, properties = {a = [1, \"\\22\"]}, assembly = \"\\0A\">]")
	f.Add("module { gpu.binary @k [#gpu.object<#nvvm.target, fatbin = \"P\\ED\">] }")
	f.Fuzz(func(t *testing.T, text string) {
		_, _ = Parse([]byte(text))
	})
}

// MLIR's own serialisation, read back: mlir-opt-21's gpu-module-to-binary output for two chips in
// every format gives the images it should, and the cubins are byte for byte what ptxas makes of the
// PTX objects (with the options MLIR passes: -arch sm_XX --opt-level 3), so no byte is decoded wrong.
func TestMLIROptGPUBinary(t *testing.T) {
	look := func(env, name string) string { return testtool.Find(t, env, name) }
	mlirOpt, ptxas, fatbinary := testtool.LLVM(t, "mlir-opt"), look("PTXAS", "ptxas"), look("FATBINARY", "fatbinary")
	dir := t.TempDir()
	// A toolkit directory for gpu-module-to-binary's toolkit= option: MLIR runs <toolkit>/bin/ptxas
	// and <toolkit>/bin/fatbinary (and links <toolkit>/nvvm/libdevice/libdevice.10.bc, not needed here).
	tk := filepath.Join(dir, "cuda")
	if err := os.MkdirAll(filepath.Join(tk, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]string{"ptxas": ptxas, "fatbinary": fatbinary} {
		if err := os.Symlink(p, filepath.Join(tk, "bin", name)); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(dir, "scale.mlir")
	const kernel = `module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80">, #nvvm.target<O = 3, chip = "sm_90">] {
    gpu.func @scale(%n: i32, %a: f32, %x: !llvm.ptr<1>) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %bd = arith.muli %b, %d : index
      %i = arith.addi %bd, %t : index
      %i32 = arith.index_cast %i : index to i32
      %in = arith.cmpi slt, %i32, %n : i32
      scf.if %in {
        %p = llvm.getelementptr %x[%i32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %v = llvm.load %p : !llvm.ptr<1> -> f32
        %r = arith.mulf %a, %v : f32
        llvm.store %r, %p : f32, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}
`
	if err := os.WriteFile(src, []byte(kernel), 0o644); err != nil {
		t.Fatal(err)
	}
	serialise := func(format string) *Artifact {
		t.Helper()
		out := filepath.Join(dir, format+".mlir")
		pipeline := "builtin.module(gpu.module(strip-debuginfo,convert-scf-to-cf,convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts)," +
			"gpu-module-to-binary{format=" + format + " toolkit=" + tk + "})"
		if b, err := exec.Command(mlirOpt, "--pass-pipeline="+pipeline, src, "-o", out).CombinedOutput(); err != nil {
			t.Fatalf("mlir-opt: %v\n%s", err, b)
		}
		a, err := Open(out)
		if err != nil {
			t.Fatal(err)
		}
		if a.Format != FormatMLIR {
			t.Errorf("%s: format %s, want mlir", out, a.Format)
		}
		return a
	}
	kinds := func(a *Artifact) (s []string) {
		for _, e := range a.Images {
			s = append(s, e.Kind.String()+" "+e.ArchName())
		}
		return s
	}
	isa, bin, fat := serialise("isa"), serialise("bin"), serialise("fatbin")
	for _, c := range []struct {
		a    *Artifact
		want []string
	}{
		{isa, []string{"ptx sm_80", "ptx sm_90"}},
		{bin, []string{"elf sm_80", "elf sm_90"}},
		{fat, []string{"elf sm_80", "ptx sm_80", "elf sm_90", "ptx sm_90"}},
	} {
		if got := kinds(c.a); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: images %q, want %q", c.a.Path, got, c.want)
		}
	}
	if t.Failed() {
		return
	}
	for i, ptx := range isa.Images {
		if !bytes.Contains(ptx.Payload, []byte(".entry scale(")) {
			t.Errorf("%s PTX has no .entry scale", ptx.ArchName())
		}
		p := filepath.Join(dir, ptx.ArchName()+".ptx")
		if err := os.WriteFile(p, ptx.Payload, 0o644); err != nil {
			t.Fatal(err)
		}
		cubin := filepath.Join(dir, ptx.ArchName()+".cubin")
		if b, err := exec.Command(ptxas, "-arch", ptx.ArchName(), p, "-o", cubin, "--opt-level", "3").CombinedOutput(); err != nil {
			t.Fatalf("ptxas: %v\n%s", err, b)
		}
		want, err := os.ReadFile(cubin)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(bin.Images[i].Payload, want) {
			t.Errorf("%s: the bin object (%d bytes) is not ptxas's cubin of the isa object (%d bytes)", ptx.ArchName(), len(bin.Images[i].Payload), len(want))
		}
		fatELF := fat.Images[2*i].Payload
		if n := elfSize(fatELF); n > 0 && n <= uint64(len(fatELF)) {
			fatELF = fatELF[:n]
		}
		if !bytes.Equal(fatELF, want) {
			t.Errorf("%s: the fatbin's cubin is not ptxas's cubin of the isa object", ptx.ArchName())
		}
	}
}
