package artifact

import (
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
)

func TestCheck(t *testing.T) {
	cubin, err := CubinImage(fakeCubin(7, 0x50, 256)) // sm_80
	if err != nil {
		t.Fatal(err)
	}
	ptx, err := PTXImage([]byte(samplePTX)) // compute_80, ISA 8.4
	if err != nil {
		t.Fatal(err)
	}
	// An architecture-specific pair, as rules_gpu's fatbin for chips = ["sm_90a"]: sm_90 alone runs it.
	cubin90a, err := CubinImage(fakeCubin(7, 0x5a0d5a, 256))
	if err != nil {
		t.Fatal(err)
	}
	ptx90a, err := PTXImage([]byte(".version 8.0\n.target sm_90a\n.address_size 64\n"))
	if err != nil {
		t.Fatal(err)
	}
	runners, err := ParseRunners("sm_80, sm_86,sm_90", "12.2")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		images []fatbin.Entry
		want   []string // per runner: "loads how" or "no"
	}{
		{"cubin", []fatbin.Entry{cubin}, []string{"exact SASS", "compatible SASS", "no"}},
		{"cubin+ptx, driver too old for ISA 8.4", []fatbin.Entry{cubin, ptx}, []string{"exact SASS", "compatible SASS", "no"}},
		{"sm_90a cubin+ptx", []fatbin.Entry{cubin90a, ptx90a}, []string{"no", "no", "exact SASS"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vs := Check(&Artifact{Path: "k.fatbin", Format: FormatFatbin, Images: tc.images}, runners)
			for i, v := range vs {
				got := v.How
				if !v.Loads {
					got = "no"
					if v.Fix == "" || !strings.HasPrefix(v.String(), "FAIL k.fatbin on "+v.Runner) {
						t.Errorf("%s: no fix or bad line: %q", v.Runner, v.String())
					}
				}
				if got != tc.want[i] {
					t.Errorf("%s: %s (%s), want %s", v.Runner, got, v.Reason, tc.want[i])
				}
			}
		})
	}
	// With a driver that knows PTX ISA 8.4, the PTX serves sm_90.
	newer, _ := ParseRunners("sm_90", "12.4")
	if v := Check(&Artifact{Images: []fatbin.Entry{cubin, ptx}}, newer)[0]; !v.Loads || v.How != "PTX JIT" {
		t.Errorf("sm_90 with driver 12.4: %+v", v)
	}
}

func TestParseRunnersErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":           "no runners",
		"sm_90a":     "compute capability",
		"compute_90": "compute capability",
		"gfx90a":     "unknown chip",
	} {
		if _, err := ParseRunners(in, ""); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRunners(%q): %v, want an error with %q", in, err, want)
		}
	}
	if _, err := ParseRunners("sm_90", "thirteen"); err == nil || !strings.Contains(err.Error(), "driver") {
		t.Errorf("bad driver: %v", err)
	}
}

// Two one-chip files judged together serve both chips; apart, each fails the other's runner.
func TestCheckJoin(t *testing.T) {
	c80, _ := CubinImage(fakeCubin(7, 0x50, 256))
	c90, _ := CubinImage(fakeCubin(7, 0x5a, 256))
	a := &Artifact{Path: "k.sm_80.cubin", Images: []fatbin.Entry{c80}}
	b := &Artifact{Path: "k.sm_90.cubin", Images: []fatbin.Entry{c90}}
	runners, _ := ParseRunners("sm_80,sm_90", "")
	for _, v := range Check(Join([]*Artifact{a, b}), runners) {
		if !v.Loads || v.File != "k.sm_80.cubin + k.sm_90.cubin" {
			t.Errorf("joined: %+v", v)
		}
	}
	if v := Check(a, runners)[1]; v.Loads {
		t.Errorf("sm_80 cubin alone loads on sm_90: %+v", v)
	}
}
