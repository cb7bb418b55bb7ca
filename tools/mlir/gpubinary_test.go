package mlir

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestGPUObjects(t *testing.T) {
	type obj struct {
		binary, dialect, chip string
		format                ObjectFormat
		data                  string
		line                  int
	}
	for _, tc := range []struct {
		name string
		text string
		want []obj
	}{
		{
			name: "mlir-opt output, bin",
			text: "module attributes {gpu.container_module} {\n" +
				`  gpu.binary @kernels  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, properties = {ISAToBinaryTimeInMs = 16 : i64, LLVMIRToISATimeInMs = 2 : i64}, bin = "\7FELF\02\01\013\07\00">]` + "\n}\n",
			want: []obj{{"kernels", "nvvm", "sm_80", ObjectBin, "\x7fELF\x02\x01\x013\x07\x00", 2}},
		},
		{
			name: "assembly is isa",
			text: `gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {O = 3 : i32}, assembly = "//\0A.version 7.8\0A\09.target sm_90\0A">]`,
			want: []obj{{"k", "nvvm", "sm_90", ObjectISA, "//\n.version 7.8\n\t.target sm_90\n", 1}},
		},
		{
			name: "fatbin has no keyword",
			text: `gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_80">, "P\EDU\BA">]`,
			want: []obj{{"k", "nvvm", "sm_80", ObjectFatbin, "P\xed\x55\xba", 1}},
		},
		{
			name: "fatbin keyword, offload",
			text: "gpu.binary @k [\n  #gpu.object<#nvvm.target, fatbin = \"a\">,\n  #gpu.object<#nvvm.target<chip = \"sm_100a\">, offload = \"BC\\C0\\DE\">\n]",
			want: []obj{{"k", "nvvm", "sm_50", ObjectFatbin, "a", 2}, {"k", "nvvm", "sm_100a", ObjectOffload, "BC\xc0\xde", 3}},
		},
		{
			name: "every escape",
			text: `gpu.binary @k [#gpu.object<#nvvm.target<O = 3>, bin = "\\ \" \n \t \0a \7f \ff \FF \00 x">]`,
			want: []obj{{"k", "nvvm", "sm_50", ObjectBin, "\\ \" \n \t \n \x7f \xff \xff \x00 x", 1}},
		},
		{
			name: "two ops, several targets, handler and attributes",
			text: "// gpu.binary @comment [#gpu.object<#nvvm.target, \"no\">]\n" +
				"module attributes {gpu.container_module, s = \"gpu.binary @s []\"} {\n" +
				"  gpu.binary @a <#gpu.select_object<1>> {foo = \"[\"} [#gpu.object<#nvvm.target<chip = \"sm_80\">, bin = \"1\">, #gpu.object<#nvvm.target<chip = \"sm_90\", features = \"+ptx80\">, bin = \"2\">]\n" +
				"  gpu.binary @b [#gpu.object<#rocdl.target<chip = \"gfx90a\">, bin = \"3\">]\n" +
				"  llvm.func @f() -> i32 attributes {a = affine_set<(d0) : (d0 >= 0)>}\n" +
				"}\n",
			want: []obj{{"a", "nvvm", "sm_80", ObjectBin, "1", 3}, {"a", "nvvm", "sm_90", ObjectBin, "2", 3}, {"b", "rocdl", "gfx90a", ObjectBin, "3", 4}},
		},
		{
			name: "generic form",
			text: `"builtin.module"() ({` + "\n" +
				`  "gpu.binary"() <{objects = [#gpu.object<#nvvm.target<chip = "sm_89">, bin = "x">], sym_name = "gen"}> : () -> ()` + "\n" +
				`}) {gpu.container_module} : () -> ()`,
			want: []obj{{"gen", "nvvm", "sm_89", ObjectBin, "x", 2}},
		},
		{
			name: "quoted symbol, properties with strings and commas, kernel table",
			text: `gpu.binary @"my kernels" [#gpu.object<#nvvm.target<chip = "sm_75">, properties = {a = "x, \22y>", b = [1, 2]}, bin = "z", kernels = #gpu.kernel_table<[#gpu.kernel_metadata<"k", !llvm.func<void (ptr)>>]>>]`,
			want: []obj{{"my kernels", "nvvm", "sm_75", ObjectBin, "z", 1}},
		},
		{
			name: "aliased target",
			text: "#target = #nvvm.target<chip = \"sm_87\", O = 3>\nmodule {\n  gpu.binary @k [#gpu.object<#target, \"f\">]\n}\n",
			want: []obj{{"k", "nvvm", "sm_87", ObjectFatbin, "f", 3}},
		},
		{
			name: "no binaries",
			text: "module {\n  gpu.module @k {\n  }\n}\n",
		},
		{
			name: "empty object list",
			text: "gpu.binary @k []",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := GPUObjects([]byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			var got []obj
			for _, o := range objs {
				got = append(got, obj{o.Binary, o.Dialect, o.Chip, o.Format, string(o.Data), o.Line})
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// Every byte survives MLIR's escaping, and the target text is kept as written.
func TestGPUObjectsRoundTrip(t *testing.T) {
	var all []byte
	for i := range 256 {
		all = append(all, byte(i))
	}
	all = append(all, `\\"\n\t\0A`...)
	text := `gpu.binary @k [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, bin = ` + quote(string(all)) + `>]`
	objs, err := GPUObjects([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 || !bytes.Equal(objs[0].Data, all) {
		t.Fatalf("round trip: got %+v", objs)
	}
	if want := `#nvvm.target<O = 3, chip = "sm_80">`; objs[0].Target != want {
		t.Errorf("target %q, want %q", objs[0].Target, want)
	}
}

func TestGPUObjectsErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"unknown escape", "module {\n  gpu.binary @k [#gpu.object<#nvvm.target, bin = \"a\\qb\">]\n}", `line 2: unknown escape "\\q"`},
		{"one hex digit", "\n\ngpu.binary @k [#gpu.object<#nvvm.target, bin = \"\\4\">]", "line 3: unknown escape"},
		{"escape at end", "gpu.binary @k [#gpu.object<#nvvm.target, bin = \"\\", "line 1: unterminated string"},
		{"unterminated", "module {\n  gpu.binary @k [#gpu.object<#nvvm.target, bin = \"abc", "line 2: unterminated string: the text ends"},
		{"newline in string", "module {\n  gpu.binary @k [#gpu.object<#nvvm.target, bin = \"ab\ncd\">]\n}", "line 2: unterminated string: a line break"},
		{"bad string elsewhere", "module attributes {x = \"\\z\"} {\n}", `line 1: unknown escape "\\z"`},
		{"no object list", "module {\n  gpu.binary @k\n}\n", "line 2: gpu.binary @k has no object list"},
		{"text ends", "gpu.binary @k", "the text ends before its object list"},
		{"unclosed list", "gpu.binary @k [#gpu.object<#nvvm.target, \"a\">", "never closed"},
		{"unbalanced", "gpu.binary @k [#gpu.object<#nvvm.target, \"a\"]>", "unbalanced"},
		{"no string", "gpu.binary @k [#gpu.object<#nvvm.target<chip = \"sm_80\">>]", "line 1: gpu.binary @k object 0: no object string"},
		{"keyword without string", "gpu.binary @k [#gpu.object<#nvvm.target, bin =>]", "expected the object string, found nothing"},
		{"trailing comma", "gpu.binary @k [#gpu.object<#nvvm.target, \"a\",>]", "expected the object string, found nothing"},
		{"two strings", "gpu.binary @k [#gpu.object<#nvvm.target, \"a\", bin = \"b\">]", "a second object string"},
		{"not a string", "gpu.binary @k [#gpu.object<#nvvm.target, bin = 42>]", `found "42"`},
		{"unknown field", "gpu.binary @k [#gpu.object<#nvvm.target, elf = \"a\">]", `unknown object field "elf"`},
		{"no target", "gpu.binary @k [#gpu.object<, \"a\">]", "no target"},
		{"target not an attribute", "gpu.binary @k [#gpu.object<nvvm, \"a\">]", "expected a target attribute"},
		{"unknown alias", "gpu.binary @k [#gpu.object<#t, \"a\">]", "nor a known alias"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := GPUObjects([]byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestIsText(t *testing.T) {
	for text, want := range map[string]bool{
		"module {\n}":                       true,
		"// c\n\n  // d\nmodule attributes": true,
		"#map = affine_map<(d0) -> (d0)>\n": true,
		`"builtin.module"() ({`:             true,
		"gpu.binary @k []":                  true,
		"// a kernel\n.version 8.4\n.target sm_80\n.address_size 64\n.visible .entry k() { ret; }\n": false,
		"//\n// Generated by LLVM NVPTX Back-End\n//\n\n.version 7.0\n":                              false,
		"":               false,
		"// only a note": false,
	} {
		if got := IsText([]byte(text)); got != want {
			t.Errorf("IsText(%q) = %v, want %v", text, got, want)
		}
	}
}

// GPUObjects never panics, whatever the text, and its errors wrap a *SyntaxError inside the text.
func FuzzGPUObjects(f *testing.F) {
	f.Add(`gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_80">, bin = "\7FELF">]`)
	f.Add(`"gpu.binary"() <{objects = [#gpu.object<#t, "x">], sym_name = "g"}> : () -> ()`)
	f.Add("#t = #nvvm.target\ngpu.binary @\"q\" <#gpu.select_object<0>> [#gpu.object<#t, properties = {a = [1, \"\\22\"]}, assembly = \"\\0A\">]")
	f.Add("module { gpu.binary @k [#gpu.object<#nvvm.target, fatbin = \"P\\ED\">] }")
	f.Fuzz(func(t *testing.T, text string) {
		objs, err := GPUObjects([]byte(text))
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(text) || se.Line < 1 || se.Col < 1 {
				t.Fatalf("error %#v", err)
			}
			return
		}
		lines := strings.Count(text, "\n") + 1
		for _, o := range objs {
			if o.Line < 1 || o.Line > lines || o.Format == "" {
				t.Fatalf("object %+v of a %d-line text", o, lines)
			}
		}
	})
}
