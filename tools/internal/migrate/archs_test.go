package migrate

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseArchs(t *testing.T) {
	for _, tc := range []struct {
		in            string
		cubins, ptx   string // the chips, space-separated
		chips, format string // Attrs
		attrPTX       string // Attrs.PTX, space-separated; "-" for nil
	}{
		// Ampere cubins and compute_80 PTX: what rules_gpu's fatbin holds by default.
		{in: "compute_80:compute_80,sm_80,sm_86", cubins: "sm_80 sm_86", ptx: "sm_80", chips: "sm_80 sm_86", attrPTX: "-"},
		// PTX of the highest chip, not the lowest: ptx says which.
		{in: "compute_70:sm_70;compute_80:compute_80,sm_80", cubins: "sm_70 sm_80", ptx: "sm_80", chips: "sm_70 sm_80", attrPTX: "sm_80"},
		{in: "sm_80,sm_86", cubins: "sm_80 sm_86", chips: "sm_80 sm_86", format: "bin", attrPTX: "-"},
		{in: "compute_90:compute_90", ptx: "sm_90", chips: "sm_90", format: "jit", attrPTX: "-"},
		{in: "compute_90", ptx: "sm_90", chips: "sm_90", format: "jit", attrPTX: "-"},
		{in: "compute_90a:sm_90a", cubins: "sm_90a", chips: "sm_90a", format: "bin", attrPTX: "-"},
		// Without a virtual architecture, the lowest code's is the PTX's.
		{in: "compute_80,sm_86,sm_80", cubins: "sm_80 sm_86", ptx: "sm_80", chips: "sm_80 sm_86", attrPTX: "-"},
		// Whitespace around specs, empty specs, repeats; the chip table's order (sm_90 < sm_90a < sm_100).
		{in: " sm_100 ; ;compute_90a:sm_90a, compute_90a;sm_90,sm_100 ;", cubins: "sm_90 sm_90a sm_100", ptx: "sm_90a",
			chips: "sm_90 sm_90a sm_100", attrPTX: "sm_90a"},
		// PTX for several chips beside cubins.
		{in: "compute_75:compute_75,sm_75;compute_90:compute_90,sm_90", cubins: "sm_75 sm_90", ptx: "sm_75 sm_90",
			chips: "sm_75 sm_90", attrPTX: "sm_75 sm_90"},
		{in: "compute_100f:sm_100f,sm_103f", cubins: "sm_100f sm_103f", chips: "sm_100f sm_103f", format: "bin", attrPTX: "-"},
	} {
		a, err := ParseArchs(tc.in)
		if err != nil {
			t.Errorf("ParseArchs(%q): %v", tc.in, err)
			continue
		}
		if got := strings.Join(names(a.Cubins), " "); got != tc.cubins {
			t.Errorf("ParseArchs(%q): cubins %q, want %q", tc.in, got, tc.cubins)
		}
		if got := strings.Join(names(a.PTX), " "); got != tc.ptx {
			t.Errorf("ParseArchs(%q): PTX %q, want %q", tc.in, got, tc.ptx)
		}
		attrs, err := a.Attrs()
		if err != nil {
			t.Errorf("ParseArchs(%q).Attrs(): %v", tc.in, err)
			continue
		}
		ptx := strings.Join(attrs.PTX, " ")
		if attrs.PTX == nil {
			ptx = "-"
		}
		if strings.Join(attrs.Chips, " ") != tc.chips || attrs.Format != tc.format || ptx != tc.attrPTX {
			t.Errorf("ParseArchs(%q).Attrs() = %+v, want chips %q format %q ptx %q", tc.in, attrs, tc.chips, tc.format, tc.attrPTX)
		}
		if attrs.Default() != (tc.format == "" && tc.attrPTX == "-") {
			t.Errorf("ParseArchs(%q).Attrs().Default() = %v", tc.in, attrs.Default())
		}
	}
}

// Every error names the string and the part that is wrong, and says how to fix it.
func TestParseArchsErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"compute_80:sm_8x", []string{"sm_8x is not a chip", "rules_cuda's grammar: VIRTUAL:CODE,...", "fix: write it like sm_80"}},
		{"sm80", []string{"sm80 is not a chip", "fix: "}},
		{"compute_80:", []string{"compute_80: names an empty code", "fix: list the codes"}},
		{"a:b:c", []string{"a:b:c has 2 ':'", "fix: separate specs with ';'"}},
		{"compute_80:compute_86", []string{"compute_86 in compute_80:compute_86 is PTX of another virtual architecture than compute_80",
			"fix: make it a spec of its own: compute_80:compute_80;compute_86"}},
		{"sm_80,compute_86", []string{"compute_86 in sm_80,compute_86 is PTX of another virtual architecture than compute_80"}},
		{"compute_80:sm_75", []string{"sm_75 cannot be built from compute_80", "fix: build it from compute_75"}},
		{"sm_80:sm_80", []string{"sm_80 in sm_80:sm_80 is not a virtual architecture", "fix: write compute_80:sm_80"}},
		{"compute_80:lto_80", []string{"lto_80 asks for LTO-IR, which rules_gpu does not build", "fix: use sm_80 (a cubin) or compute_80 (PTX)"}},
		{"lto_90", []string{"lto_90 asks for LTO-IR"}},
		{"sm_99", []string{"sm_99 is not in rules_gpu's chip table", "fix: name a chip of the table (docs/chips.md", "from sm_35 to sm_121f"}},
		{"compute_99:sm_99", []string{"compute_99 is not in rules_gpu's chip table", "from compute_35 to compute_121f"}},
		{"sm_080", []string{"sm_080 is not how the chip is written", "fix: write it sm_80"}},
		{"", []string{"names no architecture", "fix: name the chips"}},
		{" ; ", []string{"names no architecture"}},
		{"sm_80,,sm_86", []string{"names an empty code"}},
	} {
		_, err := ParseArchs(tc.in)
		if err == nil {
			t.Errorf("ParseArchs(%q): no error", tc.in)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, fmt.Sprintf("archs %q: ", tc.in)) {
			t.Errorf("ParseArchs(%q): %q does not start with the string", tc.in, msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("ParseArchs(%q): %q does not say %q", tc.in, msg, w)
			}
		}
	}
}

// PTX alone for several chips has no rules_gpu form: jit carries one PTX.
func TestAttrsSeveralPTX(t *testing.T) {
	a, err := ParseArchs("compute_70;compute_80")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(a.PTX), " "); got != "sm_70 sm_80" || len(a.Cubins) != 0 {
		t.Errorf("PTX %s, cubins %v", got, a.Cubins)
	}
	_, err = a.Attrs()
	if err == nil || !strings.Contains(err.Error(), "PTX alone for 2 chips (sm_70, sm_80)") || !strings.Contains(err.Error(), "fix: keep the lowest, compute_70") {
		t.Errorf("Attrs() = %v", err)
	}
}

func TestAttrsString(t *testing.T) {
	for _, tc := range []struct {
		a    Attrs
		want string
	}{
		{Attrs{Chips: []string{"sm_80"}}, ""},
		{Attrs{Chips: []string{"sm_80"}, Format: "bin"}, `format = "bin"`},
		{Attrs{Chips: []string{"sm_70", "sm_80"}, PTX: []string{"sm_70", "sm_80"}}, `ptx = ["sm_70", "sm_80"]`},
	} {
		if got := tc.a.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.a, got, tc.want)
		}
	}
}
