package mlir

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// sm80 is the target that the ToBinaries tests give their objects.
const sm80 = `#nvvm.target<chip = "sm_80">`

// binaryOp is what ToBinaries writes for module name holding data.
func binaryOp(name, data string) string {
	return fmt.Sprintf("gpu.binary %s [#gpu.object<%s, %s>]", symbol(name), sm80, quote(data))
}

// ToBinaries replaces exactly the top-level gpu.modules, whole (header, targets and body), by
// gpu.binary ops, and leaves every other byte of the text as it was: nested modules, modules in
// comments and strings, the host code.
func TestToBinaries(t *testing.T) {
	modA := "gpu.module @a {\n    gpu.func @ka() kernel {\n      gpu.return\n    }\n  }"
	modB := "gpu.module @b [#nvvm.target<chip = \"sm_90\">] attributes {x = \"gpu.module @s {\"} {\n  }"
	nested := "module @inner {\n    gpu.module @c {\n    }\n  }"
	for _, tc := range []struct {
		name     string
		parts    []string // the text: the even parts are kept, the odd ones are modules replaced by want's binaries
		binaries map[string][]byte
	}{
		{
			name: "explicit top-level module, a nested module and decoys",
			parts: []string{
				"// gpu.module @commented {\nmodule attributes {gpu.container_module, note = \"gpu.module @q {}\"} {\n  ", modA,
				"\n  " + nested + "\n  ", modB,
				"\n  func.func @main() {\n    gpu.launch_func @a::@ka blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)\n    return\n  }\n}\n",
			},
			binaries: map[string][]byte{"a": []byte("fatbin of a"), "b": []byte("fatbin of b")},
		},
		{
			name:     "implicit top-level module, host code around",
			parts:    []string{"func.func @main() {\n  return\n}\n", "gpu.module @main_kernel {\n}", "\nfunc.func private @printMemrefF32(memref<*xf32>)\n"},
			binaries: map[string][]byte{"main_kernel": []byte("\x50\xed\x55\xba")},
		},
		{
			name:     "modules side by side on one line",
			parts:    []string{"module {\n  ", "gpu.module @x {}", " ", "gpu.module @x.y_$1 {}", "\n}"},
			binaries: map[string][]byte{"x": []byte("1"), "x.y_$1": []byte("2")},
		},
		{
			name:     "a name that is no bare identifier keeps its quotes",
			parts:    []string{"module {\n  ", "gpu.module @\"my kernels\" {}", "\n}"},
			binaries: map[string][]byte{"my kernels": []byte("3")},
		},
		{
			name:  "no gpu.module, no artifact",
			parts: []string{"module {\n  " + nested + "\n  func.func @main() {\n    return\n  }\n}\n"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var src, want strings.Builder
			for i, p := range tc.parts {
				src.WriteString(p)
				if i%2 == 0 {
					want.WriteString(p)
					continue
				}
				mods, err := Modules([]byte(p))
				if err != nil || len(mods) != 1 {
					t.Fatalf("part %q: %v", p, err)
				}
				want.WriteString(binaryOp(mods[0].Name, string(tc.binaries[mods[0].Name])))
			}
			got, err := ToBinaries([]byte(src.String()), sm80, tc.binaries)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want.String() {
				t.Errorf("ToBinaries of\n%s\ngave\n%s\nwant\n%s", src.String(), got, want.String())
			}
			// What is left are the nested modules, as they were.
			mods, err := Modules(got)
			if err != nil {
				t.Fatalf("the result does not read back: %v", err)
			}
			for _, m := range mods {
				if m.TopLevel {
					t.Errorf("gpu.module @%s is left at the top level", m.Name)
				}
			}
		})
	}
}

// The objects' bytes round-trip: GPUObjects reads back, for each module, a fatbin object for the
// target holding exactly its artifact, every byte value included (NUL, quote, backslash, 0xFF).
func TestToBinariesRoundTrip(t *testing.T) {
	var every []byte
	for i := range 256 {
		every = append(every, byte(i))
	}
	binaries := map[string][]byte{
		"kernels":     every,
		"main_kernel": []byte("\x00\"\\\xff\\\"\x00"),
		"empty":       {},
		"escapes":     []byte(`\\ \" \0A \n \t \FF`),
	}
	src := "module attributes {gpu.container_module} {\n  gpu.module @kernels {\n  }\n  gpu.module @main_kernel {\n  }\n" +
		"  gpu.module @empty {\n  }\n  gpu.module @escapes {\n  }\n}\n"
	got, err := ToBinaries([]byte(src), sm80, binaries)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := GPUObjects(got)
	if err != nil {
		t.Fatalf("GPUObjects of ToBinaries' output: %v\n%s", err, got)
	}
	order := []string{"kernels", "main_kernel", "empty", "escapes"}
	if len(objs) != len(order) {
		t.Fatalf("%d objects, want %d:\n%s", len(objs), len(order), got)
	}
	for i, o := range objs {
		if o.Binary != order[i] || o.Index != 0 || o.Line != i+2 || o.Format != ObjectFatbin || o.Target != sm80 || o.Dialect != "nvvm" || o.Chip != "sm_80" {
			t.Errorf("object %d: %+v; want gpu.binary @%s's only object, a fatbin for sm_80 on line %d", i, o, order[i], i+2)
		}
		if !bytes.Equal(o.Data, binaries[o.Binary]) {
			t.Errorf("@%s: the object holds %q, want %q", o.Binary, o.Data, binaries[o.Binary])
		}
	}
	for i, c := range got {
		if (c < 0x20 || c > 0x7e) && c != '\n' {
			t.Fatalf("byte %d of the text is %#x: the objects' bytes must be escaped\n%q", i, c, got)
		}
	}
}

// MLIR 21 reads what ToBinaries writes, and prints the same objects: each gpu.binary holds the
// module's bytes for the target.
func TestToBinariesMLIR(t *testing.T) {
	opt := mlirOpt(t)
	var every []byte
	for i := range 256 {
		every = append(every, byte(255-i))
	}
	binaries := map[string][]byte{"kernels": every, "main_kernel": []byte("\x00\"\\\xff")}
	src := "module attributes {gpu.container_module} {\n  gpu.module @kernels {\n    gpu.func @k() kernel {\n      gpu.return\n    }\n  }\n" +
		"  gpu.module @main_kernel {\n  }\n  func.func @main() {\n    %c1 = arith.constant 1 : index\n" +
		"    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)\n    return\n  }\n}\n"
	got, err := ToBinaries([]byte(src), `#nvvm.target<O = 3, chip = "sm_90">`, binaries)
	if err != nil {
		t.Fatal(err)
	}
	printed, err := runOpt(opt, got)
	if err != nil {
		t.Fatalf("mlir-opt refuses ToBinaries' output: %v\n%s", err, got)
	}
	objs, err := GPUObjects([]byte(printed))
	if err != nil {
		t.Fatalf("%v\n%s", err, printed)
	}
	if len(objs) != 2 {
		t.Fatalf("mlir-opt printed %d objects, want 2:\n%s", len(objs), printed)
	}
	for _, o := range objs {
		if o.Format != ObjectFatbin || o.Chip != "sm_90" || !bytes.Equal(o.Data, binaries[o.Binary]) {
			t.Errorf("@%s as mlir-opt prints it: %s object for %s holding %q; want a fatbin for sm_90 holding %q", o.Binary, o.Format, o.Chip, o.Data, binaries[o.Binary])
		}
	}
	if strings.Contains(printed, "gpu.module") {
		t.Errorf("a gpu.module is left:\n%s", printed)
	}
}

// A top-level module without an artifact, and an artifact without a top-level module, are errors
// that name them; a nested module is no top-level module.
func TestToBinariesErrors(t *testing.T) {
	src := "module attributes {gpu.container_module} {\n  gpu.module @a {\n  }\n  module @inner {\n    gpu.module @c {\n    }\n  }\n" +
		"  gpu.module @b {\n  }\n}\n"
	a, b := []byte("A"), []byte("B")
	for _, tc := range []struct {
		name     string
		src      string
		binaries map[string][]byte
		want     string
	}{
		{"module without artifact", src, map[string][]byte{"a": a}, "line 8: gpu.module @b has no artifact (have @a)"},
		{"no artifact at all", src, nil, "line 2: gpu.module @a has no artifact (have none)"},
		{"artifact without module", src, map[string][]byte{"a": a, "b": b, "zz": b},
			"an artifact for gpu.module @zz, which the program does not have (its top-level modules: @a, @b)"},
		{"artifact for a nested module", src, map[string][]byte{"a": a, "b": b, "c": b},
			"an artifact for gpu.module @c, which the program does not have (its top-level modules: @a, @b)"},
		{"artifact, no module", "module {\n}\n", map[string][]byte{"k": a},
			"an artifact for gpu.module @k, which the program does not have (its top-level modules: none)"},
		{"unreadable text", "module {\n  gpu.module @k {\n", map[string][]byte{"k": a}, "'{' is never closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ToBinaries([]byte(tc.src), sm80, tc.binaries)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ToBinaries: %v, want an error containing %q", err, tc.want)
			}
			if got != nil {
				t.Errorf("a failed ToBinaries returned text:\n%s", got)
			}
		})
	}
}
