// Package atomicfile writes output files so that writing cannot hurt: a reader of the file sees its
// old content or all of the new one, never a part, and a name that is not a regular file — a device
// such as /dev/null, a FIFO, /dev/stdout — is written to, never deleted or replaced.
//
// What the path names decides how it is written:
//
//   - nothing, or a regular file: the data goes to a temporary file in the same directory, which is
//     then renamed over the path. An existing file keeps its permissions (a new one gets 0644) and
//     its new content is synced to disk before the rename, so that even a crash leaves the old content
//     or the new; a hard link to the old file keeps the old content, as with any rename. On error
//     the temporary file is removed and the path keeps its old state.
//   - a symbolic link: followed, and the link is kept. A link to a regular file, or one that points
//     to nothing yet, has its target written as above. The kernel's links to open files
//     (/dev/stdout, /dev/fd/N, /proc/self/fd/N: links that lead into /proc) are written through
//     instead, since the file behind them is shared with whoever opened it (a shell's "> out" or
//     ">> log"): it is opened for appending and written, as if by the descriptor itself.
//   - anything else that can be opened for writing (a character device such as /dev/null, a FIFO, a
//     terminal): opened for writing and written through. Such a write cannot be made atomic, and
//     nothing is removed if it fails.
//   - a directory: an error.
//
// WorkDir says where a program should put the temporary files of the work whose result it then
// writes with Write: beside the output when that is replaced by a rename, else the system's
// temporary directory (never /dev).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// File is one output of WriteAll: the data to write to Path.
type File struct {
	Path string
	Data []byte
}

// Write writes data to path, as the package documentation describes.
func Write(path string, data []byte) error {
	return WriteAll(File{Path: path, Data: data})
}

// WriteAll writes several files as one output. Every regular file is first prepared in its
// temporary file, so an error in preparing any of them leaves all of them as they were; then the
// files that are written through (devices, FIFOs) are written, in order; then the temporary files
// are renamed into place, in order. Only a failing rename (which needs a file system error) can
// leave some files replaced and others not; the error names the file.
func WriteAll(files ...File) error {
	ps := make([]*pending, 0, len(files))
	abort := func() {
		for _, p := range ps {
			p.abort()
		}
	}
	for _, f := range files {
		p, err := prepare(f.Path, f.Data)
		if err != nil {
			abort()
			return err
		}
		ps = append(ps, p)
	}
	for _, p := range ps {
		if p.tmp == "" {
			if err := p.writeThrough(); err != nil {
				abort()
				return err
			}
		}
	}
	for i, p := range ps {
		if p.tmp != "" {
			if err := os.Rename(p.tmp, p.target); err != nil {
				for _, q := range ps[i:] {
					q.abort()
				}
				return fmt.Errorf("writing %s: %w", p.path, err)
			}
		}
	}
	return nil
}

// Output writes data to an output named on a command line: "-" is stdout (an error when stdout
// is nil), any other path is written by Write.
func Output(path string, stdout io.Writer, data []byte) error {
	switch {
	case path == "-" && stdout == nil:
		return errors.New(`output "-" (standard output) without a writer for it`)
	case path == "-":
		_, err := stdout.Write(data)
		return err
	}
	return Write(path, data)
}

// MkdirTemp makes a temporary directory for the work whose result goes to the output path ("-":
// standard output): in WorkDir(path), or os.TempDir() for standard output. The caller removes it.
func MkdirTemp(path string) (string, error) {
	dir := os.TempDir()
	if path != "-" {
		dir = WorkDir(path)
	}
	return os.MkdirTemp(dir, ".gpubuild-")
}

// WorkDir is the directory where a program should create the temporary files of the work whose
// result it writes to path: the directory of the file that Write would replace (so that the work
// stays beside its output, on the same file system) when path is nothing, a regular file or a link
// to one; otherwise (a device, a FIFO, /dev/stdout, or a path that cannot be examined)
// os.TempDir().
func WorkDir(path string) string {
	pl, err := resolve(path)
	if err != nil || pl.through {
		return os.TempDir()
	}
	return filepath.Dir(pl.target)
}

// pending is one file of WriteAll: either a temporary file ready to be renamed over target, or
// (tmp empty) data to write through path.
type pending struct {
	path, target, tmp string
	data              []byte
}

func (p *pending) abort() {
	if p.tmp != "" {
		os.Remove(p.tmp)
		p.tmp = ""
	}
}

// prepare decides how path is written and, for a regular file, writes data to a temporary file
// beside it.
func prepare(path string, data []byte) (*pending, error) {
	pl, err := resolve(path)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	p := &pending{path: path, target: pl.target, data: data}
	if pl.through {
		return p, nil
	}
	perm := fs.FileMode(0o644)
	if pl.exists {
		perm = pl.perm
	}
	f, err := os.CreateTemp(filepath.Dir(pl.target), "."+filepath.Base(pl.target)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	p.tmp = f.Name()
	err = write(f, data)
	if err == nil {
		err = f.Chmod(perm) // CreateTemp makes 0600 files
	}
	if err == nil && pl.exists {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		p.abort()
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return p, nil
}

// writeThrough opens path (following every link, as the kernel does) and writes the data.
func (p *pending) writeThrough() error {
	f, err := os.OpenFile(p.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("writing %s: %w", p.path, err)
	}
	err = write(f, p.data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", p.path, err)
	}
	return nil
}

func write(f *os.File, data []byte) error {
	_, err := f.Write(data)
	return err
}

// maxLinks bounds the symbolic links followed, as the kernel's ELOOP does.
const maxLinks = 40

// plan is how Write writes a path: by renaming a temporary file over target (a regular file when
// exists, with permissions perm), or through the path.
type plan struct {
	target  string
	through bool
	exists  bool
	perm    fs.FileMode
}

// resolve follows the symbolic links that path's last element leads through and says how to write
// it.
func resolve(path string) (plan, error) {
	p := path
	for range maxLinks {
		info, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return plan{target: p}, nil
		case err != nil:
			return plan{}, err
		case info.Mode().IsRegular():
			return plan{target: p, exists: true, perm: info.Mode().Perm()}, nil
		case info.IsDir():
			return plan{}, errors.New("is a directory")
		case info.Mode()&fs.ModeSymlink == 0:
			return plan{target: path, through: true}, nil // a device, a FIFO, a socket
		}
		if inProc(p) {
			return plan{target: path, through: true}, nil // /proc/self/fd/N: an open file's handle, not a name
		}
		link, err := os.Readlink(p)
		if err != nil {
			return plan{}, err
		}
		if !filepath.IsAbs(link) {
			// Not filepath.Join: cleaning "dir/../x" is wrong where dir is a link.
			link = filepath.Dir(p) + string(filepath.Separator) + link
		}
		p = link
	}
	return plan{}, errors.New("too many levels of symbolic links")
}

// inProc says whether the link p lies in /proc, once the links of its directory are followed
// (/dev/fd is a link to /proc/self/fd).
func inProc(p string) bool {
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		dir = filepath.Dir(p)
	}
	return dir == "/proc" || strings.HasPrefix(dir, "/proc/")
}
