package chip

import "testing"

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
