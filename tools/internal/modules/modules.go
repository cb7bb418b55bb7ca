// Package modules owns the directories that the steps of an MLIR program's build pass to each
// other: a program's modules are known only once its gpu.launch regions are outlined, so each step
// (the lowering, each chip's compile, the link) writes one directory holding one file per
// gpu.module, NAME.EXT, and the next step reads it. What such a directory may hold, how it is
// written (all of its files or none) and how module names become file names is decided here alone.
package modules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

// Module is one module's file in a directory.
type Module struct {
	Name string // the gpu.module's name (the file's name without its extension)
	Path string // the file
}

// CheckName refuses a gpu.module name that cannot be a file name.
func CheckName(name string) error {
	if !mlir.IsBareName(name) {
		return fmt.Errorf("gpu.module @%q: a program's module names become file names; rename it to a bare identifier (letters, digits, _, $ and .)", name)
	}
	return nil
}

// Read lists the modules of dir, sorted by name: each file must be NAME.EXT with EXT one of exts
// (".ll", ...), and one file per module. An empty directory holds the modules of a program with no
// kernels of its own (one that only calls GPU libraries).
func Read(dir string, exts ...string) ([]Module, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var mods []Module
	for _, e := range entries {
		name, ext := e.Name(), filepath.Ext(e.Name())
		stem := strings.TrimSuffix(name, ext)
		if strings.HasPrefix(name, ".") || !slices.Contains(exts, ext) || e.IsDir() {
			return nil, fmt.Errorf("%s: not a module of the program (%s)", filepath.Join(dir, name), describe(exts))
		}
		if seen[stem] {
			return nil, fmt.Errorf("%s: two files of module %s", dir, stem)
		}
		seen[stem] = true
		mods = append(mods, Module{Name: stem, Path: filepath.Join(dir, name)})
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Name < mods[j].Name })
	return mods, nil
}

// Join reads directories of the same program (one per chip, and the PTX), each as Read does, and
// returns each module's files in the directories' order, modules sorted by name. Every directory
// must hold the same modules.
func Join(dirs []string, exts ...string) (names []string, files [][]string, err error) {
	if len(dirs) == 0 {
		return nil, nil, errors.New("no directory of modules")
	}
	var first []Module
	for i, dir := range dirs {
		mods, err := Read(dir, exts...)
		if err != nil {
			return nil, nil, err
		}
		if i == 0 {
			first = mods
			files = make([][]string, len(mods))
		}
		if len(mods) != len(first) {
			return nil, nil, fmt.Errorf("%s holds %d modules, %s %d: link the directories of one program", dir, len(mods), dirs[0], len(first))
		}
		path := map[string]string{}
		for _, m := range mods {
			path[m.Name] = m.Path
		}
		for j, m := range first {
			p, ok := path[m.Name]
			if !ok {
				return nil, nil, fmt.Errorf("%s has no file of module %s, which %s has: link the directories of one program", dir, m.Name, dirs[0])
			}
			files[j] = append(files[j], p)
		}
	}
	for _, m := range first {
		names = append(names, m.Name)
	}
	return names, files, nil
}

// Temp makes a temporary directory beside out, a directory of modules to be (its parents made if
// missing), for a step's work; the caller removes it.
func Temp(out string) (string, error) {
	parent := filepath.Dir(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	return os.MkdirTemp(parent, ".gpubuild-")
}

// Prepare makes dir if missing and fails when it holds a file that ours (given its name) says this
// step does not write: the next step would take it for a module. Nothing is removed.
func Prepare(dir string, ours func(name string) bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !ours(e.Name()) {
			return fmt.Errorf("%s holds %s, which is not a module of this program: give an empty directory, or remove it", dir, e.Name())
		}
	}
	return nil
}

// Place moves files (a file name in dir -> the file to move there) into dir, as Prepare allows. A
// failure removes what it moved already, so that dir holds all of them or none.
func Place(dir string, files map[string]string) error {
	if err := Prepare(dir, func(name string) bool { _, ok := files[name]; return ok }); err != nil {
		return err
	}
	var moved []string
	for name, from := range files {
		to := filepath.Join(dir, name)
		if err := os.Rename(from, to); err != nil {
			for _, m := range moved {
				os.Remove(m)
			}
			return err
		}
		moved = append(moved, to)
	}
	return nil
}

// describe names the files exts allow: "NAME.ll, NAME.bc or NAME.ptx".
func describe(exts []string) string {
	names := make([]string, len(exts))
	for i, e := range exts {
		names[i] = "NAME" + e
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
