// Package chip names NVIDIA GPU targets: the real architectures (sm_XX, sm_XXa, sm_XXf) that cubins are
// built for and the virtual ones (compute_XX) that PTX is written for.
package chip

import (
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
