package modules

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// dir makes a directory holding files (names; a name ending in / is a directory).
func dir(t *testing.T, files ...string) string {
	t.Helper()
	d := t.TempDir()
	for _, f := range files {
		p := filepath.Join(d, f)
		var err error
		if strings.HasSuffix(f, "/") {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte(f), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		exts  []string
		want  []string // module names
		err   string
	}{
		{"sorted", []string{"zeta.ll", "alpha.ll", "main_kernel.ptx"}, []string{".ll", ".bc", ".ptx"}, []string{"alpha", "main_kernel", "zeta"}, ""},
		{"a dotted name", []string{"k.v2.fatbin"}, []string{".fatbin"}, []string{"k.v2"}, ""},
		{"another extension", []string{"a.fatbin", "README"}, []string{".fatbin"}, nil, "README: not a module of the program (NAME.fatbin)"},
		{"a hidden file", []string{".a.ll"}, []string{".ll", ".bc", ".ptx"}, nil, ".a.ll: not a module of the program (NAME.ll, NAME.bc or NAME.ptx)"},
		{"a directory", []string{"sub.ll/"}, []string{".ll"}, nil, "sub.ll: not a module of the program"},
		{"two files of one module", []string{"a.cubin", "a.ptx"}, []string{".cubin", ".ptx"}, nil, ": two files of module a"},
		{"empty", nil, []string{".ll"}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mods, err := Read(dir(t, tc.files...), tc.exts...)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Read: %v, %v; want an error containing %q", mods, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, m := range mods {
				names = append(names, m.Name)
				if filepath.Base(m.Path) == "" || !strings.HasPrefix(filepath.Base(m.Path), m.Name+".") {
					t.Errorf("module %s: path %s", m.Name, m.Path)
				}
			}
			if !reflect.DeepEqual(names, tc.want) {
				t.Errorf("Read: %v, want %v", names, tc.want)
			}
		})
	}
}

func TestJoin(t *testing.T) {
	sm80 := dir(t, "a.cubin", "b.cubin", "c.cubin")
	ptx := dir(t, "a.ptx", "b.ptx", "c.ptx")
	missing := dir(t, "a.cubin", "b.cubin")
	other := dir(t, "a.cubin", "b.cubin", "x.cubin")
	names, files, err := Join([]string{sm80, ptx}, ".cubin", ".ptx")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(names, []string{"a", "b", "c"}) {
		t.Errorf("names %v", names)
	}
	if want := []string{filepath.Join(sm80, "b.cubin"), filepath.Join(ptx, "b.ptx")}; !reflect.DeepEqual(files[1], want) {
		t.Errorf("files of b: %v, want %v", files[1], want)
	}
	for _, tc := range []struct {
		name string
		dirs []string
		want string
	}{
		{"a module missing", []string{sm80, missing}, missing + " holds 2 modules, " + sm80 + " 3: link the directories of one program"},
		{"another module", []string{sm80, other}, other + " has no file of module c, which " + sm80 + " has: link the directories of one program"},
		{"none", nil, "no directory of modules"},
	} {
		if _, _, err := Join(tc.dirs, ".cubin", ".ptx"); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestPlace(t *testing.T) {
	tmp := dir(t, "a.ll", "b.ll")
	out := filepath.Join(t.TempDir(), "out", "llvm")
	files := map[string]string{"a.ll": filepath.Join(tmp, "a.ll"), "b.ll": filepath.Join(tmp, "b.ll")}
	if err := Place(out, files); err != nil {
		t.Fatal(err)
	}
	if mods, err := Read(out, ".ll"); err != nil || len(mods) != 2 {
		t.Fatalf("after Place: %v, %v", mods, err)
	}
	// A directory holding a file this step does not write is refused, and nothing moves.
	stray := dir(t, "old.ll")
	tmp2 := dir(t, "a.ll")
	err := Place(stray, map[string]string{"a.ll": filepath.Join(tmp2, "a.ll")})
	if err == nil || !strings.Contains(err.Error(), "holds old.ll, which is not a module of this program") {
		t.Fatalf("Place into a directory with a stray file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tmp2, "a.ll")); err != nil {
		t.Errorf("the file moved although Place failed: %v", err)
	}
}

func TestCheckName(t *testing.T) {
	for name, ok := range map[string]bool{"main_kernel": true, "k.v2": true, "my kernels": false, "a/b": false} {
		if err := CheckName(name); (err == nil) != ok {
			t.Errorf("CheckName(%q) = %v, want ok %v", name, err, ok)
		}
	}
}
