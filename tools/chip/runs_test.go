package chip

import (
	"strings"
	"testing"
)

// img builds an image: "sm_90" is a cubin, "compute_90@8.4" PTX of ISA 8.4.
func img(t *testing.T, s string) Image {
	t.Helper()
	name, ver, hasVer := strings.Cut(s, "@")
	i := Image{Chip: mustChip(t, name)}
	if hasVer {
		i.PTX = mustPTX(t, ver)
	}
	return i
}

func runner(t *testing.T, c, driver string) Runner {
	t.Helper()
	r := Runner{Chip: mustChip(t, c)}
	if driver != "" {
		r.Driver = mustToolkit(t, driver)
	}
	return r
}

// TestH200GroundTruth reproduces what loaded on an H200 (sm_90) with driver 580 (CUDA 13.0).
func TestH200GroundTruth(t *testing.T) {
	h200 := runner(t, "sm_90", "13.0")
	for _, tc := range []struct {
		image string
		want  Load
	}{
		{"sm_75", NoLoad},
		{"sm_80", NoLoad},
		{"sm_86", NoLoad},
		{"sm_89", NoLoad},
		{"sm_90", ExactSASS},
		{"sm_90a", ExactSASS},
		{"compute_75@6.3", PTXJIT},
		{"compute_75@8.4", PTXJIT},
		{"compute_80@7.0", PTXJIT},
		{"compute_80@8.4", PTXJIT},
		{"compute_86@8.4", PTXJIT},
		{"compute_87@8.4", PTXJIT},
		{"compute_89@8.4", PTXJIT},
		{"compute_90@7.8", PTXJIT},
		{"compute_90@8.4", PTXJIT},
		{"compute_90@9.0", PTXJIT},
		{"compute_100@8.6", NoLoad},
		{"compute_100@9.0", NoLoad},
		{"compute_120@8.7", NoLoad},
		{"compute_120@9.0", NoLoad},
	} {
		v := RunsOn(Artifact{img(t, tc.image)}, h200)
		if v.Load != tc.want || v.Loads != (tc.want != NoLoad) {
			t.Errorf("%s on H200: %v (%s); want %v", tc.image, v.Load, v, tc.want)
		}
		if v.Loads && v.Pick != 0 || !v.Loads && v.Pick != -1 {
			t.Errorf("%s on H200: pick %d", tc.image, v.Pick)
		}
		if !v.Loads && (v.Fix == "" || !strings.Contains(v.Fix, "add sm_90")) {
			t.Errorf("%s on H200: fix %q does not say to add sm_90", tc.image, v.Fix)
		}
	}
}

func TestSuffixRules(t *testing.T) {
	for _, tc := range []struct {
		image, chip string
		want        Load
		why         string // part of the image's Why
	}{
		// 'a': exactly its chip.
		{"sm_90a", "sm_90", ExactSASS, ""},
		{"sm_90a", "sm_89", NoLoad, "runs only on sm_90"},
		{"sm_100a", "sm_100", ExactSASS, ""},
		{"sm_100a", "sm_103", NoLoad, "runs only on sm_100"},
		{"sm_120a", "sm_121", NoLoad, "runs only on sm_120"},
		{"compute_90a@8.0", "sm_90", PTXJIT, ""},
		{"compute_90a@8.0", "sm_100", NoLoad, "runs only on sm_90"},
		{"compute_90@8.0", "sm_100", PTXJIT, ""},
		// 'f': the family, equal or higher minor.
		{"sm_100f", "sm_100", ExactSASS, ""},
		{"sm_100f", "sm_103", CompatibleSASS, ""},
		{"sm_100f", "sm_101", NoLoad, "family sm_10x chips (sm_100, sm_103)"},
		{"sm_100f", "sm_110", NoLoad, "family sm_10x"},
		{"sm_100f", "sm_120", NoLoad, "family sm_10x"},
		{"sm_100f", "sm_90", NoLoad, "family sm_10x"},
		{"sm_103f", "sm_103", ExactSASS, ""},
		{"sm_103f", "sm_100", NoLoad, "10.3 or higher"},
		{"sm_120f", "sm_121", CompatibleSASS, ""},
		{"sm_121f", "sm_120", NoLoad, "12.1 or higher"},
		{"sm_110f", "sm_110", ExactSASS, ""},
		{"sm_101f", "sm_101", ExactSASS, ""},
		{"compute_100f@8.8", "sm_103", PTXJIT, ""},
		{"compute_100f@8.8", "sm_100", PTXJIT, ""},
		{"compute_100f@8.8", "sm_120", NoLoad, "family sm_10x"},
		{"compute_120f@8.8", "sm_121", PTXJIT, ""},
		{"compute_110f@9.0", "sm_120", NoLoad, "family sm_11x"},
		// Plain cubins: same major, equal or higher minor.
		{"sm_80", "sm_86", CompatibleSASS, ""},
		{"sm_80", "sm_89", CompatibleSASS, ""},
		{"sm_86", "sm_80", NoLoad, "8.6 or a higher 8.x"},
		{"sm_86", "sm_87", CompatibleSASS, ""},
		{"sm_100", "sm_103", CompatibleSASS, ""},
		{"sm_100", "sm_120", NoLoad, "10.x chips"},
		{"sm_120", "sm_121", CompatibleSASS, ""},
		{"sm_75", "sm_80", NoLoad, "7.x chips"},
		// Plain PTX: any chip at or above, across majors.
		{"compute_75@6.3", "sm_120", PTXJIT, ""},
		{"compute_100@8.6", "sm_120", PTXJIT, ""},
		{"compute_120@8.7", "sm_110", NoLoad, "12.0 or higher"},
		// A chip the table does not know (sm_107) still gets the rules; its family is its major's.
		{"compute_90@8.0", "sm_107", PTXJIT, ""},
		{"sm_100f", "sm_107", CompatibleSASS, ""},
	} {
		v := RunsOn(Artifact{img(t, tc.image)}, runner(t, tc.chip, "13.0"))
		if v.Load != tc.want {
			t.Errorf("%s on %s: %v (%s); want %v", tc.image, tc.chip, v.Load, v, tc.want)
			continue
		}
		if tc.why != "" && !strings.Contains(v.Images[0].Why, tc.why) {
			t.Errorf("%s on %s: why %q lacks %q", tc.image, tc.chip, v.Images[0].Why, tc.why)
		}
	}
}

func TestDriverAndPTX(t *testing.T) {
	for _, tc := range []struct {
		image, chip, driver string
		want                Load
		why, fix, note      string
	}{
		{"compute_90@9.0", "sm_90", "12.4", NoLoad, "PTX ISA 9.0 needs a driver of CUDA 13.0 or newer",
			"update the driver to CUDA 13.0 or newer", ""},
		{"compute_90@9.0", "sm_90", "12.4", NoLoad, "JIT-compiles PTX ISA 8.4 at most",
			"build compute_90 PTX at PTX ISA 7.8 to 8.4", ""},
		{"compute_90@8.4", "sm_90", "12.4", PTXJIT, "", "", ""},
		{"compute_90@8.4", "sm_90", "12.3", NoLoad, "needs a driver of CUDA 12.4", "", ""},
		{"compute_80@8.7", "sm_86", "12.6", NoLoad, "JIT-compiles PTX ISA 8.5 at most", "update the driver to CUDA 12.8", ""},
		{"compute_100@8.6", "sm_100", "12.7", PTXJIT, "", "", ""},
		{"compute_120@8.7", "sm_120", "12.8", PTXJIT, "", "", ""},
		{"compute_120@8.8", "sm_120", "12.8", NoLoad, "needs a driver of CUDA 12.9", "", ""},
		// Unknown driver: assumed new enough, and said so.
		{"compute_90@9.0", "sm_90", "", PTXJIT, "", "", "driver version unknown"},
		// Driver newer than the table.
		{"compute_90@9.1", "sm_90", "13.5", PTXJIT, "", "", ""},
		{"compute_90@9.3", "sm_90", "13.5", PTXJIT, "", "", "newer than the chip table"},
		{"compute_90@9.3", "sm_90", "13.0", NoLoad, "newer than the chip table knows", "", ""},
		// Unknown PTX ISA version of the image.
		{"compute_90", "sm_90", "12.4", PTXJIT, "", "", "PTX ISA version unknown"},
		// PTX older than its target allows.
		{"compute_90@7.0", "sm_90", "13.0", NoLoad, "older than compute_90 allows (7.8 or newer)", "", ""},
		// A driver older than the GPU: still judged, with a note.
		{"sm_100", "sm_100", "12.4", ExactSASS, "", "", "predates sm_100"},
	} {
		v := RunsOn(Artifact{img(t, tc.image)}, runner(t, tc.chip, tc.driver))
		if v.Load != tc.want {
			t.Errorf("%s on %s, driver %q: %v (%s); want %v", tc.image, tc.chip, tc.driver, v.Load, v, tc.want)
			continue
		}
		if tc.why != "" && !strings.Contains(v.Images[0].Why, tc.why) {
			t.Errorf("%s on %s, driver %q: why %q lacks %q", tc.image, tc.chip, tc.driver, v.Images[0].Why, tc.why)
		}
		if tc.fix != "" && !strings.Contains(v.Fix, tc.fix) {
			t.Errorf("%s on %s, driver %q: fix %q lacks %q", tc.image, tc.chip, tc.driver, v.Fix, tc.fix)
		}
		if tc.note != "" && !strings.Contains(strings.Join(v.Notes, "\n"), tc.note) {
			t.Errorf("%s on %s, driver %q: notes %q lack %q", tc.image, tc.chip, tc.driver, v.Notes, tc.note)
		}
	}
}

func TestCubinToolkitAndDriver(t *testing.T) {
	cubin := func(tk string) Image {
		return Image{Chip: mustChip(t, "sm_90"), Toolkit: mustToolkit(t, tk), ELF: ELF{1, 8}}
	}
	for _, tc := range []struct {
		tk, driver string
		want       Load
	}{
		{"13.0", "13.0", ExactSASS},
		{"13.0", "12.8", NoLoad},
		{"12.8", "12.0", ExactSASS}, // minor version compatibility
		{"12.8", "11.8", NoLoad},
		{"11.8", "13.0", ExactSASS},
		{"13.0", "", ExactSASS},
	} {
		v := RunsOn(Artifact{cubin(tc.tk)}, runner(t, "sm_90", tc.driver))
		if v.Load != tc.want {
			t.Errorf("CUDA %s cubin on driver %q: %v (%s); want %v", tc.tk, tc.driver, v.Load, v, tc.want)
		}
		if v.Load == NoLoad && !strings.Contains(v.Fix, "update the driver to CUDA "+tc.tk[:strings.Index(tc.tk, ".")]+".0") {
			t.Errorf("CUDA %s cubin on driver %q: fix %q", tc.tk, tc.driver, v.Fix)
		}
	}
}

// TestPick checks which image the driver would take.
func TestPick(t *testing.T) {
	for _, tc := range []struct {
		images []string
		chip   string
		pick   int
		load   Load
	}{
		// SASS over PTX, even PTX of the exact chip.
		{[]string{"compute_90@9.0", "sm_80", "sm_90"}, "sm_90", 2, ExactSASS},
		{[]string{"sm_80", "compute_86@8.4"}, "sm_86", 0, CompatibleSASS},
		// The highest compatible cubin.
		{[]string{"sm_80", "sm_86"}, "sm_89", 1, CompatibleSASS},
		{[]string{"sm_86", "sm_80"}, "sm_86", 0, ExactSASS},
		// The highest PTX at or below the chip.
		{[]string{"compute_75@8.4", "compute_90@8.4", "compute_80@8.4", "compute_100@8.6"}, "sm_90", 1, PTXJIT},
		// At equal chips: 'a', then 'f', then plain (unverified tie-break, see table.go).
		{[]string{"sm_90", "sm_90a"}, "sm_90", 1, ExactSASS},
		{[]string{"sm_100", "sm_100f", "sm_100a"}, "sm_100", 2, ExactSASS},
		{[]string{"sm_100", "sm_100f", "sm_100a"}, "sm_103", 1, CompatibleSASS},
		// A fatbin like the H200 test's: SASS for the chip wins.
		{[]string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "compute_75@8.4", "compute_90@8.4", "compute_100@8.6"}, "sm_90", 4, ExactSASS},
		{[]string{"sm_75", "sm_80", "sm_86", "sm_89", "compute_75@8.4", "compute_90@8.4", "compute_100@8.6"}, "sm_90", 5, PTXJIT},
	} {
		var a Artifact
		for _, s := range tc.images {
			a = append(a, img(t, s))
		}
		v := RunsOn(a, runner(t, tc.chip, "13.0"))
		if v.Pick != tc.pick || v.Load != tc.load || !v.Loads {
			t.Errorf("%v on %s: pick %d (%v), want %d (%v): %s", tc.images, tc.chip, v.Pick, v.Load, tc.pick, tc.load, v)
		}
		if len(v.Images) != len(a) {
			t.Errorf("%v: %d image verdicts", tc.images, len(v.Images))
		}
		if !strings.Contains(v.Reason, a[tc.pick].String()) {
			t.Errorf("%v: reason %q does not name the picked image", tc.images, v.Reason)
		}
	}
}

func TestFix(t *testing.T) {
	for _, tc := range []struct {
		images        []string
		chip, driver  string
		want, notWant []string
	}{
		{[]string{"sm_80", "sm_86"}, "sm_90", "13.0",
			[]string{"add sm_90 to the chips (CUDA 11.8 or newer)", "embed compute_86 PTX", "PTX ISA 9.0 or older"}, nil},
		{[]string{"compute_100@8.6"}, "sm_90", "13.0", []string{"add sm_90", "embed compute_90 PTX"}, []string{"update the driver"}},
		{[]string{"sm_90a"}, "sm_100", "", []string{"add sm_100", "embed compute_90 PTX"}, []string{"PTX ISA"}},
		{[]string{"sm_75"}, "sm_70", "12.9", []string{"add sm_70 to the chips (CUDA 9.0 to 12.9 can build it)", "embed compute_70 PTX"}, nil},
		{[]string{"sm_90"}, "sm_101", "12.9", []string{"add sm_101", "from CUDA 13.0 it is sm_110"}, nil},
		{[]string{"sm_90"}, "sm_107", "13.0", []string{"add sm_107 to the chips (not in the chip table yet)"}, nil},
		{[]string{"compute_90@9.0"}, "sm_90", "12.4",
			[]string{"add sm_90", "build compute_90 PTX at PTX ISA 7.8 to 8.4", "update the driver to CUDA 13.0"},
			[]string{"embed"}},
		// The PTX needs more than the driver knows and cannot be lowered far enough.
		{[]string{"compute_100@8.8"}, "sm_100", "12.7",
			[]string{"build compute_100 PTX at PTX ISA 8.6 to 8.6", "update the driver to CUDA 12.9"}, nil},
		{[]string{"compute_100f@8.8"}, "sm_100", "12.8",
			[]string{"update the driver to CUDA 12.9"}, []string{"build compute_100f"}},
	} {
		var a Artifact
		for _, s := range tc.images {
			a = append(a, img(t, s))
		}
		v := RunsOn(a, runner(t, tc.chip, tc.driver))
		if v.Loads {
			t.Errorf("%v on %s loads: %s", tc.images, tc.chip, v)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(v.Fix, w) {
				t.Errorf("%v on %s: fix %q lacks %q", tc.images, tc.chip, v.Fix, w)
			}
		}
		for _, w := range tc.notWant {
			if strings.Contains(v.Fix, w) {
				t.Errorf("%v on %s: fix %q has %q", tc.images, tc.chip, v.Fix, w)
			}
		}
		if !strings.Contains(v.String(), "fix: ") || !strings.HasPrefix(v.Reason, "does not load on "+tc.chip) {
			t.Errorf("%v on %s: %q", tc.images, tc.chip, v)
		}
	}
}

func TestRunsOnEdges(t *testing.T) {
	v := RunsOn(nil, runner(t, "sm_90", "13.0"))
	if v.Loads || v.Pick != -1 || !strings.Contains(v.Reason, "no images") || !strings.Contains(v.Fix, "add sm_90") {
		t.Errorf("empty artifact: %s", v)
	}
	for _, bad := range []string{"sm_90a", "compute_90", "sm_100f"} {
		v := RunsOn(Artifact{img(t, "sm_90")}, runner(t, bad, "13.0"))
		if v.Loads || !strings.Contains(v.Reason, "not a GPU") {
			t.Errorf("runner %s: %s", bad, v)
		}
	}
	if v := RunsOn(Artifact{img(t, "sm_90")}, Runner{}); v.Loads {
		t.Errorf("zero runner: %s", v)
	}
	if s := (Runner{Chip: mustChip(t, "sm_90"), Driver: Toolkit{13, 0}}).String(); s != "sm_90 (driver CUDA 13.0)" {
		t.Errorf("Runner.String = %q", s)
	}
	if s := img(t, "compute_90@8.4").String(); s != "compute_90 PTX (ISA 8.4)" {
		t.Errorf("Image.String = %q", s)
	}
	for l, want := range map[Load]string{NoLoad: "does not load", ExactSASS: "exact SASS", CompatibleSASS: "compatible SASS", PTXJIT: "PTX JIT"} {
		if l.String() != want {
			t.Errorf("Load(%d).String() = %q", l, l.String())
		}
	}
}

func TestUnknownFamilyMessage(t *testing.T) {
	v := RunsOn(Artifact{img(t, "sm_130f")}, runner(t, "sm_120", "13.0"))
	if v.Loads || !strings.Contains(v.Images[0].Why, "runs only on family sm_13x chips of compute capability 13.0") {
		t.Errorf("sm_130f on sm_120: %s", v)
	}
}

// Every command line reads chip lists and runners the same way: spaces after commas accepted,
// empty entries and duplicates refused, runners GPUs only, drivers the table knows.
func TestParseRunnersAndLists(t *testing.T) {
	for _, tc := range []struct {
		list, driver string
		want         string // the runners, or the error
	}{
		{"sm_80,sm_90", "", "sm_80 (driver unknown) sm_90 (driver unknown)"},
		{"sm_80, sm_90", "12.4", "sm_80 (driver CUDA 12.4) sm_90 (driver CUDA 12.4)"},
		{"sm_90,sm_90", "", "chip sm_90 is listed twice in --runs-on: name each chip once"},
		{"sm_80,,sm_90", "", `--runs-on "sm_80,,sm_90": an empty chip name; write chips like sm_80,sm_90`},
		{" ", "", "--runs-on: no runners given; name the GPUs, e.g. sm_80,sm_90"},
		{"sm_90a", "", "--runs-on: runner sm_90a is a target, not a GPU: a runner is a GPU, named by its compute capability (sm_90); code for sm_90a runs on sm_90 GPUs"},
		{"sm_90", "99.0", `--driver 99.0: no driver reports CUDA 99.0 in the chip table, which knows drivers of CUDA 1.0 to 13.1 (nvidia-smi's "CUDA Version"; docs/chips.md); give one of them, or, for a newer driver, add its CUDA release to tools/chip/table.go`},
		{"sm_90", "banana", `--driver banana: bad CUDA version "banana": not MAJOR.MINOR; want MAJOR.MINOR such as 12.4`},
	} {
		rs, err := ParseRunners(tc.list, "--runs-on", tc.driver, "--driver")
		var got []string
		for _, r := range rs {
			got = append(got, r.String())
		}
		g := strings.Join(got, " ")
		if err != nil {
			g = err.Error()
		}
		if !strings.HasPrefix(g, tc.want) {
			t.Errorf("ParseRunners(%q, %q) = %s; want %s", tc.list, tc.driver, g, tc.want)
		}
	}
	if _, err := ParseList("sm_80, sm_8", "--chips"); err == nil || err.Error() != `--chips: unknown chip "sm_8": chips are named like sm_80, sm_90a or compute_90` {
		t.Errorf("ParseList: %v", err)
	}
}
