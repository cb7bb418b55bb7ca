package atomicfile_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile/atomicfiletest"
)

// Every kind of output receives the data and stays what it was; a FIFO takes more than its
// buffer holds.
func TestWrite(t *testing.T) {
	for _, data := range [][]byte{[]byte("new\n"), []byte(strings.Repeat("0123456789abcdef", 1<<16))} {
		for _, k := range atomicfiletest.Kinds() {
			t.Run(fmt.Sprintf("%s/%d bytes", k.Name, len(data)), func(t *testing.T) {
				out := k.New(t)
				if err := atomicfile.Write(out.Path, data); err != nil {
					t.Fatal(err)
				}
				if got := out.Done(t); !out.Discards && string(got) != string(data) {
					t.Errorf("the output holds %d bytes, want %d", len(got), len(data))
				}
			})
		}
	}
}

// A new file gets mode 0644; nothing else appears in its directory.
func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "new")
	if err := atomicfile.Write(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil || info.Mode() != 0o644 {
		t.Errorf("new file: %v %v, want mode 0644", info, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %v", entries)
	}
}

// A link into /proc (the kernel's handle of an open file: /dev/stdout, /dev/fd/N) is written
// through, appending to what the descriptor's file holds: here a pipe and a file opened for
// appending, both this process's own descriptors.
func TestWriteProcLink(t *testing.T) {
	if _, err := os.Stat("/dev/fd/0"); err != nil {
		t.Skipf("no /dev/fd: %v", err)
	}
	t.Run("pipe", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		got := make(chan string)
		go func() { b, _ := io.ReadAll(r); got <- string(b) }()
		err = atomicfile.Write("/dev/fd/"+strconv.Itoa(int(w.Fd())), []byte("through a pipe\n"))
		w.Close()
		if s := <-got; err != nil || s != "through a pipe\n" {
			t.Errorf("wrote %q, %v", s, err)
		}
	})
	t.Run("file opened for appending", func(t *testing.T) {
		log := filepath.Join(t.TempDir(), "log")
		if err := os.WriteFile(log, []byte("earlier lines\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		before, _ := os.Stat(log)
		if err := atomicfile.Write("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), []byte("output\n")); err != nil {
			t.Fatal(err)
		}
		after, _ := os.Stat(log)
		if got, _ := os.ReadFile(log); string(got) != "earlier lines\noutput\n" || !os.SameFile(before, after) {
			t.Errorf("the log holds %q (same file: %v)", got, os.SameFile(before, after))
		}
	})
}

// Errors name the path, change nothing and leave no temporary file.
func TestWriteErrors(t *testing.T) {
	dir := t.TempDir()
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, want string
	}{
		{"directory", dir, "is a directory"},
		{"missing directory", filepath.Join(dir, "no", "such"), "no such file or directory"},
		{"link loop", loop, "too many levels of symbolic links"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := atomicfile.Write(tc.path, []byte("x"))
			if err == nil || !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming %s and saying %q", err, tc.path, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("the directory holds %v", entries)
			}
		})
	}
}

// WriteAll replaces nothing when one of its files cannot be prepared.
func TestWriteAllNothingOnError(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	if err := os.WriteFile(a, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := atomicfile.WriteAll(atomicfile.File{Path: a, Data: []byte("new")}, atomicfile.File{Path: dir, Data: []byte("new")})
	if err == nil {
		t.Fatal("no error for a directory")
	}
	if got, _ := os.ReadFile(a); string(got) != "old" {
		t.Errorf("a holds %q after a failed WriteAll", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %v", entries)
	}
	b := filepath.Join(dir, "b")
	if err := atomicfile.WriteAll(atomicfile.File{Path: a, Data: []byte("A")}, atomicfile.File{Path: b, Data: []byte("B")}); err != nil {
		t.Fatal(err)
	}
	if ga, _ := os.ReadFile(a); string(ga) != "A" {
		t.Errorf("a holds %q", ga)
	}
	if gb, _ := os.ReadFile(b); string(gb) != "B" {
		t.Errorf("b holds %q", gb)
	}
}

// WorkDir is the output's directory when the output is replaced by a rename, else the system's
// temporary directory.
func TestWorkDir(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/x", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(os.DevNull, filepath.Join(dir, "null")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "absent"), dir},
		{filepath.Join(dir, "link"), sub},
		{os.DevNull, os.TempDir()},
		{filepath.Join(dir, "null"), os.TempDir()},
		{"/dev/stdout", os.TempDir()},
	} {
		if got := atomicfile.WorkDir(tc.path); got != tc.want {
			t.Errorf("WorkDir(%s) = %s, want %s", tc.path, got, tc.want)
		}
	}
}

func TestOutput(t *testing.T) {
	var b strings.Builder
	if err := atomicfile.Output("-", &b, []byte("x")); err != nil || b.String() != "x" {
		t.Errorf(`Output("-") = %v, wrote %q`, err, b.String())
	}
	if err := atomicfile.Output("-", nil, []byte("x")); err == nil {
		t.Error(`Output("-") without a writer succeeded`)
	}
	path := filepath.Join(t.TempDir(), "out")
	if err := atomicfile.Output(path, nil, []byte("y")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "y" {
		t.Errorf("Output(%s) wrote %q", path, got)
	}
	tmp, err := atomicfile.MkdirTemp(path)
	if err != nil || filepath.Dir(tmp) != filepath.Dir(path) {
		t.Errorf("MkdirTemp(%s) = %s, %v: want a directory beside it", path, tmp, err)
	}
	os.RemoveAll(tmp)
}
