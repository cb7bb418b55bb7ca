package chip

import (
	"slices"
	"strings"
	"testing"
)

func mustChip(t *testing.T, name string) Chip {
	t.Helper()
	c, err := Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustToolkit(t *testing.T, s string) Toolkit {
	t.Helper()
	v, err := ParseToolkit(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustPTX(t *testing.T, s string) PTX {
	t.Helper()
	v, err := ParsePTX(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTableConsistent checks the chip table against itself.
func TestTableConsistent(t *testing.T) {
	seen := map[Chip]bool{}
	for i, a := range arches {
		c := a.Chip
		if c.Virtual || (c.Suffix != "" && c.Suffix != "a" && c.Suffix != "f") {
			t.Errorf("%v: rows hold real chips with suffix \"\", a or f", c)
		}
		if seen[c] {
			t.Errorf("%v: duplicate row", c)
		}
		seen[c] = true
		if p, err := Parse(c.String()); err != nil || p != c {
			t.Errorf("%v: does not round-trip through Parse: %v, %v", c, p, err)
		}
		if i > 0 {
			prev := arches[i-1].Chip
			if prev.Number() > c.Number() || prev.Number() == c.Number() && suffixOrder(prev.Suffix) >= suffixOrder(c.Suffix) {
				t.Errorf("%v after %v: rows out of order", c, prev)
			}
		}
		if a.First.IsZero() {
			t.Errorf("%v: no first toolkit", c)
		}
		if !a.Last.IsZero() && a.Last.Compare(a.First) < 0 {
			t.Errorf("%v: last toolkit %v before first %v", c, a.Last, a.First)
		}
		for _, v := range []Toolkit{a.First, a.Last} {
			if !v.IsZero() && v.Compare(Toolkit{11, 0}) >= 0 && !v.Known() {
				t.Errorf("%v: toolkit %v is not in the toolkit list", c, v)
			}
		}
		if _, ok := PTXRelease(a.MinPTX); !ok {
			t.Errorf("%v: min PTX ISA %v is not a known PTX ISA version", c, a.MinPTX)
		}
		if newest, ok := newestPTXFor(a.First); !ok || newest.Compare(a.MinPTX) < 0 {
			t.Errorf("%v: needs PTX ISA %v, but its first toolkit %v emits only %v", c, a.MinPTX, a.First, newest)
		}
		if a.Family == "" || !strings.HasPrefix(a.Family, "sm_") {
			t.Errorf("%v: family %q", c, a.Family)
		}
		if c.Suffix == "f" && c.Major < 10 {
			t.Errorf("%v: family-specific targets start with Blackwell", c)
		}
		if c.Suffix != "" {
			plain, ok := Lookup(Chip{Major: c.Major, Minor: c.Minor})
			switch {
			case !ok:
				t.Errorf("%v: no plain row", c)
			case plain.Family != a.Family:
				t.Errorf("%v: family %q differs from the plain chip's %q", c, a.Family, plain.Family)
			case a.First.Compare(plain.First) < 0:
				t.Errorf("%v: available (CUDA %v) before its plain chip (CUDA %v)", c, a.First, plain.First)
			case a.MinPTX.Compare(plain.MinPTX) < 0:
				t.Errorf("%v: needs PTX ISA %v, less than its plain chip's %v", c, a.MinPTX, plain.MinPTX)
			}
			if a.Products != "" {
				t.Errorf("%v: products belong on the plain row", c)
			}
		}
		if !a.RenamedTo.IsZero() {
			r, ok := Lookup(a.RenamedTo)
			switch {
			case !ok:
				t.Errorf("%v: renamed to %v, which is not in the table", c, a.RenamedTo)
			case a.Last.IsZero():
				t.Errorf("%v: renamed but still supported", c)
			case r.First.Compare(a.Last) <= 0:
				t.Errorf("%v: renamed %v in CUDA %v, not after its last toolkit %v", c, r.Chip, r.First, a.Last)
			case r.Chip.Suffix != c.Suffix:
				t.Errorf("%v: renamed to %v, another suffix", c, r.Chip)
			}
		}
	}
	for i, r := range toolkits {
		if i > 0 && toolkits[i-1].V.Compare(r.V) >= 0 {
			t.Errorf("toolkits out of order at %v", r.V)
		}
		if r.V.Compare(Toolkit{11, 0}) < 0 {
			t.Errorf("toolkit %v: the table starts at 11.0", r.V)
		}
		if len(r.V.Chips()) == 0 {
			t.Errorf("toolkit %v compiles for no chip", r.V)
		}
		if _, err := r.V.NewestPTX(); err != nil {
			t.Errorf("toolkit %v: %v", r.V, err)
		}
	}
	for i, r := range ptxReleases {
		if i > 0 && (ptxReleases[i-1].PTX.Compare(r.PTX) >= 0 || ptxReleases[i-1].CUDA.Compare(r.CUDA) >= 0) {
			t.Errorf("PTX releases out of order at %v", r.PTX)
		}
		if r.CUDA.Compare(Toolkit{11, 0}) >= 0 && !r.CUDA.Known() && r.CUDA != (Toolkit{12, 7}) {
			t.Errorf("PTX ISA %v came with CUDA %v, which is not in the toolkit list", r.PTX, r.CUDA)
		}
	}
	// Every toolkit's newest PTX ISA version is at least what each of its chips needs.
	for _, tk := range Toolkits() {
		newest, _ := tk.NewestPTX()
		for _, c := range tk.Chips() {
			a, _ := Lookup(c)
			if a.MinPTX.Compare(newest) > 0 {
				t.Errorf("CUDA %v compiles %v, which needs PTX ISA %v, but emits only %v", tk, c, a.MinPTX, newest)
			}
		}
	}
}

func suffixOrder(s string) int { return map[string]int{"": 0, "a": 1, "f": 2}[s] }

func TestKnownIsACopy(t *testing.T) {
	k := Known()
	if len(k) != len(arches) {
		t.Fatalf("Known has %d rows, table %d", len(k), len(arches))
	}
	k[0].First = Toolkit{99, 0}
	if arches[0].First == (Toolkit{99, 0}) {
		t.Error("Known returns the table itself")
	}
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"sm_90", "compute_90", "sm_90a", "compute_100f", "sm_121f"} {
		a, ok := Lookup(mustChip(t, name))
		if !ok || a.Chip.Virtual || a.Chip.Number() != mustChip(t, name).Number() {
			t.Errorf("Lookup(%s) = %v, %v", name, a.Chip, ok)
		}
	}
	for _, name := range []string{"sm_30", "sm_91", "sm_80a", "sm_90f", "sm_107", "compute_20"} {
		if _, ok := Lookup(mustChip(t, name)); ok {
			t.Errorf("Lookup(%s) found a row", name)
		}
	}
}

// TestTargets pins the facts as the sources state them.
func TestTargets(t *testing.T) {
	for _, tc := range []struct {
		chip, first, last, minPTX string
	}{
		{"sm_35", "5.0", "11.8", "3.1"},
		{"sm_37", "6.5", "11.8", "4.1"},
		{"sm_50", "6.0", "12.9", "4.0"},
		{"sm_52", "6.5", "12.9", "4.1"},
		{"sm_53", "7.0", "12.9", "4.2"},
		{"sm_60", "8.0", "12.9", "5.0"},
		{"sm_61", "8.0", "12.9", "5.0"},
		{"sm_62", "8.0", "12.9", "5.0"},
		{"sm_70", "9.0", "12.9", "6.0"},
		{"sm_72", "9.1", "12.9", "6.1"},
		{"sm_75", "10.0", "", "6.3"},
		{"sm_80", "11.0", "", "7.0"},
		{"sm_86", "11.1", "", "7.1"},
		{"sm_87", "11.4", "", "7.4"},
		{"sm_88", "13.0", "", "9.0"},
		{"sm_89", "11.8", "", "7.8"},
		{"sm_90", "11.8", "", "7.8"},
		{"sm_90a", "12.0", "", "8.0"},
		{"sm_100", "12.8", "", "8.6"},
		{"sm_100a", "12.8", "", "8.6"},
		{"sm_100f", "12.9", "", "8.8"},
		{"sm_101", "12.8", "12.9", "8.6"},
		{"sm_101a", "12.8", "12.9", "8.6"},
		{"sm_101f", "12.9", "12.9", "8.8"},
		{"sm_103", "12.9", "", "8.8"},
		{"sm_103a", "12.9", "", "8.8"},
		{"sm_103f", "12.9", "", "8.8"},
		{"sm_110", "13.0", "", "9.0"},
		{"sm_110a", "13.0", "", "9.0"},
		{"sm_110f", "13.0", "", "9.0"},
		{"sm_120", "12.8", "", "8.7"},
		{"sm_120a", "12.8", "", "8.7"},
		{"sm_120f", "12.9", "", "8.8"},
		{"sm_121", "12.9", "", "8.8"},
		{"sm_121a", "12.9", "", "8.8"},
		{"sm_121f", "12.9", "", "8.8"},
	} {
		a, ok := Lookup(mustChip(t, tc.chip))
		if !ok {
			t.Errorf("%s: not in the table", tc.chip)
			continue
		}
		last := ""
		if !a.Last.IsZero() {
			last = a.Last.String()
		}
		if a.First.String() != tc.first || last != tc.last || a.MinPTX.String() != tc.minPTX {
			t.Errorf("%s: first %v, last %q, min PTX %v; want %s, %q, %s", tc.chip, a.First, last, a.MinPTX, tc.first, tc.last, tc.minPTX)
		}
	}
	if len(arches) != 36 {
		t.Errorf("the table has %d rows; TestTargets pins 36", len(arches))
	}
}

func TestToolkitNewestPTX(t *testing.T) {
	want := map[string]string{
		"11.0": "7.0", "11.1": "7.1", "11.2": "7.2", "11.3": "7.3", "11.4": "7.4", "11.5": "7.5",
		"11.6": "7.6", "11.7": "7.7", "11.8": "7.8",
		"12.0": "8.0", "12.1": "8.1", "12.2": "8.2", "12.3": "8.3", "12.4": "8.4", "12.5": "8.5",
		"12.6": "8.5", "12.8": "8.7", "12.9": "8.8",
		"13.0": "9.0", "13.1": "9.1",
	}
	var got []string
	for _, tk := range Toolkits() {
		got = append(got, tk.String())
		p, err := tk.NewestPTX()
		if err != nil || p.String() != want[tk.String()] {
			t.Errorf("CUDA %v: newest PTX ISA %v, %v; want %s", tk, p, err, want[tk.String()])
		}
	}
	if len(got) != len(want) {
		t.Errorf("toolkits %v; want the %d of the test", got, len(want))
	}
	if _, err := (Toolkit{12, 7}).NewestPTX(); err == nil {
		t.Error("CUDA 12.7 (never released) has a newest PTX ISA version")
	}
}

func TestDriverPTX(t *testing.T) {
	for _, tc := range []struct {
		driver, want string
		beyond       bool
	}{
		{"11.0", "7.0", false},
		{"11.8", "7.8", false},
		{"12.4", "8.4", false},
		{"12.6", "8.5", false},
		{"12.7", "8.6", false}, // drivers of CUDA 12.7 exist, its toolkit does not
		{"12.8", "8.7", false},
		{"13.0", "9.0", false},
		{"13.1", "9.1", false},
		{"13.5", "9.1", true},
		{"10.2", "6.5", false},
	} {
		p, beyond, ok := DriverPTX(mustToolkit(t, tc.driver))
		if !ok || p.String() != tc.want || beyond != tc.beyond {
			t.Errorf("DriverPTX(%s) = %v, %v, %v; want %s, %v", tc.driver, p, beyond, ok, tc.want, tc.beyond)
		}
	}
	if _, _, ok := DriverPTX(Toolkit{0, 5}); ok {
		t.Error("DriverPTX(0.5) found a PTX ISA version")
	}
}

// TestToolkitChips pins whole target lists where a source gives them.
func TestToolkitChips(t *testing.T) {
	plain := func(tk string) []string {
		var out []string
		for _, c := range mustToolkit(t, tk).Chips() {
			if c.Suffix == "" {
				out = append(out, strings.TrimPrefix(c.String(), "sm_"))
			}
		}
		return out
	}
	for _, tc := range []struct{ tk, want string }{
		// nvcc 11.0: sm_30/32 gone (clang: last 10.2), sm_80 new.
		{"11.0", "35 37 50 52 53 60 61 62 70 72 75 80"},
		// The 12.9 and 13.0 nvcc docs as compared in KegAlign#38; nvcc 13.0 --list-gpu-arch (KataGo#1115).
		{"12.9", "50 52 53 60 61 62 70 72 75 80 86 87 89 90 100 101 103 120 121"},
		{"13.0", "75 80 86 87 88 89 90 100 103 110 120 121"},
	} {
		if got := strings.Join(plain(tc.tk), " "); got != tc.want {
			t.Errorf("CUDA %s compiles %s; want %s", tc.tk, got, tc.want)
		}
	}
	if got := (Toolkit{12, 7}).Chips(); got != nil {
		t.Errorf("CUDA 12.7 compiles %v", got)
	}
	withSuffix := func(tk string) []string {
		var out []string
		for _, c := range mustToolkit(t, tk).Chips() {
			if c.Suffix != "" {
				out = append(out, c.String())
			}
		}
		return out
	}
	if got := withSuffix("12.4"); !slices.Equal(got, []string{"sm_90a"}) {
		t.Errorf("CUDA 12.4 suffixed targets %v", got)
	}
	if got := withSuffix("12.8"); !slices.Equal(got, []string{"sm_90a", "sm_100a", "sm_101a", "sm_120a"}) {
		t.Errorf("CUDA 12.8 suffixed targets %v", got)
	}
}
