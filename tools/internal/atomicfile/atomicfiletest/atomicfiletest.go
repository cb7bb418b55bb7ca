// Package atomicfiletest makes the outputs that tests of file-writing code point it at: a regular
// file, a FIFO read concurrently, symbolic links, /dev/null. After the write, each says what it
// received and checks that the file is still what it was (a FIFO is still a FIFO, /dev/null still a
// character device, a link still a link): the writer wrote through it instead of replacing it.
package atomicfiletest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Kind is one kind of output; New makes one in a fresh directory of t.
type Kind struct {
	Name string
	New  func(t testing.TB) *Output
}

// Output is an output made by a Kind.
type Output struct {
	// Path is the name to give the code under test.
	Path string
	// Discards is true for /dev/null: nothing written can be read back.
	Discards bool
	done     func(t testing.TB) []byte
}

// Done is called after the write, once: it returns what the output received (nil for /dev/null)
// and fails t if the file at Path is no longer the kind it was.
func (o *Output) Done(t testing.TB) []byte {
	t.Helper()
	return o.done(t)
}

// Kinds are the outputs to try: a regular file, a FIFO, a symbolic link to a regular file, a link
// to nothing, /dev/null itself, and a link to /dev/null. /dev/null is the only device node used.
func Kinds() []Kind {
	return []Kind{
		{"regular file", regular},
		{"FIFO", fifo},
		{"symlink", symlink},
		{"dangling symlink", dangling},
		{"/dev/null", devNull},
		{"symlink to /dev/null", linkDevNull},
	}
}

func regular(t testing.TB) *Output {
	p := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(p, []byte("old content, longer than some outputs\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return &Output{Path: p, done: func(t testing.TB) []byte {
		t.Helper()
		info := mustLstat(t, p)
		if !info.Mode().IsRegular() || info.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v after the write, want a regular file with mode 0600", p, info.Mode())
		}
		noTemp(t, filepath.Dir(p), 1)
		return readFile(t, p)
	}}
}

// fifo makes a FIFO and reads it from the start, without blocking, until Done: the reader holds
// the FIFO open, so a writer's open never waits, and reads as data comes, so a writer never waits
// for room. A write that replaces the FIFO instead (a rename) leaves the reader with the old FIFO,
// which receives nothing.
func fifo(t testing.TB) *Output {
	p := filepath.Join(t.TempDir(), "out.fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	got := make(chan []byte, 1)
	go func() {
		defer syscall.Close(fd)
		var data []byte
		buf := make([]byte, 64<<10)
		for {
			// Whether the code under test had returned is looked at before the read: an end of
			// file read before it wrote, seen only after it returned, must not end the reading.
			returned := false
			select {
			case <-stop:
				returned = true
			default:
			}
			n, err := syscall.Read(fd, buf)
			if n > 0 {
				data = append(data, buf[:n]...)
				continue
			}
			if returned && err == nil { // end of file: no writer left, and none will come
				got <- data
				return
			}
			time.Sleep(time.Millisecond) // no data yet (EAGAIN), or no writer yet (end of file)
		}
	}()
	var data []byte
	finished := false
	finish := func() []byte {
		if !finished {
			finished = true
			close(stop)
			select {
			case data = <-got:
			case <-time.After(time.Minute):
				t.Errorf("%s: a writer still holds the FIFO open", p)
			}
		}
		return data
	}
	t.Cleanup(func() { finish() })
	return &Output{Path: p, done: func(t testing.TB) []byte {
		t.Helper()
		data := finish()
		if info := mustLstat(t, p); info.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("%s is no longer a FIFO: %v", p, info.Mode())
		}
		noTemp(t, filepath.Dir(p), 1)
		return data
	}}
}

func symlink(t testing.TB) *Output {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target"), filepath.Join(dir, "out")
	if err := os.WriteFile(target, []byte("old content, longer than some outputs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target", link); err != nil {
		t.Fatal(err)
	}
	return &Output{Path: link, done: func(t testing.TB) []byte {
		t.Helper()
		checkLink(t, link, "target")
		if info := mustLstat(t, target); !info.Mode().IsRegular() {
			t.Errorf("%s: %v, want a regular file", target, info.Mode())
		}
		noTemp(t, dir, 2)
		return readFile(t, target)
	}}
}

func dangling(t testing.TB) *Output {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "out")
	if err := os.Symlink("sub/target", link); err != nil {
		t.Fatal(err)
	}
	return &Output{Path: link, done: func(t testing.TB) []byte {
		t.Helper()
		checkLink(t, link, "sub/target")
		noTemp(t, filepath.Join(dir, "sub"), 1)
		data, err := os.ReadFile(filepath.Join(dir, "sub", "target"))
		if err != nil {
			t.Errorf("the link's target was not written: %v", err)
		}
		return data
	}}
}

func devNull(t testing.TB) *Output {
	checkDevNull(t)
	return &Output{Path: os.DevNull, Discards: true, done: func(t testing.TB) []byte {
		t.Helper()
		checkDevNull(t)
		return nil
	}}
}

func linkDevNull(t testing.TB) *Output {
	checkDevNull(t)
	dir := t.TempDir()
	link := filepath.Join(dir, "out")
	if err := os.Symlink(os.DevNull, link); err != nil {
		t.Fatal(err)
	}
	return &Output{Path: link, Discards: true, done: func(t testing.TB) []byte {
		t.Helper()
		checkLink(t, link, os.DevNull)
		checkDevNull(t)
		noTemp(t, dir, 1)
		return nil
	}}
}

// checkDevNull fails t unless /dev/null is a character device that reads as empty.
func checkDevNull(t testing.TB) {
	t.Helper()
	info, err := os.Lstat(os.DevNull)
	if err != nil || info.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is not a character device: %v %v", os.DevNull, info, err)
	}
	if data, err := os.ReadFile(os.DevNull); err != nil || len(data) != 0 {
		t.Fatalf("%s reads %q, %v", os.DevNull, data, err)
	}
}

func checkLink(t testing.TB, link, want string) {
	t.Helper()
	if got, err := os.Readlink(link); err != nil || got != want {
		t.Errorf("%s is no longer a link to %s: %q, %v", link, want, got, err)
	}
}

// noTemp fails t unless dir holds n entries: no temporary file was left behind.
func noTemp(t testing.TB, dir string, n int) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != n {
		var names bytes.Buffer
		for _, e := range entries {
			names.WriteString(" " + e.Name())
		}
		t.Errorf("%s holds%s; want %d entries (a temporary file left behind?)", dir, names.String(), n)
	}
}

func mustLstat(t testing.TB, p string) fs.FileInfo {
	t.Helper()
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

func readFile(t testing.TB, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
