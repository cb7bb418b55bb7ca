// Package symvers reads which versions of the system's shared libraries an ELF program needs (the
// GLIBC_2.34 and GLIBCXX_3.4.30 of its imported symbols) and checks them against what the machines
// that run it have: a program built where glibc is newer than on its runners starts there only if it
// needs no version that is newer, which the dynamic loader otherwise reports as "version
// `GLIBC_2.38' not found" when the program starts. Likewise the shared libraries it needs: beyond
// the C and C++ runtime and the driver, each must be one the runners are declared to have
// ("libcublas.so.12: cannot open shared object file" otherwise).
package symvers

import (
	"debug/elf"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Version is one version of a library's symbols, as the ELF version tables name it: a family
// ("GLIBC", "GLIBCXX", "CXXABI", "GCC") and a dotted number.
type Version struct {
	Family string
	Number []int
}

// Parse reads a version name such as GLIBC_2.34 or GLIBCXX_3.4.30.
func Parse(s string) (Version, error) {
	i := strings.LastIndexByte(s, '_')
	if i <= 0 || i == len(s)-1 {
		return Version{}, fmt.Errorf("%q is not a symbol version such as GLIBC_2.39 or GLIBCXX_3.4.33", s)
	}
	v := Version{Family: s[:i]}
	for _, part := range strings.Split(s[i+1:], ".") {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 {
			return Version{}, fmt.Errorf("%q is not a symbol version such as GLIBC_2.39 or GLIBCXX_3.4.33", s)
		}
		v.Number = append(v.Number, n)
	}
	return v, nil
}

func (v Version) String() string {
	parts := make([]string, len(v.Number))
	for i, n := range v.Number {
		parts[i] = strconv.Itoa(n)
	}
	return v.Family + "_" + strings.Join(parts, ".")
}

// Less orders versions of one family by number (2.9 < 2.34).
func (v Version) Less(w Version) bool {
	for i := 0; i < len(v.Number) && i < len(w.Number); i++ {
		if v.Number[i] != w.Number[i] {
			return v.Number[i] < w.Number[i]
		}
	}
	return len(v.Number) < len(w.Number)
}

// Need is the newest version of one family that a program needs, and the symbols that need it.
type Need struct {
	Library string // the library that defines the family, e.g. libc.so.6
	Version Version
	Symbols []string // the imported symbols of exactly that version, sorted
}

// Read returns, for each version family that the program at path imports symbols of, the newest
// version it needs, sorted by family.
func Read(path string) ([]Need, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	syms, err := f.ImportedSymbols()
	if err != nil {
		return nil, fmt.Errorf("%s: reading its imported symbols: %w", path, err)
	}
	newest := map[string]*Need{}
	for _, s := range syms {
		if s.Version == "" {
			continue
		}
		v, err := Parse(s.Version)
		if err != nil {
			continue // a library's private version name, such as libcuda's; not a family to compare
		}
		n := newest[v.Family]
		switch {
		case n == nil || n.Version.Less(v):
			newest[v.Family] = &Need{Library: s.Library, Version: v, Symbols: []string{s.Name}}
		case !v.Less(n.Version):
			n.Symbols = append(n.Symbols, s.Name)
		}
	}
	var out []Need
	for _, n := range newest {
		sort.Strings(n.Symbols)
		out = append(out, *n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version.Family < out[j].Version.Family })
	return out, nil
}

// Merge returns the newest need of each family of a and b, sorted by family: what a program (a) and a
// shared library that travels with it (b) need together. A need of b's that is the newer names via
// as its library's user ("libc.so.6 for libomp.so.5").
func Merge(a, b []Need, via string) []Need {
	newest := map[string]Need{}
	for _, n := range a {
		newest[n.Version.Family] = n
	}
	for _, n := range b {
		if m, ok := newest[n.Version.Family]; !ok || m.Version.Less(n.Version) {
			n.Library = fmt.Sprintf("%s for %s", n.Library, via)
			newest[n.Version.Family] = n
		}
	}
	out := make([]Need, 0, len(newest))
	for _, n := range newest {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version.Family < out[j].Version.Family })
	return out
}

// Soname is the name a program that needs the shared library at path records (its DT_SONAME), or
// the file's own name when it has none.
func Soname(path string) (string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	names, err := f.DynString(elf.DT_SONAME)
	if err != nil {
		return "", fmt.Errorf("%s: reading its soname: %w", path, err)
	}
	if len(names) > 0 {
		return names[0], nil
	}
	return filepath.Base(path), nil
}

// Check returns one line per need that is newer than the runners' version of its family, naming the
// symbols that need it; families that have has no version of are not checked.
func Check(needs []Need, has []Version) []string {
	var problems []string
	for _, n := range needs {
		for _, h := range has {
			if h.Family == n.Version.Family && h.Less(n.Version) {
				syms := n.Symbols
				more := ""
				if len(syms) > 3 {
					more = fmt.Sprintf(" and %d more", len(syms)-3)
					syms = syms[:3]
				}
				problems = append(problems, fmt.Sprintf("needs %s (%s: %s%s), the runners have %s", n.Version, n.Library, strings.Join(syms, ", "), more, h))
			}
		}
	}
	return problems
}

// everyRunner are the shared libraries that every machine that runs a GPU program has: the C and
// C++ runtime (glibc's libraries, the dynamic loader, libstdc++ and libgcc_s) and the driver's
// libcuda. A program that needs another (a toolkit library such as libcublas.so.12, linked shared)
// starts only where it is installed, of that major version.
var everyRunner = map[string]bool{
	"libc.so.6": true, "libm.so.6": true, "libdl.so.2": true, "libpthread.so.0": true, "librt.so.1": true,
	"libutil.so.1": true, "libresolv.so.2": true, "ld-linux-x86-64.so.2": true, "ld-linux-aarch64.so.1": true,
	"libstdc++.so.6": true, "libgcc_s.so.1": true, "libcuda.so.1": true,
}

// IsLibrary says whether a --runners-have entry names a shared library (libcublas.so.13), not a
// version (GLIBC_2.39).
func IsLibrary(s string) bool { return strings.Contains(s, ".so") }

// Libraries returns the shared libraries that the program at path needs (its DT_NEEDED entries), in
// the program's order.
func Libraries(path string) ([]string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	libs, err := f.ImportedLibraries()
	if err != nil {
		return nil, fmt.Errorf("%s: reading the libraries it needs: %w", path, err)
	}
	return libs, nil
}

// CheckLibraries returns one line per library of needed that neither every runner has (everyRunner)
// nor has lists.
func CheckLibraries(needed, has []string) []string {
	var problems []string
	for _, lib := range needed {
		if !everyRunner[lib] && !slices.Contains(has, lib) {
			problems = append(problems, fmt.Sprintf("needs %s, a shared library that is not the C or C++ runtime's or the driver's, and that the runners are not declared to have", lib))
		}
	}
	return problems
}
