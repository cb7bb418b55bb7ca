package chip

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Image is one piece of device code in an artifact (a fatbin, or a set of files), independent of any
// file format.
type Image struct {
	// Chip says what the image is: a real target (sm_90, sm_90a, sm_100f) for a cubin (SASS), a
	// virtual one (compute_90, compute_90a) for PTX.
	Chip Chip
	// PTX is a PTX image's ISA version (its .version); zero if unknown. Unused for cubins.
	PTX PTX
	// ELF is a cubin's ELF code version as the fatbin records it. It is carried for reports; RunsOn
	// does not judge it, since which drivers accept which ELF code version is not in the table.
	ELF ELF
	// Toolkit is the CUDA toolkit that built the image; zero if unknown. RunsOn checks it for cubins:
	// they need a driver of the same CUDA major version or newer.
	Toolkit Toolkit
}

func (i Image) String() string {
	if i.Chip.Virtual {
		if i.PTX.IsZero() {
			return i.Chip.String() + " PTX"
		}
		return fmt.Sprintf("%s PTX (ISA %s)", i.Chip, i.PTX)
	}
	return i.Chip.String() + " cubin"
}

// Artifact is the device code built for one target: its images, in file order.
type Artifact []Image

// Runner is a machine to run on: a GPU and, if known, its driver.
type Runner struct {
	// Chip is the GPU's compute capability as a real chip without suffix: sm_90 for an H100/H200.
	Chip Chip
	// Driver is the CUDA version of the driver (nvidia-smi's "CUDA Version": 13.0 for driver 580);
	// zero if unknown, in which case RunsOn assumes the driver knows every PTX ISA version it meets.
	Driver Toolkit
}

func (r Runner) String() string {
	if r.Driver.IsZero() {
		return r.Chip.String() + " (driver unknown)"
	}
	return fmt.Sprintf("%s (driver CUDA %s)", r.Chip, r.Driver)
}

// Load says whether and how an image, or an artifact, loads on a runner.
type Load int

const (
	// NoLoad: it does not load.
	NoLoad Load = iota
	// ExactSASS: a cubin for exactly the runner's chip.
	ExactSASS
	// CompatibleSASS: a cubin for an older chip that the runner's chip runs (same major version and
	// lower minor; for 'f' cubins, same family).
	CompatibleSASS
	// PTXJIT: PTX that the driver JIT-compiles for the runner's chip.
	PTXJIT
)

func (l Load) String() string {
	switch l {
	case ExactSASS:
		return "exact SASS"
	case CompatibleSASS:
		return "compatible SASS"
	case PTXJIT:
		return "PTX JIT"
	}
	return "does not load"
}

// ImageVerdict is what RunsOn found for one image.
type ImageVerdict struct {
	Image Image
	// Load is how this image alone would load; NoLoad if it would not.
	Load Load
	// Why explains Load in one sentence.
	Why string

	// needDriver, when set, is the driver CUDA version with which the image would load.
	needDriver Toolkit
	// driverPTX is the newest PTX ISA the runner's driver JITs, when that stopped a PTX image.
	driverPTX PTX
}

// Verdict is RunsOn's answer.
type Verdict struct {
	Runner Runner
	// Loads is true when some image loads.
	Loads bool
	// Load is how the image the driver picks loads; NoLoad when none does.
	Load Load
	// Pick is the index in the artifact of the image the driver would load: a matching cubin before
	// PTX, the cubin of the highest compatible chip first. -1 when none loads.
	Pick int
	// Images has one entry per artifact image, in order.
	Images []ImageVerdict
	// Reason says in a sentence or two what loads, or why nothing does.
	Reason string
	// Fix says what to change when nothing loads: the chip to add, PTX to embed, the driver to install.
	Fix string
	// Notes lists assumptions the verdict rests on (unknown driver, versions newer than the table).
	Notes []string
}

func (v Verdict) String() string {
	s := v.Reason
	if v.Fix != "" {
		s += "; fix: " + v.Fix
	}
	return s
}

// RunsOn says whether artifact a loads on runner r, which image the driver would pick and how it
// loads, and when nothing loads, why not and how to fix it. The rules are listed at the end of
// table.go with their sources.
func RunsOn(a Artifact, r Runner) Verdict {
	v := Verdict{Runner: r, Pick: -1}
	run := r.Chip
	if run.Virtual || run.Suffix != "" || run.Major == 0 {
		v.Reason = fmt.Sprintf("runner chip %s is not a GPU's compute capability", run)
		v.Fix = fmt.Sprintf("name the runner by its real chip without suffix, such as sm_%d", run.Number())
		return v
	}
	if row, ok := Lookup(run); ok && !r.Driver.IsZero() && r.Driver.Compare(row.First) < 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("driver CUDA %s predates %s (first supported by CUDA %s); such a driver likely cannot run this GPU at all",
			r.Driver, run, row.First))
	}
	for _, img := range a {
		iv, notes := judge(img, r)
		v.Images = append(v.Images, iv)
		v.Notes = append(v.Notes, notes...)
	}
	best := -1
	for i, iv := range v.Images {
		if iv.Load != NoLoad && (best < 0 || better(iv, v.Images[best])) {
			best = i
		}
	}
	if best >= 0 {
		iv := v.Images[best]
		v.Loads, v.Load, v.Pick = true, iv.Load, best
		v.Reason = fmt.Sprintf("loads on %s: the driver picks image %d, %s (%s: %s)", r, best, iv.Image, iv.Load, iv.Why)
		return v
	}
	if len(a) == 0 {
		v.Reason = fmt.Sprintf("does not load on %s: the artifact has no images", r)
	} else {
		var why []string
		for _, iv := range v.Images {
			why = append(why, fmt.Sprintf("%s: %s", iv.Image, iv.Why))
		}
		v.Reason = fmt.Sprintf("does not load on %s: %s", r, strings.Join(why, "; "))
	}
	v.Fix = fix(a, r, v.Images)
	return v
}

// better reports whether image x is the driver's choice over image y (both load).
func better(x, y ImageVerdict) bool {
	xs, ys := x.Load != PTXJIT, y.Load != PTXJIT
	if xs != ys {
		return xs // SASS over PTX
	}
	if xn, yn := x.Image.Chip.Number(), y.Image.Chip.Number(); xn != yn {
		return xn > yn // the closest (highest) compatible chip
	}
	if xr, yr := suffixRank(x.Image.Chip.Suffix), suffixRank(y.Image.Chip.Suffix); xr != yr {
		return xr < yr // UNVERIFIED tie-break, see table.go: 'a', then 'f', then plain
	}
	return x.Image.PTX.Compare(y.Image.PTX) > 0
}

func suffixRank(s string) int {
	switch s {
	case "a":
		return 0
	case "f":
		return 1
	}
	return 2
}

// judge decides one image on one runner.
func judge(img Image, r Runner) (ImageVerdict, []string) {
	iv := ImageVerdict{Image: img}
	var notes []string
	run, ic := r.Chip, img.Chip
	base := Chip{Major: ic.Major, Minor: ic.Minor}
	kind := "SASS"
	if ic.Virtual {
		kind = "PTX"
	}
	name := ic.String()

	// Which chips the image's code is for.
	switch {
	case ic.Suffix == "a":
		if base != run {
			iv.Why = fmt.Sprintf("%s %s runs only on %s (architecture-specific)", name, kind, base)
			return iv, nil
		}
	case ic.Suffix == "f":
		fam := familyOf(base)
		if familyOf(run) != fam || run.Major != base.Major || run.Minor < base.Minor {
			members := ""
			if m := familyMembers(fam); len(m) > 0 {
				members = " (" + strings.Join(m, ", ") + ")"
			}
			iv.Why = fmt.Sprintf("%s %s runs only on family %s chips%s of compute capability %d.%d or higher",
				name, kind, fam, members, base.Major, base.Minor)
			return iv, nil
		}
	case ic.Virtual:
		if compare2(run.Major, run.Minor, base.Major, base.Minor) < 0 {
			iv.Why = fmt.Sprintf("%s PTX needs a chip of compute capability %d.%d or higher; %s is %d.%d",
				name, base.Major, base.Minor, run, run.Major, run.Minor)
			return iv, nil
		}
	default:
		if run.Major != base.Major {
			iv.Why = fmt.Sprintf("%s SASS runs only on compute capability %d.x chips; %s is %d.%d",
				name, base.Major, run, run.Major, run.Minor)
			return iv, nil
		}
		if run.Minor < base.Minor {
			iv.Why = fmt.Sprintf("%s SASS needs compute capability %d.%d or a higher %d.x; %s is %d.%d",
				name, base.Major, base.Minor, base.Major, run, run.Major, run.Minor)
			return iv, nil
		}
	}

	if !ic.Virtual {
		if !img.Toolkit.IsZero() && !r.Driver.IsZero() && r.Driver.Major < img.Toolkit.Major {
			iv.Why = fmt.Sprintf("%s was built by CUDA %s; a driver of CUDA %s loads cubins of CUDA %d.x and older",
				name, img.Toolkit, r.Driver, r.Driver.Major)
			iv.needDriver = Toolkit{img.Toolkit.Major, 0}
			return iv, nil
		}
		if base == run {
			iv.Load, iv.Why = ExactSASS, fmt.Sprintf("%s is SASS for %s itself", name, run)
		} else if ic.Suffix == "f" {
			iv.Load, iv.Why = CompatibleSASS, fmt.Sprintf("%s runs on family %s chips of compute capability %d.%d or higher",
				name, familyOf(base), base.Major, base.Minor)
		} else {
			iv.Load, iv.Why = CompatibleSASS, fmt.Sprintf("%s runs on %d.x chips of minor %d or higher",
				name, base.Major, base.Minor)
		}
		return iv, nil
	}

	// PTX: the ISA version must fit the target and the driver.
	if img.PTX.IsZero() {
		notes = append(notes, fmt.Sprintf("%s: PTX ISA version unknown; assuming the driver knows it", img))
	} else {
		if row, ok := Lookup(ic); ok && img.PTX.Compare(row.MinPTX) < 0 {
			iv.Why = fmt.Sprintf("PTX ISA %s is older than %s allows (%s or newer); the driver rejects it",
				img.PTX, name, row.MinPTX)
			return iv, nil
		}
		switch {
		case r.Driver.IsZero():
			notes = append(notes, fmt.Sprintf("%s: driver version unknown; assuming it JIT-compiles PTX ISA %s", img, img.PTX))
		default:
			hi, beyond, ok := DriverPTX(r.Driver)
			if !ok || img.PTX.Compare(hi) > 0 {
				if beyond {
					notes = append(notes, fmt.Sprintf("%s: driver CUDA %s is newer than the chip table; assuming it JIT-compiles PTX ISA %s",
						img, r.Driver, img.PTX))
					break
				}
				iv.driverPTX = hi
				if rel, known := PTXRelease(img.PTX); known {
					iv.needDriver = rel
					iv.Why = fmt.Sprintf("PTX ISA %s needs a driver of CUDA %s or newer; a driver of CUDA %s JIT-compiles PTX ISA %s at most",
						img.PTX, rel, r.Driver, hi)
				} else {
					iv.Why = fmt.Sprintf("PTX ISA %s is newer than the chip table knows; a driver of CUDA %s JIT-compiles PTX ISA %s at most",
						img.PTX, r.Driver, hi)
				}
				return iv, notes
			}
		}
	}
	iv.Load = PTXJIT
	iv.Why = fmt.Sprintf("the driver JIT-compiles %s PTX for %s", name, run)
	return iv, notes
}

// fix suggests how to make an artifact load on a runner it does not load on.
func fix(a Artifact, r Runner, ivs []ImageVerdict) string {
	run := r.Chip
	var parts []string

	add := "add " + run.String() + " to the chips"
	if row, ok := Lookup(run); ok {
		switch {
		case !row.RenamedTo.IsZero():
			add += fmt.Sprintf(" (CUDA %s to %s; from CUDA %s it is %s)", row.First, row.Last, firstOf(row.RenamedTo), row.RenamedTo)
		case !row.Last.IsZero():
			add += fmt.Sprintf(" (CUDA %s to %s can build it)", row.First, row.Last)
		default:
			add += fmt.Sprintf(" (CUDA %s or newer)", row.First)
		}
	} else {
		add += " (not in the chip table yet)"
	}
	parts = append(parts, add)

	// A PTX image that only the driver stopped: lower its ISA version or update the driver.
	var need Toolkit
	var lower []string
	for _, iv := range ivs {
		if iv.needDriver.IsZero() {
			continue
		}
		if need.IsZero() || iv.needDriver.Compare(need) < 0 {
			need = iv.needDriver
		}
		if iv.Image.Chip.Virtual && !iv.driverPTX.IsZero() {
			if row, ok := Lookup(iv.Image.Chip); ok && row.MinPTX.Compare(iv.driverPTX) <= 0 {
				lower = append(lower, fmt.Sprintf("build %s PTX at PTX ISA %s to %s", iv.Image.Chip, row.MinPTX, iv.driverPTX))
			}
		}
	}
	parts = append(parts, lower...)

	// Otherwise embed PTX that the driver can JIT for this chip: of the newest plain chip in the
	// artifact not newer than the runner, or of the runner itself. Not when the artifact already has
	// PTX for the chip that only the driver stopped.
	ptxUsable := false
	for _, iv := range ivs {
		if iv.Image.Chip.Virtual && !iv.needDriver.IsZero() {
			ptxUsable = true
		}
	}
	if !ptxUsable {
		target := Chip{Major: run.Major, Minor: run.Minor, Virtual: true}
		bestNum := -1
		for _, img := range a {
			b := Chip{Major: img.Chip.Major, Minor: img.Chip.Minor, Virtual: true}
			if compare2(b.Major, b.Minor, run.Major, run.Minor) <= 0 && b.Number() > bestNum {
				target, bestNum = b, b.Number()
			}
		}
		embed := fmt.Sprintf("embed %s PTX, which the driver JIT-compiles for %s", target, run)
		if !r.Driver.IsZero() {
			if hi, beyond, ok := DriverPTX(r.Driver); ok && !beyond {
				embed += fmt.Sprintf(" (at PTX ISA %s or older for this driver)", hi)
			}
		}
		parts = append(parts, embed)
	}
	if !need.IsZero() {
		parts = append(parts, fmt.Sprintf("update the driver to CUDA %s or newer", need))
	}
	return strings.Join(parts, ", or ")
}

// familyOf is the family of a real chip: the table's, or for a chip the table does not know, its
// major version (what LLVM assumes for later chips).
func familyOf(c Chip) string {
	if a, ok := Lookup(Chip{Major: c.Major, Minor: c.Minor}); ok {
		return a.Family
	}
	return "sm_" + strconv.Itoa(c.Major) + "x"
}

// familyMembers lists the plain chips of a family, for messages.
func familyMembers(family string) []string {
	var out []string
	for _, a := range arches {
		if a.Chip.Suffix == "" && a.Family == family {
			out = append(out, a.Chip.String())
		}
	}
	return out
}

// notARunner is the message for a runner named as a target that no GPU is: {runner} stands for the
// name, {list} for where it was given, {gpu} for the GPU's chip.
const notARunner = "{list}: runner {runner} is a target, not a GPU: a runner is a GPU, named by its compute capability ({gpu}); code for {runner} runs on {gpu} GPUs"

// NotARunner is the error for c (compute_XX, sm_XXa, sm_XXf) given as a runner in list.
func NotARunner(c Chip, list string) error {
	gpu := Chip{Major: c.Major, Minor: c.Minor}
	return errors.New(strings.NewReplacer("{list}", list, "{runner}", c.String(), "{gpu}", gpu.String()).Replace(notARunner))
}

// ParseRunners reads the runners of a command line: a chip list (ParseList: spaces after commas
// accepted, duplicates refused) named listName, each a GPU's compute capability, and an optional
// driver CUDA version (a driver the table knows, CheckDriver) named driverName, that all have.
func ParseRunners(list, listName, driver, driverName string) ([]Runner, error) {
	var d Toolkit
	if driver != "" {
		var err error
		if d, err = ParseToolkit(driver); err == nil {
			err = CheckDriver(d)
		}
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", driverName, driver, err)
		}
	}
	if strings.TrimSpace(list) == "" {
		return nil, fmt.Errorf("%s: no runners given; name the GPUs, e.g. sm_80,sm_90", listName)
	}
	chips, err := ParseList(list, listName)
	if err != nil {
		return nil, err
	}
	rs := make([]Runner, len(chips))
	for i, c := range chips {
		if c.Virtual || c.Suffix != "" {
			return nil, NotARunner(c, listName)
		}
		rs[i] = Runner{Chip: c, Driver: d}
	}
	return rs, nil
}
