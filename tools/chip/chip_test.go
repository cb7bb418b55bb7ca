package chip

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Chip
		wantErr bool
	}{
		{in: "sm_80", want: Chip{Major: 8, Minor: 0}},
		{in: "sm_86", want: Chip{Major: 8, Minor: 6}},
		{in: "sm_90a", want: Chip{Major: 9, Minor: 0, Suffix: "a"}},
		{in: "sm_100f", want: Chip{Major: 10, Minor: 0, Suffix: "f"}},
		{in: "sm_120", want: Chip{Major: 12, Minor: 0}},
		{in: "compute_75", want: Chip{Major: 7, Minor: 5, Virtual: true}},
		{in: "sm80", wantErr: true},
		{in: "sm_", wantErr: true},
		{in: "sm_8", wantErr: true},
		{in: "sm_9x", wantErr: true},
		{in: "sm_1000", wantErr: true},
		{in: "gfx90a", wantErr: true},
	} {
		got, err := Parse(tc.in)
		if tc.wantErr {
			if err == nil {
				t.Errorf("Parse(%q) = %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
		if got.String() != tc.in {
			t.Errorf("Parse(%q).String() = %q", tc.in, got.String())
		}
	}
}

// ParseReal takes what a target's chips may list, and says why anything else is not a chip, with the
// chips there are.
func TestParseReal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // in the error; none: accepted
	}{
		{in: "sm_80"},
		{in: "sm_90a"},
		{in: "sm_100f"},
		{in: "sm_91", want: []string{`unknown chip "sm_91": not in the chip table; the chips are sm_35, `, "sm_90a", "docs/chips.md"}},
		{in: "sm80", want: []string{`unknown chip "sm80": chips are named like sm_80`, "the chips are sm_35, "}},
		{in: "", want: []string{`unknown chip ""`}},
		{in: "sm_090", want: []string{`chip "sm_090": write it sm_90`}},
		{in: "compute_80", want: []string{"compute_80 is a virtual chip (PTX); name real chips, such as sm_80: a fatbin carries PTX for its lowest chip"}},
	} {
		c, err := ParseReal(tc.in)
		if len(tc.want) == 0 {
			if err != nil || c.String() != tc.in {
				t.Errorf("ParseReal(%q) = %v, %v; want %s", tc.in, c, err, tc.in)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseReal(%q) = %v, want an error", tc.in, c)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("ParseReal(%q): %v\nwant it to say %q", tc.in, err, w)
			}
		}
	}
}

// A chip's family is its compute capability's major: the pool of runners a cubin for one of its
// chips may load on.
func TestFamily(t *testing.T) {
	for in, want := range map[string]string{
		"sm_75": "sm_7x", "sm_80": "sm_8x", "sm_86": "sm_8x", "sm_89": "sm_8x", "sm_90": "sm_9x",
		"sm_90a": "sm_9x", "sm_100": "sm_10x", "sm_100f": "sm_10x", "sm_103a": "sm_10x", "sm_120": "sm_12x",
	} {
		c, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Family(); got != want {
			t.Errorf("%s.Family() = %q, want %q", in, got, want)
		}
	}
}
