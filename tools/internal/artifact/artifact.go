// Package artifact opens the files that rules_gpu produces and consumes — fatbins, cubins and PTX —
// as lists of GPU images, and links, describes and extracts them. It is the layer between the fatbin
// container (tools/fatbin) and the helper's verbs.
package artifact

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

// Format is what kind of file an artifact is.
type Format string

// The artifact formats.
const (
	FormatFatbin Format = "fatbin"
	FormatCubin  Format = "cubin"
	FormatPTX    Format = "ptx"
)

// Artifact is one file and the images it holds, in file order.
type Artifact struct {
	Path   string
	Format Format
	Images []fatbin.Entry
}

// Open reads a fatbin, cubin or PTX file; the format is recognised from the contents.
func Open(path string) (*Artifact, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	a.Path = path
	return a, nil
}

// Parse recognises data as a fatbin, a cubin, PTX or MLIR text holding gpu.binary ops and returns
// its images.
func Parse(data []byte) (*Artifact, error) {
	switch {
	case len(data) >= 4 && binary.LittleEndian.Uint32(data) == fatbin.Magic:
		f, err := fatbin.Read(data)
		if err != nil {
			return nil, err
		}
		return &Artifact{Format: FormatFatbin, Images: f.Entries}, nil
	case bytes.HasPrefix(data, []byte("\x7fELF")):
		e, err := CubinImage(data)
		if err != nil {
			return nil, err
		}
		return &Artifact{Format: FormatCubin, Images: []fatbin.Entry{e}}, nil
	case mlir.IsText(data):
		return parseMLIR(data) // gpu.binary ops, as gpu-module-to-binary prints them (gpubinary.go)
	default:
		e, err := PTXImage(data)
		if err != nil {
			return nil, fmt.Errorf("not a fatbin, cubin or PTX file: %w", err)
		}
		return &Artifact{Format: FormatPTX, Images: []fatbin.Entry{e}}, nil
	}
}

// emCUDA is the ELF machine number of NVIDIA CUDA images.
const emCUDA = 190

// CubinImage describes a cubin as a fatbin entry: its architecture comes from the ELF header's
// e_flags, its code version (the fatbin entry's 1.minor) from the ELF ABI version, as fatbinary does.
func CubinImage(data []byte) (fatbin.Entry, error) {
	if len(data) < 0x40 || !bytes.HasPrefix(data, []byte("\x7fELF")) {
		return fatbin.Entry{}, fmt.Errorf("not an ELF file")
	}
	if data[4] != 2 || data[5] != 1 {
		return fatbin.Entry{}, fmt.Errorf("not a 64-bit little-endian ELF file, as cubins are")
	}
	if m := binary.LittleEndian.Uint16(data[0x12:]); m != emCUDA {
		return fatbin.Entry{}, fmt.Errorf("ELF machine %d is not CUDA (%d): not a cubin", m, emCUDA)
	}
	abi := data[8]
	flags := binary.LittleEndian.Uint32(data[0x30:])
	// ELF ABI ≤ 7 (CUDA ≤ 12.x): EF_CUDA_SM in the low byte, the virtual SM in the third, and
	// 0x800 (EF_CUDA_ACCELERATORS) for architecture-specific targets such as sm_90a; seen in
	// CUDA 12.4 ptxas output (sm_90: 0x4b055a, sm_90a: 0x5a0d5a).
	arch, specific := flags&0xff, flags&0x800 != 0
	family := false
	if abi >= 8 {
		// ELF ABI 8 (CUDA 13): the SM is in the second byte (seen for sm_75 … sm_120 from CUDA 13.0
		// nvcc on the H200), and the flags of sm_90 and sm_90a cubins are identical: only the
		// toolkit note's ptxas command line ("-arch sm_90a -m 64") says which it is.
		arch, specific = (flags>>8)&0xff, false
		if m := cubinArch.FindSubmatch(data); m != nil && string(m[1]) == strconv.Itoa(int(arch)) {
			specific, family = string(m[2]) == "a", string(m[2]) == "f"
		}
	}
	if arch == 0 {
		return fatbin.Entry{}, fmt.Errorf("cubin ELF flags %#x name no architecture", flags)
	}
	e := fatbin.Entry{Kind: fatbin.KindELF, Arch: arch, Major: 1, Minor: uint16(abi), Flags: fatbin.DefaultFlags, Payload: data}
	if specific {
		e.Flags |= fatbin.FlagArchSpecific
	}
	if family {
		e.Flags |= fatbin.FlagFamilySpecific
	}
	return e, nil
}

var (
	cubinArch  = regexp.MustCompile(`-arch sm_(\d+)([af]?)\b`)
	ptxVersion = regexp.MustCompile(`(?m)^\s*\.version\s+(\d+)\.(\d+)`)
	ptxTarget  = regexp.MustCompile(`(?m)^\s*\.target\s+(?:sm|compute)_(\d+)([af]?)`)
)

// PTXImage describes PTX text as a fatbin entry: the PTX ISA version from its .version directive and
// the architecture from its .target directive.
func PTXImage(data []byte) (fatbin.Entry, error) {
	v := ptxVersion.FindSubmatch(data)
	if v == nil {
		return fatbin.Entry{}, fmt.Errorf("no .version directive: not PTX")
	}
	t := ptxTarget.FindSubmatch(data)
	if t == nil {
		return fatbin.Entry{}, fmt.Errorf("PTX has no .target sm_XX directive")
	}
	major, _ := strconv.Atoi(string(v[1]))
	minor, _ := strconv.Atoi(string(v[2]))
	arch, _ := strconv.Atoi(string(t[1]))
	if bytes.IndexByte(data, 0) >= 0 {
		data = data[:bytes.IndexByte(data, 0)]
	}
	e := fatbin.Entry{Kind: fatbin.KindPTX, Arch: uint32(arch), Major: uint16(major), Minor: uint16(minor), Flags: fatbin.DefaultFlags, Payload: data}
	switch string(t[2]) {
	case "a":
		e.Flags |= fatbin.FlagArchSpecific
	case "f":
		e.Flags |= fatbin.FlagFamilySpecific
	}
	return e, nil
}

// elfSize is the length of the ELF image at the start of data, from its header: the end of the
// section or program header table, whichever is last (cubins end with their section headers). It is
// 0 when the header does not say.
func elfSize(data []byte) uint64 {
	if len(data) < 0x40 || !bytes.HasPrefix(data, []byte("\x7fELF")) || data[4] != 2 {
		return 0
	}
	le := binary.LittleEndian
	end := func(off uint64, num, size uint16) uint64 { return off + uint64(num)*uint64(size) }
	sh := end(le.Uint64(data[0x28:]), le.Uint16(data[0x3c:]), le.Uint16(data[0x3a:]))
	ph := end(le.Uint64(data[0x20:]), le.Uint16(data[0x38:]), le.Uint16(data[0x36:]))
	return max(sh, ph)
}

// Base is the name cuobjdump gives extracted files of path: the file name without its extension.
func Base(path string) string {
	b := filepath.Base(path)
	return b[:len(b)-len(filepath.Ext(b))]
}
