package chip

import "testing"

func TestParseToolkit(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Toolkit
		wantErr bool
	}{
		{in: "12.4", want: Toolkit{12, 4}},
		{in: "13.0", want: Toolkit{13, 0}},
		{in: "11.8", want: Toolkit{11, 8}},
		{in: "12.4.131", want: Toolkit{12, 4}},
		{in: "12", wantErr: true},
		{in: "", wantErr: true},
		{in: "12.", wantErr: true},
		{in: ".4", wantErr: true},
		{in: "v12.4", wantErr: true},
		{in: "12.4.1.1", wantErr: true},
		{in: "12.x", wantErr: true},
		{in: "-1.0", wantErr: true},
		{in: "0.9", wantErr: true},
		{in: " 12.4", wantErr: true},
	} {
		got, err := ParseToolkit(tc.in)
		if tc.wantErr {
			if err == nil {
				t.Errorf("ParseToolkit(%q) = %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseToolkit(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestParsePTX(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    PTX
		wantErr bool
	}{
		{in: "8.4", want: PTX{8, 4}},
		{in: "9.0", want: PTX{9, 0}},
		{in: "7.8", want: PTX{7, 8}},
		{in: "8.4.1", wantErr: true},
		{in: "8", wantErr: true},
		{in: "sm_80", wantErr: true},
		{in: "8.a", wantErr: true},
		{in: "0.0", wantErr: true},
		{in: "", wantErr: true},
	} {
		got, err := ParsePTX(tc.in)
		if tc.wantErr {
			if err == nil {
				t.Errorf("ParsePTX(%q) = %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParsePTX(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestVersionStringsAndCompare(t *testing.T) {
	if s := (Toolkit{12, 4}).String(); s != "12.4" {
		t.Errorf("Toolkit.String = %q", s)
	}
	if s := (PTX{9, 0}).String(); s != "9.0" {
		t.Errorf("PTX.String = %q", s)
	}
	if s := (ELF{1, 8}).String(); s != "1.8" {
		t.Errorf("ELF.String = %q", s)
	}
	for _, tc := range []struct {
		a, b Toolkit
		want int
	}{
		{Toolkit{12, 4}, Toolkit{12, 4}, 0},
		{Toolkit{12, 4}, Toolkit{12, 8}, -1},
		{Toolkit{13, 0}, Toolkit{12, 9}, 1},
		{Toolkit{11, 8}, Toolkit{12, 0}, -1},
	} {
		if got := tc.a.Compare(tc.b); got != tc.want {
			t.Errorf("%v.Compare(%v) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := (PTX(tc.a)).Compare(PTX(tc.b)); got != tc.want {
			t.Errorf("PTX %v.Compare(%v) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	if !(Toolkit{}).IsZero() || (Toolkit{1, 0}).IsZero() || !(PTX{}).IsZero() || !(ELF{}).IsZero() {
		t.Error("IsZero is wrong")
	}
}
