package symvers

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

func TestParseAndOrder(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		less bool
	}{
		{"GLIBC_2.9", "GLIBC_2.34", true},
		{"GLIBC_2.34", "GLIBC_2.34", false},
		{"GLIBC_2.39", "GLIBC_2.38", false},
		{"GLIBCXX_3.4", "GLIBCXX_3.4.30", true},
		{"GLIBCXX_3.4.33", "GLIBCXX_3.4.9", false},
	} {
		a, err := Parse(tc.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Parse(tc.b)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Less(b); got != tc.less {
			t.Errorf("%s < %s = %v, want %v", tc.a, tc.b, got, tc.less)
		}
		if a.String() != tc.a {
			t.Errorf("Parse(%q).String() = %q", tc.a, a)
		}
	}
	for _, bad := range []string{"GLIBC", "GLIBC_", "_2.3", "GLIBC_2.x", "2.39"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}

func TestCheck(t *testing.T) {
	needs := []Need{
		{Library: "libc.so.6", Version: Version{"GLIBC", []int{2, 43}}, Symbols: []string{"sqrtf"}},
		{Library: "libstdc++.so.6", Version: Version{"GLIBCXX", []int{3, 4, 30}}, Symbols: []string{"a", "b", "c", "d"}},
	}
	has := []Version{{"GLIBC", []int{2, 39}}, {"GLIBCXX", []int{3, 4, 33}}}
	got := Check(needs, has)
	if len(got) != 1 || got[0] != "needs GLIBC_2.43 (libc.so.6: sqrtf), the runners have GLIBC_2.39" {
		t.Errorf("Check = %q", got)
	}
	has[1] = Version{"GLIBCXX", []int{3, 4, 29}}
	got = Check(needs, has)
	if len(got) != 2 || !strings.Contains(got[1], "a, b, c and 1 more") {
		t.Errorf("Check = %q", got)
	}
	if got := Check(needs, nil); got != nil {
		t.Errorf("Check with no runner versions = %q, want nothing", got)
	}
}

// TestRead builds a real program with the machine's C compiler: it needs some GLIBC version, and
// the newest one it needs is the one Check compares.
func TestRead(t *testing.T) {
	cc := testtool.Find(t, "CC", "cc")
	dir := t.TempDir()
	src := filepath.Join(dir, "p.c")
	if err := os.WriteFile(src, []byte("#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "p")
	if out, err := exec.Command(cc, src, "-o", prog).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	needs, err := Read(prog)
	if err != nil {
		t.Fatal(err)
	}
	var glibc *Need
	for i := range needs {
		if needs[i].Version.Family == "GLIBC" {
			glibc = &needs[i]
		}
	}
	if glibc == nil || glibc.Library != "libc.so.6" || len(glibc.Symbols) == 0 {
		t.Fatalf("Read(%s) = %+v, want a GLIBC version of libc.so.6", prog, needs)
	}
	if p := Check(needs, []Version{{"GLIBC", []int{2, 0}}}); len(p) != 1 {
		t.Errorf("against GLIBC_2.0: %q, want one problem", p)
	}
	if p := Check(needs, []Version{glibc.Version}); p != nil {
		t.Errorf("against its own newest version %s: %q, want none", glibc.Version, p)
	}
	if _, err := Read(src); err == nil {
		t.Error("Read of a C source succeeded")
	}
	libs, err := Libraries(prog)
	if err != nil || !slices.Contains(libs, "libc.so.6") {
		t.Errorf("Libraries(%s) = %q (%v), want libc.so.6 among them", prog, libs, err)
	}
	if p := CheckLibraries(libs, nil); p != nil {
		t.Errorf("a program of the C runtime alone: %q, want no problem", p)
	}
}

// CheckLibraries: the C and C++ runtime and the driver need no declaration; another library must
// be one the runners are declared to have.
func TestCheckLibraries(t *testing.T) {
	needed := []string{"libcublas.so.12", "libstdc++.so.6", "libcuda.so.1", "libc.so.6", "libomp.so.5"}
	got := CheckLibraries(needed, []string{"libomp.so.5"})
	if len(got) != 1 || !strings.HasPrefix(got[0], "needs libcublas.so.12, a shared library") {
		t.Errorf("CheckLibraries = %q, want libcublas.so.12's problem alone", got)
	}
	if got := CheckLibraries(needed, []string{"libomp.so.5", "libcublas.so.12"}); got != nil {
		t.Errorf("with both declared: %q", got)
	}
	for _, s := range []string{"libcublas.so.13", "libfoo.so"} {
		if !IsLibrary(s) {
			t.Errorf("IsLibrary(%q) = false", s)
		}
	}
	if IsLibrary("GLIBC_2.39") {
		t.Error("IsLibrary(GLIBC_2.39) = true")
	}
}

// Merge keeps the newest need of each family, naming the shipped library a newer one comes from.
func TestMerge(t *testing.T) {
	prog := []Need{
		{Library: "libc.so.6", Version: Version{"GLIBC", []int{2, 34}}, Symbols: []string{"a"}},
		{Library: "libstdc++.so.6", Version: Version{"GLIBCXX", []int{3, 4, 30}}, Symbols: []string{"b"}},
	}
	lib := []Need{
		{Library: "libc.so.6", Version: Version{"GLIBC", []int{2, 38}}, Symbols: []string{"__isoc23_strtol"}},
		{Library: "libstdc++.so.6", Version: Version{"GLIBCXX", []int{3, 4, 9}}, Symbols: []string{"c"}},
		{Library: "libgcc_s.so.1", Version: Version{"GCC", []int{3, 0}}, Symbols: []string{"d"}},
	}
	got := Merge(prog, lib, "libomp.so.5")
	var lines []string
	for _, n := range got {
		lines = append(lines, n.Version.String()+" "+n.Library)
	}
	want := []string{"GCC_3.0 libgcc_s.so.1 for libomp.so.5", "GLIBC_2.38 libc.so.6 for libomp.so.5", "GLIBCXX_3.4.30 libstdc++.so.6"}
	if !slices.Equal(lines, want) {
		t.Errorf("Merge = %q, want %q", lines, want)
	}
	if p := Check(got, []Version{{"GLIBC", []int{2, 36}}}); len(p) != 1 || !strings.Contains(p[0], "needs GLIBC_2.38 (libc.so.6 for libomp.so.5: __isoc23_strtol)") {
		t.Errorf("Check of the merged needs against GLIBC_2.36 = %q", p)
	}
}

// Soname reads a shared library's DT_SONAME, and falls back to the file's name.
func TestSoname(t *testing.T) {
	cc := testtool.Find(t, "CC", "cc")
	dir := t.TempDir()
	src := filepath.Join(dir, "l.c")
	if err := os.WriteFile(src, []byte("int f(void) { return 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ flags, file, want string }{
		{"-Wl,-soname,libl.so.7", "libl.so.7.1", "libl.so.7"},
		{"", "libm2.so", "libm2.so"},
	} {
		out := filepath.Join(dir, tc.file)
		args := []string{"-shared", "-fPIC", "-o", out, src}
		if tc.flags != "" {
			args = append(args, tc.flags)
		}
		if b, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", cc, err, b)
		}
		if got, err := Soname(out); err != nil || got != tc.want {
			t.Errorf("Soname(%s) = %q (%v), want %q", tc.file, got, err, tc.want)
		}
	}
	if _, err := Soname(src); err == nil {
		t.Error("Soname of a C source succeeded")
	}
}
