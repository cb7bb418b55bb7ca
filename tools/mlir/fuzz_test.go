package mlir

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzAttach checks that Modules and Attach never panic, that they agree on what they can read,
// that their errors are *SyntaxErrors with a position inside the text, and that any output of
// Attach reads back with the same modules, is the input plus inserted targets, and does not change
// when attached to again. The gpu.binary reader, GPUObjects, runs on every input too: it never
// panics, and its errors wrap *SyntaxErrors inside the text.
func FuzzAttach(f *testing.F) {
	inputs, _ := filepath.Glob("testdata/*.mlir")
	for _, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, "", uint8(0))
		f.Add(src, "_b$|k 1", uint8(3))
	}
	for _, tc := range smallCases {
		f.Add([]byte(tc.in), tc.t.Module, uint8(1))
	}
	for _, s := range []string{
		`gpu.module @k [#nvvm.target<chip = "sm_90">, #nvvm.target<O = 3>] attributes {a = "]"} {}`,
		"gpu.module @k <#gpu.select_object<#nvvm.target>> {}",
		"{-# a: { gpu.module: 1 } #-}\ngpu.module @k {}",
		`"s" gpu.module @"\"" {}`,
		"module { gpu.module @a <gpu.module @b {}> [gpu.module @c {}] {} }",
		"#t = #nvvm.target<O = 1>\nmodule { gpu.module @k [#t, #t] {} }",
		`module { gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_80">, bin = "\7FELF">] }`,
		`"gpu.binary"() <{objects = [#gpu.object<#t, "x">], sym_name = "g"}> : () -> ()`,
	} {
		f.Add([]byte(s), "", uint8(2))
	}
	f.Fuzz(func(t *testing.T, src []byte, module string, opts uint8) {
		if _, err := GPUObjects(src); err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(src) || se.Line < 1 || se.Col < 1 {
				t.Fatalf("GPUObjects: error %#v", err)
			}
		}
		tg := DefaultTarget()
		tg.Module = module
		tg.Fast, tg.FTZ = opts&1 != 0, opts&2 != 0
		if opts&4 != 0 {
			tg.Chip, tg.O = "sm_90", 3
		}
		if opts&8 != 0 {
			tg.Link = []string{"a.bc", `q"uote.bc`}
		}
		if opts&16 != 0 {
			tg.PtxasOptions = `-v "a b"`
		}
		if tg.Validate() != nil {
			return // a module regex Go cannot compile
		}
		ms, merr := Modules(src)
		out, rep, err := Attach(src, tg)
		if (merr == nil) != (err == nil) {
			t.Fatalf("Modules: %v; Attach: %v", merr, err)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(src) || se.Line < 1 || se.Col < 1 {
				t.Fatalf("error %#v", err)
			}
			return
		}
		if len(rep.Modules) != len(ms) {
			t.Fatalf("report has %d modules, Modules %d", len(rep.Modules), len(ms))
		}
		if !rep.Changed() && !bytes.Equal(out, src) {
			t.Fatalf("unchanged by the report but the text differs")
		}
		checkAttachOutput(t, src, out, tg)
	})
}
