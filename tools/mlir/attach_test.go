package mlir

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files from Attach's output")

// optionSets are the --nvvm-attach-target option sets the golden and MLIR tests use.
var optionSets = map[string]Target{
	"default": DefaultTarget(),
	"sm90":    with(func(t *Target) { t.Chip, t.O = "sm_90", 3 }),
	"fastftz": with(func(t *Target) { t.Fast, t.FTZ = true, true }),
	"link":    with(func(t *Target) { t.Link = []string{"a.bc", "lib/b.bc"} }),
	"ptxas":   with(func(t *Target) { t.PtxasOptions = `-v "--warn-on-spills" '-dlcm=ca'` }),
	"ptxasq":  with(func(t *Target) { t.PtxasOptions = `"-v -O3"` }),
	"triple":  with(func(t *Target) { t.Triple, t.Features = "nvptx-nvidia-cuda", "+ptx80" }),
	"full": {Triple: DefaultTriple, Chip: "sm_80", Features: "+ptx75", O: 1, Fast: true, FTZ: true,
		Link: []string{"x.bc"}, PtxasOptions: "-v"},
	"select_b":  with(func(t *Target) { t.Module, t.Chip = "_b$", "sm_90" }),
	"select_sc": with(func(t *Target) { t.Module = "^sc|ker" }),
	"select_k1": with(func(t *Target) { t.Module = "k 1" }),
	"select_dt": with(func(t *Target) { t.Module = "m[.]with" }),
	"none":      with(func(t *Target) { t.Module = "^nothing$" }),
}

// golden lists the testdata/INPUT.SET.golden files: Attach's output for INPUT.mlir with a set.
var golden = map[string][]string{
	"saxpy":       {"default", "full"},
	"two_modules": {"select_b", "full"},
	"has_target":  {"default", "full"},
	"attributes":  {"default"},
	"nested":      {"default"},
	"implicit":    {"default"},
	"decoys":      {"default", "select_k1"},
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGolden(t *testing.T) {
	for input, sets := range golden {
		for _, set := range sets {
			t.Run(input+"."+set, func(t *testing.T) {
				src := readTestdata(t, input+".mlir")
				out, _, err := Attach(src, optionSets[set])
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", input+"."+set+".golden")
				if *update {
					if err := os.WriteFile(path, out, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want := readTestdata(t, input+"."+set+".golden")
				if !bytes.Equal(out, want) {
					t.Errorf("Attach output differs from %s (go test -update rewrites it):\n%s", path, out)
				}
				checkAttachOutput(t, src, out, optionSets[set])
			})
		}
	}
}

// checkAttachOutput checks what holds for every successful Attach: the output reads back with the
// same modules, attaching again changes nothing, and the output is the input plus the inserted
// target texts (unless the input had equal neighbours in a targets list, which Attach merges).
func checkAttachOutput(t *testing.T, src, out []byte, tg Target) {
	t.Helper()
	before, err := Modules(src)
	if err != nil {
		t.Fatalf("Attach succeeded but Modules(src) failed: %v", err)
	}
	after, err := Modules(out)
	if err != nil {
		t.Fatalf("the output does not read back: %v\n%s", err, out)
	}
	if len(after) != len(before) {
		t.Fatalf("%d modules after, %d before", len(after), len(before))
	}
	for i := range after {
		if after[i].Name != before[i].Name || after[i].TopLevel != before[i].TopLevel {
			t.Fatalf("module %d: %q (top level %v) became %q (%v)", i, before[i].Name, before[i].TopLevel, after[i].Name, after[i].TopLevel)
		}
	}
	again, rep, err := Attach(out, tg)
	if err != nil {
		t.Fatalf("attaching again: %v", err)
	}
	if !bytes.Equal(again, out) || rep.Changed() {
		t.Fatalf("attaching again changed the text:\n%s\n---- to ----\n%s", out, again)
	}
	for _, m := range before {
		for k := 1; k < len(m.Targets); k++ {
			if m.Targets[k].Attr == m.Targets[k-1].Attr {
				return // merged neighbours: the plain removal below does not apply
			}
		}
	}
	// Module by module (from one gpu.module keyword to the next), the output is the input, with
	// at most one insertion in each: " [A]" after a name, ", A" after a target, "A" into [].
	attr := tg.Attribute()
	inserts := []string{" [" + attr + "]", ", " + attr, attr}
	cut := func(text []byte, ms []Module, k int) []byte {
		from, to := 0, len(text)
		if k > 0 {
			from = ms[k-1].Start
		}
		if k < len(ms) {
			to = ms[k].Start
		}
		return text[from:to]
	}
	for k := 0; k <= len(before); k++ {
		a, b := cut(src, before, k), cut(out, after, k)
		if bytes.Equal(a, b) {
			continue
		}
		if !oneInsertion(a, b, inserts) {
			t.Fatalf("the output is not the input plus the targets: %q became %q", a, b)
		}
	}
}

// oneInsertion says whether b is a with one of the inserts inserted somewhere.
func oneInsertion(a, b []byte, inserts []string) bool {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for _, ins := range inserts {
		if len(b) != len(a)+len(ins) {
			continue
		}
		for q := max(0, p-len(ins)); q <= p; q++ {
			if bytes.Equal(b[:q], a[:q]) && string(b[q:q+len(ins)]) == ins && bytes.Equal(b[q+len(ins):], a[q:]) {
				return true
			}
		}
	}
	return false
}

func TestAttachReport(t *testing.T) {
	src := readTestdata(t, "has_target.mlir")
	_, rep, err := Attach(src, DefaultTarget())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Outcome{}
	changed := map[string]bool{}
	for _, r := range rep.Modules {
		got[r.Name], changed[r.Name] = r.Outcome, r.Changed
	}
	want := map[string]Outcome{"dflt": Present, "sm80": Attached, "alias": Present, "mixed": Attached, "twice": Attached, "dict": Attached}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("outcomes %v, want %v", got, want)
	}
	if changed["dflt"] || changed["alias"] || !changed["twice"] {
		t.Errorf("changed %v", changed)
	}
	if n := len(rep.Matched()); n != 6 {
		t.Errorf("Matched() has %d modules, want 6", n)
	}

	_, rep, err = Attach(readTestdata(t, "two_modules.mlir"), optionSets["none"])
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Matched()) != 0 || rep.Changed() || len(rep.Modules) != 2 || rep.Modules[0].Outcome != NotMatched {
		t.Errorf("no match: %+v", rep)
	}
}

// smallCases are inputs with their output; TestMLIRSmall also runs the inputs MLIR accepts through
// mlir-opt-21.
var smallCases = []struct {
	name, in string
	t        Target
	want     string
}{
	{"no targets", "gpu.module @k {}", DefaultTarget(), "gpu.module @k [#nvvm.target] {}"},
	{"no space before body", "gpu.module @k{}", DefaultTarget(), "gpu.module @k [#nvvm.target]{}"},
	{"comment after name", "gpu.module @k // c\n{}", DefaultTarget(), "gpu.module @k [#nvvm.target] // c\n{}"},
	{"append", "gpu.module @k [#nvvm.target] {}", optionSets["sm90"], `gpu.module @k [#nvvm.target, #nvvm.target<O = 3, chip = "sm_90">] {}`},
	{"append after comment", "gpu.module @k [#nvvm.target // c\n] {}", optionSets["sm90"],
		"gpu.module @k [#nvvm.target, #nvvm.target<O = 3, chip = \"sm_90\"> // c\n] {}"},
	{"present", `gpu.module @k [#nvvm.target<chip = "sm_90", O = 3>] {}`, optionSets["sm90"], `gpu.module @k [#nvvm.target<chip = "sm_90", O = 3>] {}`},
	{"present, not last", `gpu.module @k [#nvvm.target<chip = "sm_90", O = 3>, #nvvm.target] {}`, optionSets["sm90"],
		`gpu.module @k [#nvvm.target<chip = "sm_90", O = 3>, #nvvm.target, #nvvm.target<O = 3, chip = "sm_90">] {}`},
	{"merge neighbours", "gpu.module @k [#nvvm.target, #nvvm.target<O = 2>, #nvvm.target] {}", optionSets["sm90"],
		`gpu.module @k [#nvvm.target, #nvvm.target<O = 3, chip = "sm_90">] {}`},
	{"merge into the new one", `gpu.module @k [#nvvm.target<O=3,chip="sm_90">, #nvvm.target<chip="sm_90",O=3>] {}`, optionSets["sm90"],
		`gpu.module @k [#nvvm.target<O=3,chip="sm_90">] {}`},
	{"handler", "gpu.module @k <#gpu.select_object<1>> {}", DefaultTarget(), "gpu.module @k <#gpu.select_object<1>> [#nvvm.target] {}"},
	{"builtin handler", "gpu.module @k <dense<1> : tensor<2xi32>> {}", DefaultTarget(),
		"gpu.module @k <dense<1> : tensor<2xi32>> [#nvvm.target] {}"},
	{"attributes", "gpu.module @k attributes {a.b} {}", DefaultTarget(), "gpu.module @k [#nvvm.target] attributes {a.b} {}"},
	// (Not a bare #rocdl.target: MLIR 21 misreads a bodiless dialect attribute in an attribute
	// dictionary after another one, taking it for the one before.)
	{"targets in attributes", `gpu.module @k attributes {a.b, "targets" = [#rocdl.target<chip = "gfx90a">]} {}`, DefaultTarget(),
		`gpu.module @k attributes {a.b, "targets" = [#rocdl.target<chip = "gfx90a">, #nvvm.target]} {}`},
	{"empty list", "gpu.module @k [] {}", DefaultTarget(), "gpu.module @k [#nvvm.target] {}"},
	{"quoted name", `gpu.module @"a b" {}`, with(func(t *Target) { t.Module = "^a b$" }), `gpu.module @"a b" [#nvvm.target] {}`},
	{"escaped name", `gpu.module @"a\22b" {}`, with(func(t *Target) { t.Module = `^a[^a-z]b$` }), `gpu.module @"a\22b" [#nvvm.target] {}`},
	{"unanchored", "gpu.module @my_kernels {}", with(func(t *Target) { t.Module = "kern" }), "gpu.module @my_kernels [#nvvm.target] {}"},
	{"not matched", "gpu.module @my_kernels {}", with(func(t *Target) { t.Module = "^kern" }), "gpu.module @my_kernels {}"},
	{"nested", "module { module { gpu.module @k {} } }", DefaultTarget(), "module { module { gpu.module @k {} } }"},
	{"generic top module", `"builtin.module"() ({ gpu.module @k {} }) : () -> ()`, DefaultTarget(),
		`"builtin.module"() ({ gpu.module @k [#nvvm.target] {} }) : () -> ()`},
	{"two top modules", "module { gpu.module @a {} } module { gpu.module @b {} }", DefaultTarget(),
		"module { gpu.module @a {} } module { gpu.module @b {} }"},
	{"alias then module", "#a = #nvvm.target<O = 1>\n!t = i32\nmodule { gpu.module @k {} }\n#b = affine_map<(d0) -> (d0)>", DefaultTarget(),
		"#a = #nvvm.target<O = 1>\n!t = i32\nmodule { gpu.module @k [#nvvm.target] {} }\n#b = affine_map<(d0) -> (d0)>"},
	{"metadata", "module { gpu.module @k {} }\n{-# dialect_resources: { builtin: { r: \"0x04000000\" } } #-}", DefaultTarget(),
		"module { gpu.module @k [#nvvm.target] {} }\n{-# dialect_resources: { builtin: { r: \"0x04000000\" } } #-}"},
	{"a dictionary key", `module attributes {gpu.module = 1, test.x = {gpu.module}} { gpu.module @k {} }`, DefaultTarget(),
		`module attributes {gpu.module = 1, test.x = {gpu.module}} { gpu.module @k [#nvvm.target] {} }`},
	{"in a dialect body", `module attributes {unreg.x = #unreg.y<"a", gpu.module @x {}>} { gpu.module @k {} }`, DefaultTarget(),
		`module attributes {unreg.x = #unreg.y<"a", gpu.module @x {}>} { gpu.module @k [#nvvm.target] {} }`},
	{"dollar name", `gpu.module @a$b.c {}`, with(func(t *Target) { t.Module = `^a\$b` }), `gpu.module @a$b.c [#nvvm.target] {}`},
	{"escaped strings", `gpu.module @k attributes {s = "\"gpu.module @x {\" // \\"} {}`, DefaultTarget(),
		`gpu.module @k [#nvvm.target] attributes {s = "\"gpu.module @x {\" // \\"} {}`},
}

func TestAttachSmall(t *testing.T) {
	for _, tc := range smallCases {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := Attach([]byte(tc.in), tc.t)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("Attach\n got %s\nwant %s", out, tc.want)
			}
			checkAttachOutput(t, []byte(tc.in), out, tc.t)
		})
	}
}

func TestModules(t *testing.T) {
	type mod struct {
		name string
		top  bool
		line int
	}
	for _, tc := range []struct {
		file string
		want []mod
	}{
		{"nested.mlir", []mod{{"top", true, 4}, {"deep", false, 7}, {"deeper", false, 10}}},
		{"implicit.mlir", []mod{{"free", true, 3}, {"in_m1", false, 6}}},
		{"decoys.mlir", []mod{{"k 1", true, 4}, {`k"q`, true, 9}, {"m.with.dots", true, 11}}},
		{"two_modules.mlir", []mod{{"scale_a", true, 3}, {"offset_b", true, 12}}},
	} {
		src := readTestdata(t, tc.file)
		ms, err := Modules(src)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		var got []mod
		for _, m := range ms {
			got = append(got, mod{m.Name, m.TopLevel, m.Line})
			if !bytes.HasPrefix(src[m.Start:], []byte("gpu.module")) || src[m.End-1] != '}' {
				t.Errorf("%s: module %s spans %q", tc.file, m.Name, src[m.Start:m.End])
			}
			if src[m.BodyStart-1] != '{' || m.BodyEnd != m.End-1 || m.BodyStart > m.BodyEnd {
				t.Errorf("%s: module %s has the body %d:%d in %d:%d", tc.file, m.Name, m.BodyStart, m.BodyEnd, m.Start, m.End)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: modules %v, want %v", tc.file, got, tc.want)
		}
	}

	ms, err := Modules(readTestdata(t, "has_target.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string][]string{}
	chips := map[string][]string{}
	for _, m := range ms {
		for _, ta := range m.Targets {
			targets[m.Name] = append(targets[m.Name], ta.Attr)
			chip := "-"
			if ta.NVVM != nil {
				chip = ta.NVVM.Chip
			}
			chips[m.Name] = append(chips[m.Name], chip)
		}
	}
	wantTargets := map[string][]string{
		"dflt":  {`#nvvm.target`},
		"sm80":  {`#nvvm.target<O = 3, chip = "sm_80">`},
		"alias": {`#nvvm.target<chip = "sm_80">`, `#nvvm.target`},
		"mixed": {`#rocdl.target<chip="gfx90a">`, `#nvvm.target<chip = "sm_90", flags = {fast, ftz}>`},
		"twice": {`#nvvm.target<chip = "sm_70">`, `#nvvm.target<chip = "sm_70">`},
		"dict":  {`#nvvm.target<chip = "sm_75">`},
	}
	if !reflect.DeepEqual(targets, wantTargets) {
		t.Errorf("targets %q\nwant %q", targets, wantTargets)
	}
	wantChips := map[string][]string{"dflt": {"sm_50"}, "sm80": {"sm_80"}, "alias": {"sm_80", "sm_50"},
		"mixed": {"-", "sm_90"}, "twice": {"sm_70", "sm_70"}, "dict": {"sm_75"}}
	if !reflect.DeepEqual(chips, wantChips) {
		t.Errorf("chips %v, want %v", chips, wantChips)
	}
	if ms[2].Targets[0].Text != "#sm80" {
		t.Errorf("alias text %q", ms[2].Targets[0].Text)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"unclosed body", "gpu.module @a {\n", 1, 15, `'{' is never closed`},
		{"unclosed region inside", "module {\n  gpu.module @a {\n    func.func @f() {\n  }\n}\n", 1, 8, `'{' is never closed`},
		{"stray brace", "gpu.module @a {}\n}", 2, 1, `'}': nothing to close`},
		{"mismatched", "module {\n  gpu.module @a {} )\n}", 2, 20, `')' does not close the '{' at 1:8`},
		{"no name", "module {\n  gpu.module {}\n}", 2, 3, "gpu.module without a name: want @name, found '{'"},
		{"no name at end", "gpu.module", 1, 1, "gpu.module without a name: want @name, found the end of the text"},
		{"bad symbol", "gpu.module @1 {}", 1, 1, "gpu.module without a name"},
		{"unterminated string", "gpu.module @a {}\n  \"abc\n", 2, 3, "unterminated string: a line break before its closing quote"},
		{"unterminated at end", `gpu.module @a attributes {s = "abc`, 1, 31, "unterminated string: the text ends before its closing quote"},
		{"unterminated name", `gpu.module @"a {}`, 1, 13, "unterminated string: the text ends before its closing quote"},
		{"bad escape", `gpu.module @a attributes {s = "a\qb"} {}`, 1, 33, "unknown escape"},
		{"dialect body", `gpu.module @a [#nvvm.target<chip = "sm_90"] {}`, 1, 43, `']' in the body of #nvvm.target does not close the '<' at 1:28`},
		{"dialect body open", `gpu.module @a [#nvvm.target<chip = "sm_90"`, 1, 28, `'<' in the body of #nvvm.target is never closed`},
		{"string in dialect body", "gpu.module @a [#nvvm.target<chip = \"sm_90>] {}\n", 1, 36, "unterminated string: a line break before its closing quote"},
		{"empty target", "gpu.module @a [#nvvm.target, ] {}", 1, 15, "an empty element in its targets list"},
		{"targets not a list", "gpu.module @a attributes {targets = #t} {}", 1, 27, "targets in its attributes is not a list"},
		{"no body", "gpu.module @a [#nvvm.target]\nfunc.func @f() {}", 2, 1, "gpu.module @a: want '[', 'attributes' or the '{' of its body, found 'func.func'"},
		{"handler", "gpu.module @a <#h {}", 1, 15, "gpu.module @a: the '<' of its offloading handler is not closed by a '>'"},
		{"handler in a region", "module { gpu.module @a <#h {} }", 1, 24, "offloading handler is not closed"},
		{"generic", `"gpu.module"() ({}) : () -> ()`, 1, 1, "generic op form"},
		{"NUL in body", "gpu.module @a [#x<\x00>] {}", 1, 19, "NUL byte"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []func() error{
				func() error { _, err := Modules([]byte(tc.in)); return err },
				func() error { _, _, err := Attach([]byte(tc.in), DefaultTarget()); return err },
			} {
				err := f()
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("error %v, want a *SyntaxError", err)
				}
				if se.Line != tc.line || se.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
					t.Errorf("error %q, want %d:%d: ...%s...", err, tc.line, tc.col, tc.msg)
				}
			}
		})
	}
	if _, _, err := Attach([]byte("gpu.module @a {}"), Target{Chip: "sm_90"}); err == nil || !strings.Contains(err.Error(), "triple") {
		t.Errorf("invalid target: %v", err)
	}
}
