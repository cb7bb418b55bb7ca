package chip

import (
	"fmt"
	"strconv"
	"strings"
)

// Toolkit is a CUDA version, such as 12.4: the version of a CUDA toolkit, or the CUDA version a
// driver reports (nvidia-smi's "CUDA Version", cuDriverGetVersion; driver 580 reports 13.0).
type Toolkit struct{ Major, Minor int }

// PTX is a PTX ISA version, such as 8.4: what a PTX file's .version directive says.
type PTX struct{ Major, Minor int }

// ELF is the ELF code version that a fatbin records for a cubin entry (1.7 from CUDA 11.8, 1.8 from
// CUDA 13.0 in the files tools/fatbin has seen).
type ELF struct{ Major, Minor int }

func (v Toolkit) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }
func (v PTX) String() string     { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }
func (v ELF) String() string     { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// IsZero reports whether v is the zero value, which means "unknown" wherever a Toolkit is optional.
func (v Toolkit) IsZero() bool { return v == Toolkit{} }

// IsZero reports whether v is the zero value, which means "unknown" wherever a PTX is optional.
func (v PTX) IsZero() bool { return v == PTX{} }

// IsZero reports whether v is the zero value, which means "unknown".
func (v ELF) IsZero() bool { return v == ELF{} }

// Compare returns -1, 0 or +1 as v is older than, equal to or newer than o.
func (v Toolkit) Compare(o Toolkit) int { return compare2(v.Major, v.Minor, o.Major, o.Minor) }

// Compare returns -1, 0 or +1 as v is older than, equal to or newer than o.
func (v PTX) Compare(o PTX) int { return compare2(v.Major, v.Minor, o.Major, o.Minor) }

func compare2(a, b, c, d int) int {
	switch {
	case a < c || a == c && b < d:
		return -1
	case a == c && b == d:
		return 0
	}
	return 1
}

// ParseToolkit reads a CUDA version: "12.4" or "13.0". A third component, as in "12.4.131"
// (nvcc --version's release), is accepted and dropped.
func ParseToolkit(s string) (Toolkit, error) {
	major, minor, err := parseVersion(s, true)
	if err != nil {
		return Toolkit{}, fmt.Errorf("bad CUDA version %q: %v; want MAJOR.MINOR such as 12.4", s, err)
	}
	if major < 1 {
		return Toolkit{}, fmt.Errorf("bad CUDA version %q: the major version must be at least 1", s)
	}
	return Toolkit{major, minor}, nil
}

// ParsePTX reads a PTX ISA version: "8.4". It checks only the syntax; Toolkit.CheckPTX and
// KnownPTX say whether the version exists.
func ParsePTX(s string) (PTX, error) {
	major, minor, err := parseVersion(s, false)
	if err != nil {
		return PTX{}, fmt.Errorf("bad PTX ISA version %q: %v; want MAJOR.MINOR such as 8.4", s, err)
	}
	if major < 1 {
		return PTX{}, fmt.Errorf("bad PTX ISA version %q: the major version must be at least 1", s)
	}
	return PTX{major, minor}, nil
}

// parseVersion splits "A.B" (or "A.B.C" when patch is allowed) into small decimal numbers.
func parseVersion(s string, patch bool) (int, int, error) {
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 || len(parts) == 3 && !patch {
		return 0, 0, fmt.Errorf("not MAJOR.MINOR")
	}
	var nums [3]int
	for i, p := range parts {
		if p == "" || len(p) > 4 || strings.TrimLeft(p, "0123456789") != "" {
			return 0, 0, fmt.Errorf("%q is not a number", p)
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return 0, 0, err
		}
		nums[i] = n
	}
	return nums[0], nums[1], nil
}
