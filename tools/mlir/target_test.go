package mlir

import (
	"reflect"
	"strings"
	"testing"
)

// attributeCases are targets and their #nvvm.target exactly as mlir-opt 21 prints them (TestMLIR*
// checks each against mlir-opt when it is available).
var attributeCases = []struct {
	name string
	t    Target
	want string
}{
	{"defaults", DefaultTarget(), `#nvvm.target`},
	{"defaults spelled out", Target{Triple: "nvptx64-nvidia-cuda", Chip: "sm_50", Features: "+ptx60", O: 2}, `#nvvm.target`},
	{"chip and O", with(func(t *Target) { t.Chip, t.O = "sm_90", 3 }), `#nvvm.target<O = 3, chip = "sm_90">`},
	{"O 0", with(func(t *Target) { t.O = 0 }), `#nvvm.target<O = 0>`},
	{"triple and features", with(func(t *Target) { t.Triple, t.Features = "nvptx-nvidia-cuda", "+ptx80" }),
		`#nvvm.target<triple = "nvptx-nvidia-cuda", features = "+ptx80">`},
	{"empty features", with(func(t *Target) { t.Features = "" }), `#nvvm.target<features = "">`},
	{"fast", with(func(t *Target) { t.Fast = true }), `#nvvm.target<flags = {fast}>`},
	{"fast ftz", with(func(t *Target) { t.Fast, t.FTZ = true, true }), `#nvvm.target<flags = {fast, ftz}>`},
	{"ftz", with(func(t *Target) { t.FTZ = true }), `#nvvm.target<flags = {ftz}>`},
	{"link", with(func(t *Target) { t.Link = []string{"a.bc", "b.bc"} }), `#nvvm.target<link = ["a.bc", "b.bc"]>`},
	{"ptxas", with(func(t *Target) { t.PtxasOptions = "-v --warn-on-spills" }),
		`#nvvm.target<flags = {"ptxas-cmd-options" = ["-v", "--warn-on-spills"]}>`},
	{"ptxas quoted", with(func(t *Target) { t.PtxasOptions = `-v "a b" 'c d' e\ f` }),
		`#nvvm.target<flags = {"ptxas-cmd-options" = ["-v", "a b", "c d", "e f"]}>`},
	{"ptxas only spaces", with(func(t *Target) { t.PtxasOptions = "   " }), `#nvvm.target`},
	{"everything", Target{O: 1, Triple: "nvptx-nvidia-cuda", Chip: "sm_90a", Features: "+ptx80", Fast: true, FTZ: true,
		Link: []string{"/lib/libdevice.10.bc"}, PtxasOptions: "-v"},
		`#nvvm.target<O = 1, triple = "nvptx-nvidia-cuda", chip = "sm_90a", features = "+ptx80", ` +
			`flags = {fast, ftz, "ptxas-cmd-options" = ["-v"]}, link = ["/lib/libdevice.10.bc"]>`},
	{"escapes", with(func(t *Target) {
		t.Features, t.Link, t.PtxasOptions = "q\"b\\s\tt\x7f", []string{"dir with space/é.bc"}, `'it'\''s'`
	}),
		`#nvvm.target<features = "q\22b\\s\09t\7F", flags = {"ptxas-cmd-options" = ["it's"]}, link = ["dir with space/\C3\A9.bc"]>`},
}

func with(f func(*Target)) Target {
	t := DefaultTarget()
	f(&t)
	return t
}

func TestAttribute(t *testing.T) {
	for _, tc := range attributeCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.t.Attribute(); got != tc.want {
				t.Errorf("Attribute()\n got %s\nwant %s", got, tc.want)
			}
			// Reading it back gives the same attribute, and (where Target can hold it) the target.
			toks, err := lex([]byte(tc.want))
			if err != nil || len(toks) != 1 {
				t.Fatalf("lex(%s) = %v, %v", tc.want, toks, err)
			}
			a, ok := parseNVVM([]byte(tc.want), toks[0])
			if !ok || a.String() != tc.want {
				t.Fatalf("parseNVVM(%s) = %s, %v", tc.want, a, ok)
			}
			back, ok := a.target()
			if !ok {
				t.Fatalf("target() of %s failed", tc.want)
			}
			if back.Attribute() != tc.want {
				t.Errorf("round trip through Target: %s", back.Attribute())
			}
		})
	}
}

func TestTokenizeCmdOptions(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  \t\n ", nil},
		{"-v", []string{"-v"}},
		{" -v   -O3 ", []string{"-v", "-O3"}},
		{`"-v -O3"`, []string{"-v", "-O3"}},                // quotes around the whole string are removed
		{`'-v -O3'`, []string{"-v", "-O3"}},                // single ones too
		{`"'-v -O3'"`, []string{"-v", "-O3"}},              // both: double first, then single
		{`"-v" "-O3"`, []string{"-v -O3"}},                 // ... even when they are not a pair
		{`-v "a b"`, []string{"-v", "a b"}},                // quotes group
		{`-v 'a b'`, []string{"-v", "a b"}},                // single quotes too
		{`a\ b`, []string{"a b"}},                          // backslash escapes
		{`'c\'d'`, []string{"c'd"}},                        // in quotes too (unlike a shell)
		{`x"y z`, []string{"xy z"}},                        // an open quote runs to the end
		{`a "" b`, []string{"a", "b"}},                     // empty arguments are dropped (LLVM 21)
		{`-a\`, []string{`-a\`}},                           // a final backslash stays
		{`a"b c"d`, []string{"ab cd"}},                     // quotes inside an argument
		{"--opt=\"x y\"\t-z", []string{"--opt=x y", "-z"}}, // tab separates
	} {
		if got := tokenizeCmdOptions(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("tokenizeCmdOptions(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// escapeArg's output tokenizes back to its input, alone and joined.
func TestEscapeArg(t *testing.T) {
	args := []string{"plain", "a b", `q"uote`, "it's", `back\slash`, "\"both'", "tab\there", "\"", "'"}
	for _, a := range args {
		if got := tokenizeCmdOptions(escapeArg(a)); len(got) != 1 || got[0] != a {
			t.Errorf("tokenizeCmdOptions(escapeArg(%q)) = %q", a, got)
		}
	}
	var esc []string
	for _, a := range args {
		esc = append(esc, escapeArg(a))
	}
	if got := tokenizeCmdOptions(strings.Join(esc, " ")); !reflect.DeepEqual(got, args) {
		t.Errorf("joined: %q", got)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    Target
		want string // "" for valid
	}{
		{"defaults", DefaultTarget(), ""},
		{"sm_90a", with(func(t *Target) { t.Chip = "sm_90a" }), ""},
		{"sm_100f", with(func(t *Target) { t.Chip = "sm_100f" }), ""},
		{"compute_90: no digits after three characters", with(func(t *Target) { t.Chip = "compute_90" }), `chip "compute_90"`},
		{"sm_20", with(func(t *Target) { t.Chip = "sm_20" }), ""},
		{"sm_19", with(func(t *Target) { t.Chip = "sm_19" }), `chip "sm_19"`},
		{"sm_", with(func(t *Target) { t.Chip = "sm_" }), `chip "sm_"`},
		{"no digits", with(func(t *Target) { t.Chip = "sm_x90" }), `chip "sm_x90"`},
		{"digits after three characters", with(func(t *Target) { t.Chip = "gfx90a" }), ""},
		{"empty chip", with(func(t *Target) { t.Chip = "" }), "the chip is empty"},
		{"O 4", with(func(t *Target) { t.O = 4 }), "O = 4"},
		{"O -1", with(func(t *Target) { t.O = -1 }), "O = -1"},
		{"empty triple", with(func(t *Target) { t.Triple = "" }), "the triple is empty"},
		{"empty link", with(func(t *Target) { t.Link = []string{"a.bc", ""} }), "link library path is empty"},
		{"NUL in ptxas options", with(func(t *Target) { t.PtxasOptions = "-v\x00" }), "NUL"},
		{"bad regex", with(func(t *Target) { t.Module = "(" }), "module regex"},
		{"zero Target", Target{}, "the triple is empty"},
	} {
		err := tc.t.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: Validate() = %v, want nil", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: Validate() = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// Existing #nvvm.target texts, in any spelling MLIR reads, print as MLIR prints them.
func TestParseNVVM(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`#nvvm.target`, `#nvvm.target`},
		{`#nvvm.target<>`, `#nvvm.target`},
		{`#nvvm.target<O = 2, chip = "sm_50">`, `#nvvm.target`},
		{`#nvvm.target<chip = "sm_90", O = 3>`, `#nvvm.target<O = 3, chip = "sm_90">`},
		{`#nvvm.target < chip="sm_90" , // c` + "\n" + `O=0x3 >`, `#nvvm.target<O = 3, chip = "sm_90">`},
		{`#nvvm.target<flags = {ftz, "fast"}>`, `#nvvm.target<flags = {fast, ftz}>`},
		{`#nvvm.target<flags = {}>`, `#nvvm.target<flags = {}>`},
		{`#nvvm.target<link = []>`, `#nvvm.target<link = []>`},
		{`#nvvm.target<link = ["a" ,"b"]>`, `#nvvm.target<link = ["a", "b"]>`},
		{`#nvvm.target<verifyTarget = true>`, `#nvvm.target`},
		{`#nvvm.target<verifyTarget = false, chip = "sm_90">`, `#nvvm.target<chip = "sm_90", verifyTarget = false>`},
		{`#nvvm.target<chip = "a\22b\\c\09d">`, `#nvvm.target<chip = "a\22b\\c\09d">`},
		{`#nvvm.target<chip = "\41">`, `#nvvm.target<chip = "A">`},
	} {
		toks, err := lex([]byte(tc.in))
		if err != nil || len(toks) != 1 {
			t.Fatalf("lex(%s) = %v, %v", tc.in, toks, err)
		}
		a, ok := parseNVVM([]byte(tc.in), toks[0])
		if !ok || a.String() != tc.want {
			t.Errorf("parseNVVM(%s) = %s, %v; want %s", tc.in, a, ok, tc.want)
		}
	}
	for _, bad := range []string{
		`#nvvm.target<chip = "sm_90", chip = "sm_80">`, // twice
		`#nvvm.target<chip = sm_90>`,
		`#nvvm.target<O = "2">`,
		`#nvvm.target<unknown = 1>`,
		`#nvvm.target<flags = [fast]>`,
		`#nvvm.target<chip>`,
		`#nvvm.target<, >`,
		`#nvvm.targets`,
		`#rocdl.target<chip = "gfx90a">`,
	} {
		toks, err := lex([]byte(bad))
		if err != nil || len(toks) != 1 {
			continue
		}
		if a, ok := parseNVVM([]byte(bad), toks[0]); ok {
			t.Errorf("parseNVVM(%s) = %s, want failure", bad, a)
		}
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":         `""`,
		"sm_90":    `"sm_90"`,
		`a"b`:      `"a\22b"`,
		`a\b`:      `"a\\b"`,
		"\n\t\x00": `"\0A\09\00"`,
		"é":        `"\C3\A9"`,
	} {
		if got := quote(in); got != want {
			t.Errorf("quote(%q) = %s, want %s", in, got, want)
		}
		if back := unquote([]byte(want)); back != in {
			t.Errorf("unquote(%s) = %q, want %q", want, back, in)
		}
	}
}

// regexNames are module names for the regex tests: digits, letters, punctuation, a backslash and a
// two-byte UTF-8 character.
var regexNames = []string{"k1", "kd", `k\.x`, "k_x", "K1", "kernels", "x.y", "a b", "ab", "é", "a{", "k{,2}", "kw"}

// regexCases are module regexes and whether Validate accepts them; accepted ones select what
// MLIR's llvm::Regex selects (TestMLIRRegex checks that against mlir-opt).
var regexCases = []struct {
	re    string
	ok    bool
	match []string // for accepted ones, the names of regexNames it selects
}{
	{"k", true, []string{"k1", "kd", `k\.x`, "k_x", "kernels", "k{,2}", "kw"}},
	{"^k.$", true, []string{"k1", "kd", "kw"}},
	{"1$", true, []string{"k1", "K1"}},
	{"k[0-9]", true, []string{"k1"}},
	{"[[:digit:]]", true, []string{"k1", "K1", "k{,2}"}},
	{"^.$", true, nil}, // é is two bytes
	{"^..$", true, []string{"k1", "kd", "K1", "ab", "é", "a{", "kw"}},
	{"[[:alpha:]]_", true, []string{"k_x"}},
	{"^(k|x)[._]", true, []string{"k_x", "x.y"}},
	{"k{1}d", true, []string{"kd"}},
	{"^k.?$", true, []string{"k1", "kd", "kw"}},
	{`\.`, true, []string{`k\.x`, "x.y"}},
	{"a b", true, []string{"a b"}},
	{"é", true, []string{"é"}},
	{"[é]", true, []string{"é"}},
	{"()", true, regexNames},
	{"[]x]", true, []string{`k\.x`, "k_x", "x.y"}}, // ] first is a plain ]
	{"[^a-z]", true, []string{"k1", `k\.x`, "k_x", "K1", "x.y", "a b", "é", "a{", "k{,2}"}},
	{`k\d`, false, nil},     // MLIR: a plain d
	{`k\w`, false, nil},     // MLIR: a plain w
	{`k[\.]`, false, nil},   // MLIR: a backslash or a dot
	{"k|", false, nil},      // MLIR: invalid, so no module
	{"|k", false, nil},      //
	{"(k|)", false, nil},    //
	{"(?i)k", false, nil},   // Go flags
	{"k*?1", false, nil},    // MLIR: invalid
	{"k**", false, nil},     //
	{"a{", false, nil},      // MLIR: invalid
	{"k{,2}", false, nil},   // a literal for both, but rejected with the other stray {
	{"[[.a.]]", false, nil}, //
	{"(", false, nil},       // neither compiles
	{`\pL`, false, nil},     //
}

// TestModuleRegex checks ModuleMatcher, which Attach and gpubuild compile select modules with.
func TestModuleRegex(t *testing.T) {
	for _, tc := range regexCases {
		m, err := NewModuleMatcher(tc.re)
		if (err == nil) != tc.ok {
			t.Errorf("NewModuleMatcher(%q): %v, want ok=%v", tc.re, err, tc.ok)
			continue
		}
		if err != nil {
			continue
		}
		var got []string
		for _, n := range regexNames {
			if m.Match(n) {
				got = append(got, n)
			}
		}
		if !reflect.DeepEqual(got, tc.match) {
			t.Errorf("%q selects %q, want %q", tc.re, got, tc.match)
		}
	}
	empty, err := NewModuleMatcher("")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range regexNames {
		if !empty.Match(n) || !(ModuleMatcher{}).Match(n) {
			t.Errorf("the empty pattern does not select %q", n)
		}
	}
}
