// Package chip is the chip model: it names NVIDIA GPU targets, the real architectures (sm_XX, sm_XXa,
// sm_XXf) that cubins are built for and the virtual ones (compute_XX, compute_XXa, compute_XXf) that
// PTX is written for, and it holds every fact about them in one table (table.go), with its sources:
// which CUDA toolkits compile for each target, which PTX ISA version each target needs, which PTX ISA
// version each toolkit emits and each driver JIT-compiles. (nvcc's lto_XX targets, for LTO-IR, use
// the same numbers and suffixes and are not tabulated separately.)
//
// From the table it answers:
//
//   - Toolkit.Check, Toolkit.CheckPTX, DefaultPTX: can this toolkit build this chip, at this PTX ISA
//     version, and which PTX ISA version to use by default;
//   - Replacement: what to build instead of a chip a toolkit no longer compiles (sm_50 under CUDA 13.0
//     becomes sm_75, sm_101 becomes sm_110);
//   - RunsOn: does an artifact (cubins and PTX) load on a GPU with a given driver, which image the
//     driver picks, and if nothing loads, why and what to change;
//   - Known, Toolkits, KnownPTX, WriteMarkdown: the table itself, for docs.
//
// The package depends on the standard library only. It is one of rules_gpu's two public Go
// libraries (with tools/fatbin): knowing nothing of Bazel, it serves any program that asks which GPUs
// a build can serve; gpubuild's own packages are under tools/internal.
package chip

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Chip is one NVIDIA target such as sm_90, sm_90a or compute_80.
type Chip struct {
	// Major and Minor are the compute capability: sm_86 is 8.6, sm_100 is 10.0.
	Major, Minor int
	// Suffix is "" or "a" (architecture-specific: runs only on exactly this chip) or "f" (family).
	Suffix string
	// Virtual is true for compute_XX (PTX) targets.
	Virtual bool
}

// Family is the chip's family as a runner pool sees it, "sm_<major>x": the chips a cubin built for
// one of them may load on share the compute capability's major (sm_80, sm_86 and sm_89 are sm_8x;
// sm_90 and sm_90a are sm_9x; sm_100f is sm_10x). GPU tests carry it as their pool key.
func (c Chip) Family() string { return fmt.Sprintf("sm_%dx", c.Major) }

// Parse reads a chip name: sm_XX, sm_XXa, sm_XXf, compute_XX (and its a/f forms).
func Parse(name string) (Chip, error) {
	var c Chip
	var digits string
	switch {
	case strings.HasPrefix(name, "sm_"):
		digits = name[len("sm_"):]
	case strings.HasPrefix(name, "compute_"):
		digits, c.Virtual = name[len("compute_"):], true
	default:
		return Chip{}, fmt.Errorf("unknown chip %q: chips are named like sm_80, sm_90a or compute_90", name)
	}
	if n := len(digits); n > 0 && (digits[n-1] == 'a' || digits[n-1] == 'f') {
		c.Suffix, digits = digits[n-1:], digits[:n-1]
	}
	num, err := strconv.Atoi(digits)
	if err != nil || len(digits) < 2 || len(digits) > 3 || num < 10 {
		return Chip{}, fmt.Errorf("unknown chip %q: chips are named like sm_80, sm_90a or compute_90", name)
	}
	c.Major, c.Minor = num/10, num%10
	return c, nil
}

// Number is the architecture number used in file names and fatbin headers: 90 for sm_90a.
func (c Chip) Number() int { return c.Major*10 + c.Minor }

// String is the chip's canonical name.
func (c Chip) String() string {
	prefix := "sm_"
	if c.Virtual {
		prefix = "compute_"
	}
	return prefix + strconv.Itoa(c.Number()) + c.Suffix
}

// IsZero reports whether c is the zero Chip (used for "none").
func (c Chip) IsZero() bool { return c == Chip{} }

// ParseReal reads a chip name as a target's chips list it: a real chip of the table (sm_80, sm_90a),
// spelled as String spells it. An error says what is wrong with the name and which chips there are,
// for a message that names where the name came from (a BUILD file, a directive, a flag).
func ParseReal(name string) (Chip, error) {
	c, err := Parse(name)
	if err != nil {
		return Chip{}, fmt.Errorf("%v; %s", err, knownChips())
	}
	if _, ok := Lookup(c); !ok {
		return Chip{}, fmt.Errorf("unknown chip %q: not in the chip table; %s", name, knownChips())
	}
	if c.String() != name {
		return Chip{}, fmt.Errorf("chip %q: write it %s", name, c)
	}
	if c.Virtual {
		return Chip{}, VirtualError(c)
	}
	return c, nil
}

// virtualChip is the message for a virtual chip where a real one is wanted: {chip} stands for the
// virtual chip, {real} for the real chip of the same name. WriteStarlark renders it for the rules.
const virtualChip = "{chip} is a virtual chip (PTX); name real chips, such as {real}: a fatbin carries PTX for its lowest chip, and format jit only PTX"

// VirtualError is the error for a virtual chip c (compute_XX) where a real chip is wanted.
func VirtualError(c Chip) error {
	real := c
	real.Virtual = false
	return errors.New(strings.NewReplacer("{chip}", c.String(), "{real}", real.String()).Replace(virtualChip))
}

// duplicateChip is the message for a chip that a list names twice: {chip} stands for the chip,
// {list} for the list (an attribute, a flag). WriteStarlark renders it for the rules.
const duplicateChip = "chip {chip} is listed twice in {list}: name each chip once"

// DuplicateError is the error for chip c named twice in list.
func DuplicateError(c Chip, list string) error {
	return errors.New(strings.NewReplacer("{chip}", c.String(), "{list}", list).Replace(duplicateChip))
}

// knownChips says which chips there are and where to read about them.
func knownChips() string {
	names := make([]string, len(arches))
	for i, a := range arches {
		names[i] = a.Chip.String()
	}
	return fmt.Sprintf("the chips are %s (docs/chips.md lists them with the CUDA toolkits that compile each)", strings.Join(names, ", "))
}
