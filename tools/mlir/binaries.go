package mlir

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// ToBinaries replaces every top-level gpu.module of src by a gpu.binary of the same name holding
// one object: target (an attribute such as #nvvm.target<chip = "sm_80">) and the module's
// artifact, binaries[NAME], in MLIR's default object format (a fatbin, loaded at run time by
// mgpuModuleLoad). This is the host side of a program whose device modules were built apart: what
// gpu-module-to-binary would have made, with rules_gpu's artifacts. A top-level module without an
// artifact, or an artifact without a module, is an error naming them.
func ToBinaries(src []byte, target string, binaries map[string][]byte) ([]byte, error) {
	mods, err := Modules(src)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	var b strings.Builder
	last := 0
	for _, m := range mods {
		if !m.TopLevel {
			continue
		}
		data, ok := binaries[m.Name]
		if !ok {
			return nil, fmt.Errorf("line %d: gpu.module %s has no artifact (have %s)", m.Line, symbol(m.Name), names(binaries))
		}
		used[m.Name] = true
		b.Write(src[last:m.Start])
		fmt.Fprintf(&b, "gpu.binary %s [#gpu.object<%s, %s>]", symbol(m.Name), target, quote(string(data)))
		last = m.End
	}
	b.Write(src[last:])
	var extra []string
	for name := range binaries {
		if !used[name] {
			extra = append(extra, symbol(name))
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return nil, fmt.Errorf("an artifact for gpu.module %s, which the program does not have (its top-level modules: %s)", strings.Join(extra, ", "), topLevel(mods))
	}
	return []byte(b.String()), nil
}

func names(m map[string][]byte) string {
	var s []string
	for n := range m {
		s = append(s, symbol(n))
	}
	sort.Strings(s)
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func topLevel(mods []Module) string {
	var s []string
	for _, m := range mods {
		if m.TopLevel {
			s = append(s, symbol(m.Name))
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// bareName is MLIR's bare identifier, which a symbol reference may spell without quotes.
var bareName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$.]*$`)

// IsBareName says whether a symbol name is MLIR's bare identifier (letters, digits, _, $ and ., not
// starting with a digit, $ or .): what a reference may spell without quotes.
func IsBareName(name string) bool { return bareName.MatchString(name) }

// symbol spells a symbol reference as MLIR prints it: @name, or @"..." when name is not a bare
// identifier.
func symbol(name string) string {
	if IsBareName(name) {
		return "@" + name
	}
	return "@" + quote(name)
}
