package chip

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckBoundaries checks every toolkit boundary of the table: the last toolkit before a chip
// appears or after it is dropped, and the first one on the other side.
func TestCheckBoundaries(t *testing.T) {
	for _, tc := range []struct {
		chip    string
		ok, bad []string
	}{
		// Kepler dropped in 12.0.
		{"sm_35", []string{"11.0", "11.8"}, []string{"12.0", "13.0"}},
		{"sm_37", []string{"11.8"}, []string{"12.0"}},
		// Maxwell, Pascal, Volta dropped in 13.0.
		{"sm_50", []string{"11.0", "12.9"}, []string{"13.0", "13.1"}},
		{"sm_52", []string{"12.9"}, []string{"13.0"}},
		{"sm_53", []string{"12.9"}, []string{"13.0"}},
		{"sm_60", []string{"12.9"}, []string{"13.0"}},
		{"sm_61", []string{"12.9"}, []string{"13.0"}},
		{"sm_62", []string{"12.9"}, []string{"13.0"}},
		{"sm_70", []string{"12.9"}, []string{"13.0"}},
		{"sm_72", []string{"12.9"}, []string{"13.0"}},
		{"compute_72", []string{"12.9"}, []string{"13.0"}},
		// Turing stays.
		{"sm_75", []string{"11.0", "12.9", "13.0", "13.1"}, nil},
		// Introductions.
		{"sm_80", []string{"11.0", "13.0"}, nil},
		{"sm_86", []string{"11.1"}, []string{"11.0"}},
		{"sm_87", []string{"11.4"}, []string{"11.3"}},
		{"sm_89", []string{"11.8"}, []string{"11.7"}},
		{"sm_90", []string{"11.8", "13.0"}, []string{"11.7"}},
		{"sm_90a", []string{"12.0", "13.0"}, []string{"11.8"}},
		{"compute_90a", []string{"12.0"}, []string{"11.8"}},
		{"sm_100", []string{"12.8", "13.0"}, []string{"12.6"}},
		{"sm_100a", []string{"12.8"}, []string{"12.6"}},
		{"sm_100f", []string{"12.9", "13.0"}, []string{"12.8"}},
		{"sm_103", []string{"12.9"}, []string{"12.8"}},
		{"sm_120", []string{"12.8"}, []string{"12.6"}},
		{"sm_120f", []string{"12.9"}, []string{"12.8"}},
		{"sm_121", []string{"12.9"}, []string{"12.8"}},
		{"sm_88", []string{"13.0"}, []string{"12.9"}},
		// Thor: sm_101 in 12.8-12.9, sm_110 from 13.0.
		{"sm_101", []string{"12.8", "12.9"}, []string{"12.6", "13.0"}},
		{"sm_101a", []string{"12.8", "12.9"}, []string{"13.0"}},
		{"sm_101f", []string{"12.9"}, []string{"12.8", "13.0"}},
		{"sm_110", []string{"13.0"}, []string{"12.9"}},
		{"sm_110f", []string{"13.0"}, []string{"12.9"}},
	} {
		c := mustChip(t, tc.chip)
		for _, v := range tc.ok {
			if err := mustToolkit(t, v).Check(c); err != nil {
				t.Errorf("CUDA %s, %s: %v", v, tc.chip, err)
			}
		}
		for _, v := range tc.bad {
			err := mustToolkit(t, v).Check(c)
			if err == nil {
				t.Errorf("CUDA %s compiles %s; want an error", v, tc.chip)
				continue
			}
			if !errors.Is(err, ErrUnsupported) {
				t.Errorf("CUDA %s, %s: %v is not ErrUnsupported", v, tc.chip, err)
			}
			// The error names the chip and the toolkit version.
			if msg := err.Error(); !strings.Contains(msg, tc.chip) || !strings.Contains(msg, "CUDA "+v) {
				t.Errorf("CUDA %s, %s: error %q does not name both", v, tc.chip, msg)
			}
		}
	}
}

// TestCheckErrorText pins the wording of the validation errors.
func TestCheckErrorText(t *testing.T) {
	for _, tc := range []struct {
		tk, chip string
		sentinel error
		want     []string
	}{
		{"13.0", "sm_50", ErrUnsupported, []string{
			"CUDA 13.0 cannot compile for sm_50", "ended with CUDA 12.9", "use sm_75", "or CUDA 12.9 to keep sm_50"}},
		{"13.0", "sm_70", ErrUnsupported, []string{"CUDA 13.0 cannot compile for sm_70", "use sm_75"}},
		{"13.0", "compute_61", ErrUnsupported, []string{"CUDA 13.0 cannot compile for compute_61", "use compute_75"}},
		{"12.0", "sm_35", ErrUnsupported, []string{"CUDA 12.0 cannot compile for sm_35", "ended with CUDA 11.8", "use sm_50"}},
		{"13.0", "sm_101", ErrUnsupported, []string{"CUDA 13.0 cannot compile for sm_101", "renamed it sm_110", "use sm_110"}},
		{"13.0", "sm_101a", ErrUnsupported, []string{"renamed it sm_110a"}},
		{"12.4", "sm_100", ErrUnsupported, []string{"CUDA 12.4 cannot compile for sm_100", "needs CUDA 12.8 or newer"}},
		{"12.9", "sm_110", ErrUnsupported, []string{"CUDA 12.9 cannot compile for sm_110", "needs CUDA 13.0", "CUDA 12.9 calls this chip sm_101"}},
		{"13.0", "sm_99", ErrUnknownChip, []string{"unknown chip sm_99", "CUDA 13.0", "sm_90a"}},
		{"12.4", "compute_91", ErrUnknownChip, []string{"unknown chip compute_91", "CUDA 12.4", "compute_90"}},
		{"12.7", "sm_90", ErrUnknownToolkit, []string{"CUDA 12.7", "never released", "sm_90"}},
		{"13.2", "sm_90", ErrUnknownToolkit, []string{"CUDA 13.2", "covers 11.0 to 13.1", "table.go", "sm_90"}},
		{"10.2", "sm_75", ErrUnknownToolkit, []string{"CUDA 10.2", "sm_75"}},
	} {
		err := mustToolkit(t, tc.tk).Check(mustChip(t, tc.chip))
		if err == nil {
			t.Errorf("CUDA %s, %s: no error", tc.tk, tc.chip)
			continue
		}
		if !errors.Is(err, tc.sentinel) {
			t.Errorf("CUDA %s, %s: %v is not %v", tc.tk, tc.chip, err, tc.sentinel)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("CUDA %s, %s: error %q lacks %q", tc.tk, tc.chip, err, w)
			}
		}
	}
}

func TestCheckPTX(t *testing.T) {
	for _, tc := range []struct {
		tk, chip, ptx string
		want          []string // nil: no error
	}{
		{"12.4", "sm_90", "7.8", nil},
		{"12.4", "sm_90", "8.4", nil},
		{"12.4", "sm_80", "7.0", nil},
		{"13.0", "sm_75", "6.3", nil},
		{"13.0", "compute_120f", "9.0", nil},
		{"12.4", "sm_90a", "8.0", nil},
		// Below what the chip needs.
		{"12.4", "sm_90", "7.0", []string{"PTX ISA 7.0", "sm_90", "CUDA 12.4", "needs PTX ISA 7.8 or newer"}},
		{"12.4", "sm_90a", "7.8", []string{"PTX ISA 7.8", "sm_90a", "CUDA 12.4", "needs PTX ISA 8.0 or newer"}},
		{"12.9", "sm_120f", "8.7", []string{"sm_120f", "CUDA 12.9", "needs PTX ISA 8.8"}},
		// Above what the toolkit emits.
		{"12.4", "sm_90", "8.7", []string{"PTX ISA 8.7", "sm_90", "CUDA 12.4 emits at most PTX ISA 8.4", "needs CUDA 12.8"}},
		{"12.6", "sm_90", "8.6", []string{"CUDA 12.6 emits at most PTX ISA 8.5"}},
		{"12.4", "sm_90", "9.7", []string{"PTX ISA 9.7", "sm_90", "CUDA 12.4", "knows no PTX ISA newer than 9.1"}},
		// No such version.
		{"12.4", "sm_90", "8.9", []string{"PTX ISA 8.9", "sm_90", "CUDA 12.4", "no PTX ISA version 8.9"}},
		// The chip check comes first.
		{"13.0", "sm_50", "4.0", []string{"CUDA 13.0 cannot compile for sm_50"}},
	} {
		err := mustToolkit(t, tc.tk).CheckPTX(mustChip(t, tc.chip), mustPTX(t, tc.ptx))
		if tc.want == nil {
			if err != nil {
				t.Errorf("CheckPTX(%s, %s, %s): %v", tc.tk, tc.chip, tc.ptx, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("CheckPTX(%s, %s, %s): no error", tc.tk, tc.chip, tc.ptx)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("CheckPTX(%s, %s, %s): %q lacks %q", tc.tk, tc.chip, tc.ptx, err, w)
			}
		}
		if tc.chip != "sm_50" && !errors.Is(err, ErrPTX) {
			t.Errorf("CheckPTX(%s, %s, %s): %v is not ErrPTX", tc.tk, tc.chip, tc.ptx, err)
		}
	}
}

func TestDefaultPTX(t *testing.T) {
	for _, tc := range []struct{ chip, tk, want string }{
		{"sm_80", "12.4", "7.0"},
		{"sm_90", "12.4", "7.8"},
		{"sm_90a", "13.0", "8.0"},
		{"compute_90", "13.0", "7.8"},
		{"sm_75", "13.0", "6.3"},
		{"sm_100", "12.8", "8.6"},
		{"sm_100f", "13.0", "8.8"},
		{"sm_120", "13.0", "8.7"},
		{"sm_110", "13.0", "9.0"},
	} {
		p, err := DefaultPTX(mustChip(t, tc.chip), mustToolkit(t, tc.tk))
		if err != nil || p.String() != tc.want {
			t.Errorf("DefaultPTX(%s, %s) = %v, %v; want %s", tc.chip, tc.tk, p, err, tc.want)
		}
		// The default always passes CheckPTX.
		if err := mustToolkit(t, tc.tk).CheckPTX(mustChip(t, tc.chip), p); err != nil {
			t.Errorf("DefaultPTX(%s, %s) = %v fails CheckPTX: %v", tc.chip, tc.tk, p, err)
		}
	}
	if _, err := DefaultPTX(mustChip(t, "sm_50"), Toolkit{13, 0}); err == nil {
		t.Error("DefaultPTX(sm_50, 13.0) has no error")
	}
	// For every toolkit and chip it supports, the default passes CheckPTX.
	for _, tk := range Toolkits() {
		for _, c := range tk.Chips() {
			p, err := DefaultPTX(c, tk)
			if err == nil {
				err = tk.CheckPTX(c, p)
			}
			if err != nil {
				t.Errorf("CUDA %v, %v: %v", tk, c, err)
			}
		}
	}
}

func TestReplacement(t *testing.T) {
	for _, tc := range []struct {
		chip, tk, want string // want "" means an error
	}{
		{"sm_50", "13.0", "sm_75"},
		{"sm_53", "13.0", "sm_75"},
		{"sm_61", "13.0", "sm_75"},
		{"sm_70", "13.0", "sm_75"},
		{"sm_72", "13.0", "sm_75"},
		{"compute_60", "13.0", "compute_75"},
		{"sm_35", "12.0", "sm_50"},
		{"sm_37", "12.4", "sm_50"},
		{"sm_35", "13.0", "sm_75"},
		{"sm_101", "13.0", "sm_110"},
		{"sm_101a", "13.0", "sm_110a"},
		{"sm_101f", "13.0", "sm_110f"},
		{"compute_101", "13.0", "compute_110"},
		// Supported: itself.
		{"sm_75", "13.0", "sm_75"},
		{"sm_90a", "12.4", "sm_90a"},
		// Too new for the toolkit: no replacement.
		{"sm_100", "12.4", ""},
		{"sm_110", "12.9", ""},
		// Unknown chip or toolkit.
		{"sm_99", "13.0", ""},
		{"sm_50", "12.7", ""},
	} {
		got, err := Replacement(mustChip(t, tc.chip), mustToolkit(t, tc.tk))
		if tc.want == "" {
			if err == nil {
				t.Errorf("Replacement(%s, %s) = %v, want an error", tc.chip, tc.tk, got)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("Replacement(%s, %s) = %v, %v; want %s", tc.chip, tc.tk, got, err, tc.want)
			continue
		}
		if err := mustToolkit(t, tc.tk).Check(got); err != nil {
			t.Errorf("Replacement(%s, %s) = %v, which the toolkit rejects: %v", tc.chip, tc.tk, got, err)
		}
	}
	// Every chip of the table has a replacement under every toolkit newer than its first.
	for _, a := range Known() {
		for _, tk := range Toolkits() {
			if tk.Compare(a.First) < 0 {
				continue
			}
			r, err := Replacement(a.Chip, tk)
			if err == nil {
				err = tk.Check(r)
			}
			if err != nil {
				t.Errorf("Replacement(%v, %v): %v", a.Chip, tk, err)
			}
		}
	}
}

func TestKnownPTXAndRelease(t *testing.T) {
	ks := KnownPTX()
	if ks[len(ks)-1] != (PTX{9, 1}) {
		t.Errorf("newest known PTX ISA %v", ks[len(ks)-1])
	}
	for _, tc := range []struct{ ptx, cuda string }{
		{"7.0", "11.0"}, {"7.8", "11.8"}, {"8.0", "12.0"}, {"8.5", "12.5"}, {"8.6", "12.7"},
		{"8.7", "12.8"}, {"8.8", "12.9"}, {"9.0", "13.0"}, {"6.3", "10.0"},
	} {
		v, ok := PTXRelease(mustPTX(t, tc.ptx))
		if !ok || v.String() != tc.cuda {
			t.Errorf("PTXRelease(%s) = %v, %v; want %s", tc.ptx, v, ok, tc.cuda)
		}
	}
	if _, ok := PTXRelease(PTX{8, 9}); ok {
		t.Error("PTX ISA 8.9 exists")
	}
}
