package migrate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
)

// archsGrammar is rules_cuda's grammar of --@rules_cuda//cuda:archs, as errors quote it.
const archsGrammar = "rules_cuda's grammar: VIRTUAL:CODE,... with VIRTUAL compute_XX and CODE sm_XX or compute_XX, " +
	"or CODE,... alone; specs separated by ';'"

// Archs is what a rules_cuda archs string (--@rules_cuda//cuda:archs=...) puts in a fatbin: cubins
// for some chips and PTX for others. The virtual architecture a cubin was built from is not kept:
// rules_gpu compiles each chip's cubin for that chip.
type Archs struct {
	// Spec is the string as it was given.
	Spec string
	// Cubins are the chips a cubin is built for (the sm_XX codes), in the chip table's order, each once.
	Cubins []chip.Chip
	// PTX are the chips PTX is embedded for (the compute_XX codes, as the real chip sm_XX), in the
	// chip table's order, each once.
	PTX []chip.Chip
}

// Attrs is what an Archs asks of rules_gpu: the chips and, where the fatbin is not rules_gpu's
// default (each chip's cubin plus PTX for the lowest chip), the format and ptx attributes of
// cuda_library.
type Attrs struct {
	// Chips is the chips attribute, and the value of --@rules_gpu//gpu:chips: the cubins' chips, or,
	// for PTX alone, the PTX's chip.
	Chips []string
	// Format is the format attribute: "" for the default ("fatbin"), "bin" (cubins only) or "jit"
	// (PTX only).
	Format string
	// PTX is the ptx attribute, the chips whose PTX a fatbin carries; nil for the default (the lowest
	// of Chips).
	PTX []string
}

// Default reports whether the chips alone say it all: no format or ptx attribute is needed.
func (a Attrs) Default() bool { return a.Format == "" && a.PTX == nil }

// String writes the attributes a target needs besides its chips, as Starlark: `format = "bin"`,
// `ptx = ["sm_80", "sm_90"]`; "" when Default.
func (a Attrs) String() string {
	var parts []string
	if a.Format != "" {
		parts = append(parts, fmt.Sprintf("format = %q", a.Format))
	}
	if a.PTX != nil {
		quoted := make([]string, len(a.PTX))
		for i, p := range a.PTX {
			quoted[i] = fmt.Sprintf("%q", p)
		}
		parts = append(parts, "ptx = ["+strings.Join(quoted, ", ")+"]")
	}
	return strings.Join(parts, ", ")
}

// ParseArchs reads a rules_cuda archs string. Specs are separated by ';' (whitespace around them is
// ignored, empty ones skipped); each is VIRTUAL:CODE,CODE... (VIRTUAL compute_XX; each CODE sm_XX, a
// cubin built from VIRTUAL's PTX, or compute_XX, VIRTUAL's PTX itself, which must then equal VIRTUAL)
// or CODE,CODE... alone, whose virtual architecture is that of the lowest code. Chips are those of
// the chip table (tools/chip), with their a and f suffixes. Every error names the string and the part
// that is wrong, and says how to fix it. lto_XX codes (LTO-IR) are an error: rules_gpu builds none.
func ParseArchs(s string) (Archs, error) {
	a := Archs{Spec: s}
	fail := func(what, fix string) (Archs, error) {
		return Archs{}, fmt.Errorf("archs %q: %s (%s); fix: %s", s, what, archsGrammar, fix)
	}
	var cubins, ptx []chip.Chip
	specs := 0
	for _, spec := range strings.Split(s, ";") {
		spec = strings.TrimSpace(spec)
		if spec == "" {
			continue
		}
		specs++
		parts := strings.Split(spec, ":")
		if len(parts) > 2 {
			return fail(fmt.Sprintf("%s has %d ':'; a spec has at most one", spec, len(parts)-1),
				"separate specs with ';', e.g. compute_80:sm_80;compute_90:sm_90")
		}
		codeList := parts[len(parts)-1]
		var virtual chip.Chip
		hasVirtual := len(parts) == 2
		if hasVirtual {
			v := strings.TrimSpace(parts[0])
			c, err := parseArch(s, v)
			if err != nil {
				return Archs{}, err
			}
			if !c.Virtual {
				return fail(fmt.Sprintf("%s in %s is not a virtual architecture: the part before ':' is compute_XX", v, spec),
					fmt.Sprintf("write compute_%d%s:%s", c.Number(), c.Suffix, strings.TrimSpace(codeList)))
			}
			virtual = c
		}
		var codes []chip.Chip
		for _, code := range strings.Split(codeList, ",") {
			code = strings.TrimSpace(code)
			if code == "" {
				return fail(fmt.Sprintf("%s names an empty code", spec),
					"list the codes after the virtual architecture, e.g. compute_80:compute_80,sm_80")
			}
			c, err := parseArch(s, code)
			if err != nil {
				return Archs{}, err
			}
			codes = append(codes, c)
		}
		if !hasVirtual {
			// The virtual architecture is that of the lowest code.
			lowest := slices.MinFunc(codes, compareChips)
			virtual = lowest
			virtual.Virtual = true
		}
		for _, c := range codes {
			if c.Virtual {
				if c != virtual {
					return fail(fmt.Sprintf("%s in %s is PTX of another virtual architecture than %s: a spec embeds its own virtual architecture's PTX", c, spec, virtual),
						fmt.Sprintf("make it a spec of its own: %s;%s", strings.Replace(spec, c.String(), virtual.String(), 1), c))
				}
				onChip := c
				onChip.Virtual = false
				ptx = append(ptx, onChip)
				continue
			}
			if c.Number() < virtual.Number() {
				return fail(fmt.Sprintf("%s cannot be built from %s, a newer virtual architecture (nvcc refuses it too)", c, virtual),
					fmt.Sprintf("build it from compute_%d, in a spec of its own (compute_%d:%s), or drop it", c.Number(), c.Number(), c))
			}
			cubins = append(cubins, c)
		}
	}
	if specs == 0 {
		return fail("names no architecture", "name the chips, e.g. compute_80:compute_80,sm_80,sm_86")
	}
	a.Cubins = sortChips(cubins)
	a.PTX = sortChips(ptx)
	return a, nil
}

// parseArch reads one architecture of the archs string s: sm_XX or compute_XX, with a or f.
func parseArch(s, name string) (chip.Chip, error) {
	if strings.HasPrefix(name, "lto_") {
		n := strings.TrimPrefix(name, "lto_")
		return chip.Chip{}, fmt.Errorf("archs %q: %s asks for LTO-IR, which rules_gpu does not build; "+
			"fix: use sm_%s (a cubin) or compute_%s (PTX) instead; rdc = True links a library's sources as LLVM IR before code generation", s, name, n, n)
	}
	c, err := chip.Parse(name)
	if err != nil {
		return chip.Chip{}, fmt.Errorf("archs %q: %s is not a chip (%s); fix: write it like sm_80, sm_90a or compute_80", s, name, archsGrammar)
	}
	if _, ok := chip.Lookup(c); !ok {
		return chip.Chip{}, fmt.Errorf("archs %q: %s is not in rules_gpu's chip table; fix: name a chip of the table (docs/chips.md lists them, from %s to %s)",
			s, name, chipName(chip.Known()[0].Chip, c.Virtual), chipName(chip.Known()[len(chip.Known())-1].Chip, c.Virtual))
	}
	if c.String() != name {
		return chip.Chip{}, fmt.Errorf("archs %q: %s is not how the chip is written; fix: write it %s", s, name, c)
	}
	return c, nil
}

func chipName(c chip.Chip, virtual bool) string {
	c.Virtual = virtual
	return c.String()
}

// compareChips orders chips as the chip table does (by number, then "", "a", "f"); real before virtual.
func compareChips(a, b chip.Chip) int {
	if a.Number() != b.Number() {
		return a.Number() - b.Number()
	}
	if a.Suffix != b.Suffix {
		return chipIndex(a) - chipIndex(b)
	}
	switch {
	case a.Virtual == b.Virtual:
		return 0
	case a.Virtual:
		return 1
	}
	return -1
}

// chipIndex is the chip's row in the chip table; -1 when it has none.
func chipIndex(c chip.Chip) int {
	c.Virtual = false
	return slices.IndexFunc(chip.Known(), func(a chip.Arch) bool { return a.Chip == c })
}

// sortChips sorts chips in the chip table's order and drops repeats.
func sortChips(chips []chip.Chip) []chip.Chip {
	out := slices.Clone(chips)
	slices.SortFunc(out, compareChips)
	return slices.Compact(out)
}

// Attrs says what the archs ask of rules_gpu (see the Attrs type): cubins alone are format = "bin";
// PTX alone, for one chip, is format = "jit" for that chip; PTX for exactly the lowest cubin's chip
// is the default; any other PTX is ptx = [its chips]. PTX alone for several chips is an error:
// format = "jit" carries one PTX.
func (a Archs) Attrs() (Attrs, error) {
	cubins, ptx := names(a.Cubins), names(a.PTX)
	switch {
	case len(ptx) == 0:
		return Attrs{Chips: cubins, Format: "bin"}, nil
	case len(cubins) == 0 && len(ptx) == 1:
		return Attrs{Chips: ptx, Format: "jit"}, nil
	case len(cubins) == 0:
		lowest := "compute_" + strings.TrimPrefix(ptx[0], "sm_")
		return Attrs{}, fmt.Errorf("archs %q: PTX alone for %d chips (%s), and rules_gpu's PTX-only format (jit) carries one; "+
			"fix: keep the lowest, %s (the driver JIT-compiles it for every newer GPU), or add their cubins (e.g. %s:%s,%s) for a fatbin",
			a.Spec, len(ptx), strings.Join(ptx, ", "), lowest, lowest, lowest, ptx[0])
	case len(ptx) == 1 && ptx[0] == cubins[0]:
		return Attrs{Chips: cubins}, nil
	}
	return Attrs{Chips: cubins, PTX: ptx}, nil
}

func names(chips []chip.Chip) []string {
	out := make([]string, len(chips))
	for i, c := range chips {
		out[i] = c.String()
	}
	return out
}
