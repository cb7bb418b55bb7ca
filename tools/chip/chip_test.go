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
