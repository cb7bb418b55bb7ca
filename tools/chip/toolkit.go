package chip

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Errors that Check, CheckPTX, DefaultPTX and Replacement wrap; test with errors.Is.
var (
	// ErrUnknownChip: the chip is not in the table.
	ErrUnknownChip = errors.New("unknown chip")
	// ErrUnknownToolkit: the CUDA version is not a toolkit release the table covers.
	ErrUnknownToolkit = errors.New("unknown CUDA toolkit")
	// ErrUnsupported: the toolkit cannot compile for the chip.
	ErrUnsupported = errors.New("chip not supported by toolkit")
	// ErrPTX: the PTX ISA version does not exist, or does not fit the chip or the toolkit.
	ErrPTX = errors.New("bad PTX ISA version")
)

// Known lists the chip table: every real target with its facts, ordered by number, then "", "a", "f".
// The virtual target of the same name (compute_XX for sm_XX) shares each row.
func Known() []Arch { return slices.Clone(arches) }

// Lookup finds the row of a chip. Real and virtual names (sm_90a, compute_90a) find the same row.
func Lookup(c Chip) (Arch, bool) {
	c.Virtual = false
	for _, a := range arches {
		if a.Chip == c {
			return a, true
		}
	}
	return Arch{}, false
}

// Toolkits lists the CUDA toolkit releases the table covers, oldest first.
func Toolkits() []Toolkit {
	out := make([]Toolkit, len(toolkits))
	for i, t := range toolkits {
		out[i] = t.V
	}
	return out
}

// Known reports whether t is a toolkit release the table covers.
func (t Toolkit) Known() bool {
	_, ok := toolkitRowOf(t)
	return ok
}

func toolkitRowOf(t Toolkit) (toolkitRow, bool) {
	for _, r := range toolkits {
		if r.V == t {
			return r, true
		}
	}
	return toolkitRow{}, false
}

// KnownPTX lists the PTX ISA versions the table knows, oldest first.
func KnownPTX() []PTX {
	out := make([]PTX, len(ptxReleases))
	for i, r := range ptxReleases {
		out[i] = r.PTX
	}
	return out
}

// PTXRelease is the CUDA release that introduced PTX ISA version p: the oldest toolkit that emits it
// and the oldest driver that JIT-compiles it. ok is false for a version the table does not know.
func PTXRelease(p PTX) (cuda Toolkit, ok bool) {
	for _, r := range ptxReleases {
		if r.PTX == p {
			return r.CUDA, true
		}
	}
	return Toolkit{}, false
}

// newestPTXFor is the newest PTX ISA version released with CUDA v or before; ok is false when v
// predates every PTX ISA version.
func newestPTXFor(v Toolkit) (PTX, bool) {
	var best PTX
	found := false
	for _, r := range ptxReleases {
		if r.CUDA.Compare(v) <= 0 {
			best, found = r.PTX, true
		}
	}
	return best, found
}

// NewestPTX is the newest PTX ISA version toolkit t emits and accepts (12.4: 8.4, 12.6: 8.5,
// 12.8: 8.7, 13.0: 9.0).
func (t Toolkit) NewestPTX() (PTX, error) {
	if err := t.check(); err != nil {
		return PTX{}, err
	}
	p, _ := newestPTXFor(t)
	return p, nil
}

// DriverPTX is the newest PTX ISA version that a driver of CUDA version d JIT-compiles: the one of
// toolkit d (a driver of CUDA X.Y understands the PTX of toolkit X.Y). beyond is true when d is newer
// than every CUDA release in the table; the driver then also knows PTX versions the table does not.
// ok is false for a d older than every PTX ISA version.
func DriverPTX(d Toolkit) (p PTX, beyond, ok bool) {
	p, ok = newestPTXFor(d)
	last := ptxReleases[len(ptxReleases)-1].CUDA
	return p, d.Compare(last) > 0, ok
}

// Chips lists the real targets (plain, 'a' and 'f') that toolkit t compiles for, in table order.
// An unknown toolkit gives none.
func (t Toolkit) Chips() []Chip {
	if !t.Known() {
		return nil
	}
	var out []Chip
	for _, a := range arches {
		if a.supportedBy(t) {
			out = append(out, a.Chip)
		}
	}
	return out
}

func (a Arch) supportedBy(t Toolkit) bool {
	return a.First.Compare(t) <= 0 && (a.Last.IsZero() || t.Compare(a.Last) <= 0)
}

func (t Toolkit) check() error { return t.checkFor(Chip{}) }

// checkFor is check with the chip being checked, if any, named in the error.
func (t Toolkit) checkFor(c Chip) error {
	if t.Known() {
		return nil
	}
	ts := Toolkits()
	msg := fmt.Sprintf("%v: CUDA %s is not in the chip table, which covers %s to %s",
		ErrUnknownToolkit, t, ts[0], ts[len(ts)-1])
	if t == (Toolkit{12, 7}) {
		msg += " (12.7 was never released as a toolkit)"
	} else if t.Compare(ts[len(ts)-1]) > 0 {
		msg += "; add it to tools/chip/table.go"
	}
	if !c.IsZero() {
		msg += fmt.Sprintf("; cannot check %s", c)
	}
	return wrapf(ErrUnknownToolkit, "%s", msg)
}

// Check says whether toolkit t can compile for chip c (real or virtual). The error names the chip and
// the toolkit version and, where one exists, suggests the nearest chip the toolkit does support or the
// toolkit versions that support the chip.
func (t Toolkit) Check(c Chip) error {
	a, ok := Lookup(c)
	if !ok {
		return unknownChip(c, t)
	}
	if err := t.checkFor(c); err != nil {
		return err
	}
	if a.supportedBy(t) {
		return nil
	}
	if t.Compare(a.First) < 0 {
		msg := fmt.Sprintf("CUDA %s cannot compile for %s: %s needs CUDA %s or newer", t, c, c, a.First)
		for _, old := range arches {
			if old.RenamedTo == a.Chip && old.supportedBy(t) {
				msg += fmt.Sprintf("; CUDA %s calls this chip %s", t, withVirtual(old.Chip, c.Virtual))
			}
		}
		return wrapf(ErrUnsupported, "%s", msg)
	}
	// Dropped or renamed.
	msg := fmt.Sprintf("CUDA %s cannot compile for %s: support for %s ended with CUDA %s", t, c, c, a.Last)
	if r, err := Replacement(c, t); err == nil {
		if !a.RenamedTo.IsZero() && r == withVirtual(a.RenamedTo, c.Virtual) {
			msg = fmt.Sprintf("CUDA %s cannot compile for %s: CUDA %s renamed it %s; use %s", t, c,
				firstOf(a.RenamedTo), r, r)
		} else {
			msg += fmt.Sprintf("; use %s (the nearest chip CUDA %s supports; %s code does not run on %s), or CUDA %s to keep %s",
				r, t, r, c, a.Last, c)
		}
	}
	return wrapf(ErrUnsupported, "%s", msg)
}

// CheckPTX says whether toolkit t can compile chip c from PTX of ISA version p: p must exist, be at
// least what the chip needs and at most what the toolkit emits. It checks the chip first (Check).
func (t Toolkit) CheckPTX(c Chip, p PTX) error {
	if err := t.Check(c); err != nil {
		return err
	}
	a, _ := Lookup(c)
	newest, _ := t.NewestPTX()
	if _, ok := PTXRelease(p); !ok {
		known := KnownPTX()
		if p.Compare(known[len(known)-1]) > 0 {
			return wrapf(ErrPTX, "PTX ISA %s for %s: CUDA %s emits at most PTX ISA %s (and the chip table knows no PTX ISA newer than %s)",
				p, c, t, newest, known[len(known)-1])
		}
		return wrapf(ErrPTX, "PTX ISA %s for %s with CUDA %s: there is no PTX ISA version %s", p, c, t, p)
	}
	if p.Compare(a.MinPTX) < 0 {
		return wrapf(ErrPTX, "PTX ISA %s for %s with CUDA %s: %s needs PTX ISA %s or newer", p, c, t, c, a.MinPTX)
	}
	if p.Compare(newest) > 0 {
		rel, _ := PTXRelease(p)
		return wrapf(ErrPTX, "PTX ISA %s for %s: CUDA %s emits at most PTX ISA %s (%s needs CUDA %s or newer)",
			p, c, t, newest, p, rel)
	}
	return nil
}

// DefaultPTX is the PTX ISA version to write for chip c with toolkit t: the oldest one the chip
// accepts (its MinPTX), not the toolkit's newest. The PTX ISA version decides which drivers can JIT
// the PTX (a driver of CUDA X.Y knows the PTX of toolkit X.Y and older), so the oldest possible
// version keeps embedded PTX loadable on the most drivers; ptxas of every toolkit that supports the
// chip accepts it. Code that uses instructions of a newer PTX ISA must ask for that version
// explicitly (checked by CheckPTX).
func DefaultPTX(c Chip, t Toolkit) (PTX, error) {
	if err := t.Check(c); err != nil {
		return PTX{}, err
	}
	a, _ := Lookup(c)
	return a.MinPTX, nil
}

// Replacement is the chip to build instead of c with toolkit t, for a BUILD-file rewriting tool:
//
//   - c itself when t supports it;
//   - the new name when c was renamed (sm_101 becomes sm_110 under CUDA 13.0, suffix kept);
//   - for a chip t no longer compiles, the oldest plain chip t supports that is not older than c
//     (sm_50, sm_70 or sm_72 under CUDA 13.0 become sm_75). Note that such code does not run on c.
//
// A chip newer than the toolkit has no replacement (upgrade the toolkit instead): error. Virtual
// chips get virtual replacements (compute_50 becomes compute_75).
func Replacement(c Chip, t Toolkit) (Chip, error) {
	a, ok := Lookup(c)
	if !ok {
		return Chip{}, unknownChip(c, t)
	}
	if err := t.checkFor(c); err != nil {
		return Chip{}, err
	}
	if a.supportedBy(t) {
		return c, nil
	}
	if t.Compare(a.First) < 0 {
		return Chip{}, wrapf(ErrUnsupported, "CUDA %s cannot compile for %s, and there is no replacement: %s needs CUDA %s or newer",
			t, c, c, a.First)
	}
	if !a.RenamedTo.IsZero() {
		if r, ok := Lookup(a.RenamedTo); ok && r.supportedBy(t) {
			return withVirtual(r.Chip, c.Virtual), nil
		}
	}
	for _, r := range arches {
		if r.Chip.Suffix == "" && r.Chip.Number() >= c.Number() && r.supportedBy(t) {
			return withVirtual(r.Chip, c.Virtual), nil
		}
	}
	return Chip{}, wrapf(ErrUnsupported, "CUDA %s cannot compile for %s, and supports no newer chip", t, c)
}

// firstOf is the toolkit that introduced a renamed chip's new name.
func firstOf(c Chip) Toolkit {
	a, _ := Lookup(c)
	return a.First
}

func withVirtual(c Chip, v bool) Chip {
	c.Virtual = v
	return c
}

func unknownChip(c Chip, t Toolkit) error {
	names := make([]string, len(arches))
	for i, a := range arches {
		names[i] = withVirtual(a.Chip, c.Virtual).String()
	}
	return wrapf(ErrUnknownChip, "unknown chip %s (with CUDA %s): not in the chip table (known: %s)",
		c, t, strings.Join(names, ", "))
}

// wrapf formats a message that already reads well on its own and wraps sentinel for errors.Is.
func wrapf(sentinel error, format string, args ...any) error {
	return &tableError{msg: fmt.Sprintf(format, args...), sentinel: sentinel}
}

type tableError struct {
	msg      string
	sentinel error
}

func (e *tableError) Error() string { return e.msg }
func (e *tableError) Unwrap() error { return e.sentinel }

// PTXRange is the range of PTX ISA versions that chip c accepts with toolkit t: from the oldest
// whose .target accepts the chip to the newest that t emits, or with t zero (unknown), the newest
// the table knows.
func PTXRange(c Chip, t Toolkit) (lo, hi PTX, err error) {
	a, ok := Lookup(c)
	if !ok {
		return PTX{}, PTX{}, unknownChip(c, t)
	}
	if t.IsZero() {
		known := KnownPTX()
		return a.MinPTX, known[len(known)-1], nil
	}
	if err := t.Check(c); err != nil {
		return PTX{}, PTX{}, err
	}
	hi, err = t.NewestPTX()
	return a.MinPTX, hi, err
}

// CheckPTXFor is CheckPTX with a toolkit that may be unknown (zero): then p must be a PTX ISA version
// the table knows, at least what chip c needs.
func CheckPTXFor(c Chip, t Toolkit, p PTX) error {
	if !t.IsZero() {
		return t.CheckPTX(c, p)
	}
	lo, hi, err := PTXRange(c, t)
	switch {
	case err != nil:
		return err
	case p.Compare(lo) < 0:
		return wrapf(ErrPTX, "PTX ISA %s for %s: %s needs PTX ISA %s or newer", p, c, c, lo)
	case p.Compare(hi) > 0:
		return wrapf(ErrPTX, "PTX ISA %s for %s: the chip table knows no PTX ISA newer than %s", p, c, hi)
	}
	if _, ok := PTXRelease(p); !ok {
		return wrapf(ErrPTX, "PTX ISA %s for %s: there is no PTX ISA version %s", p, c, p)
	}
	return nil
}

// unknownDriver is the message for a driver CUDA version the table does not know: {driver} stands
// for it, {first} and {last} for the oldest and newest it knows. WriteStarlark renders it for the rules.
const unknownDriver = "no driver reports CUDA {driver} in the chip table, which knows drivers of CUDA {first} to {last} (nvidia-smi's \"CUDA Version\"; docs/chips.md); give one of them, or, for a newer driver, add its CUDA release to tools/chip/table.go"

// Drivers lists the driver CUDA versions the table knows, oldest first: every toolkit release it
// covers, and every release that introduced a PTX ISA version.
func Drivers() []Toolkit {
	var out []Toolkit
	for _, r := range ptxReleases {
		out = append(out, r.CUDA)
	}
	out = append(out, Toolkits()...)
	slices.SortFunc(out, Toolkit.Compare)
	return slices.Compact(out)
}

// CheckDriver says whether d is the CUDA version of a driver the table knows (Drivers): RunsOn
// cannot judge a driver it does not know (99.0).
func CheckDriver(d Toolkit) error {
	ds := Drivers()
	if slices.Contains(ds, d) {
		return nil
	}
	return wrapf(ErrUnknownToolkit, "%s", strings.NewReplacer("{driver}", d.String(), "{first}", ds[0].String(), "{last}", ds[len(ds)-1].String()).Replace(unknownDriver))
}

// ParseList reads a comma-separated chip list, as every command line takes one ("sm_80,sm_90";
// a space after a comma is accepted, "sm_80, sm_90"). An empty entry or a chip named twice is an
// error naming the list (a flag, an attribute).
func ParseList(list, name string) ([]Chip, error) {
	var out []Chip
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, fmt.Errorf("%s %q: an empty chip name; write chips like sm_80,sm_90", name, list)
		}
		c, err := Parse(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if slices.Contains(out, c) {
			return nil, DuplicateError(c, name)
		}
		out = append(out, c)
	}
	return out, nil
}
