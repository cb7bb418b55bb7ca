package artifact

import (
	"fmt"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/fatbin"
)

// ChipImages describes a's images for the chip model's verdicts (chip.RunsOn).
func (a *Artifact) ChipImages() chip.Artifact {
	var out chip.Artifact
	for _, e := range a.Images {
		c := chip.Chip{Major: int(e.Arch) / 10, Minor: int(e.Arch) % 10}
		switch {
		case e.Flags&fatbin.FlagArchSpecific != 0:
			c.Suffix = "a"
		case e.Flags&fatbin.FlagFamilySpecific != 0:
			c.Suffix = "f"
		}
		img := chip.Image{Chip: c}
		switch e.Kind {
		case fatbin.KindPTX:
			img.Chip.Virtual = true
			img.PTX = chip.PTX{Major: int(e.Major), Minor: int(e.Minor)}
		case fatbin.KindELF:
			img.ELF = chip.ELF{Major: int(e.Major), Minor: int(e.Minor)}
		default:
			continue // NVVM IR is for link-time optimization; the driver does not load it
		}
		out = append(out, img)
	}
	return out
}

// Join treats several files as one artifact: a program that ships one cubin per chip and loads the
// one that fits. Path joins the files' paths.
func Join(arts []*Artifact) *Artifact {
	j := &Artifact{Format: FormatFatbin}
	var paths []string
	for _, a := range arts {
		paths = append(paths, a.Path)
		j.Images = append(j.Images, a.Images...)
	}
	j.Path = strings.Join(paths, " + ")
	return j
}

// Verdict is one artifact judged on one runner: what `gpubuild check --json` prints.
type Verdict struct {
	File   string   `json:"file"`
	Runner string   `json:"runner"`
	Driver string   `json:"driver,omitempty"`
	Loads  bool     `json:"loads"`
	How    string   `json:"how"`
	Image  string   `json:"image,omitempty"`
	Reason string   `json:"reason"`
	Fix    string   `json:"fix,omitempty"`
	Notes  []string `json:"notes,omitempty"`
}

// Check judges a on every runner.
func Check(a *Artifact, runners []chip.Runner) []Verdict {
	imgs := a.ChipImages()
	var out []Verdict
	for _, r := range runners {
		v := chip.RunsOn(imgs, r)
		cv := Verdict{File: a.Path, Runner: r.Chip.String(), Loads: v.Loads, How: v.Load.String(), Reason: v.Reason, Fix: v.Fix, Notes: v.Notes}
		if !r.Driver.IsZero() {
			cv.Driver = r.Driver.String()
		}
		if v.Pick >= 0 {
			cv.Image = imgs[v.Pick].String()
		}
		out = append(out, cv)
	}
	return out
}

// ParseRunners reads a comma-separated list of runner chips ("sm_75,sm_90") and an optional driver
// CUDA version ("13.0") that all of them have (chip.ParseRunners).
func ParseRunners(chips, driver string) ([]chip.Runner, error) {
	return chip.ParseRunners(chips, "--runs-on", driver, "--driver")
}

// String is the verdict as one line: "OK file on sm_90 (driver 13.0): ..." or "FAIL ...".
func (v Verdict) String() string {
	status := "OK  "
	if !v.Loads {
		status = "FAIL"
	}
	on := v.Runner
	if v.Driver != "" {
		on += " (driver " + v.Driver + ")"
	}
	s := fmt.Sprintf("%s %s on %s: %s", status, v.File, on, v.Reason)
	if v.Fix != "" {
		s += "\n     fix: " + v.Fix
	}
	return s
}
