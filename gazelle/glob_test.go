package gazelle

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pat, p string
		want   bool
	}{
		{"*.h", "a.h", true},
		{"*.h", "sub/a.h", false},
		{"**/*.h", "a.h", true},
		{"**/*.h", "x/y/a.h", true},
		{"include/**", "include/a/b.h", true},
		{"include/**", "include", true},
		{"include/**/*.cuh", "include/k.cuh", true},
		{"include/**/*.cuh", "include/a/k.h", false},
		{"a?.h", "ab.h", true},
		{"[", "[", false},
	} {
		if got := globMatch(tc.pat, tc.p); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.pat, tc.p, got, tc.want)
		}
	}
}

// A glob() in hdrs is evaluated over the package's files (excludes and subpackages left out, a +
// with a list added), and every header it gives is indexed as a listed one is.
func TestImportsOfGlob(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"lib/include/lib/a.h", "lib/include/lib/sub/b.cuh", "lib/include/internal/c.h", "lib/sub/BUILD.bazel", "lib/sub/d.h", "lib/e.h", "lib/notes.txt"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := `cc_library(
    name = "l",
    hdrs = glob(["include/**/*.h", "include/**/*.cuh", "**/*.h"], exclude = ["include/internal/**"]) + ["extra.h"],
    includes = ["include"],
)`
	f, err := rule.LoadData(filepath.Join(root, "lib", "BUILD.bazel"), "lib", []byte(build))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range NewLanguage().(*gpuLang).Imports(config.New(), f.Rules[0], f) {
		got = append(got, s.Imp)
	}
	want := []string{"lib/e.h", "lib/include/lib/a.h", "lib/a.h", "lib/include/lib/sub/b.cuh", "lib/sub/b.cuh", "lib/extra.h"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Imports = %q, want %q", got, want)
	}
}
