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
	"strings"
	"unicode/utf8"

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
// its images. Every image is read whole first (CheckEntries): what Parse accepts is what the CUDA
// driver can load, as far as the file's structure goes.
func Parse(data []byte) (*Artifact, error) {
	switch {
	case len(data) >= 4 && binary.LittleEndian.Uint32(data) == fatbin.Magic:
		f, err := fatbin.Read(data)
		if err != nil {
			return nil, err
		}
		if err := CheckEntries(f.Entries); err != nil {
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

var (
	ptxVersion = regexp.MustCompile(`(?m)^\s*\.version\s+(\d+)\.(\d+)`)
	ptxTarget  = regexp.MustCompile(`(?m)^\s*\.target\s+(?:sm|compute)_(\d+)([af]?)`)
)

// PTXImage describes PTX text as a fatbin entry: the PTX ISA version from its .version directive and
// the architecture from its .target directive. The text ends at its first NUL byte, if any, as the
// driver reads it; before that it must be text (UTF-8 without control characters but white space).
func PTXImage(data []byte) (fatbin.Entry, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	v := ptxVersion.FindSubmatch(data)
	if v == nil {
		return fatbin.Entry{}, fmt.Errorf("no .version directive: not PTX")
	}
	t := ptxTarget.FindSubmatch(data)
	if t == nil {
		return fatbin.Entry{}, fmt.Errorf("PTX has no .target sm_XX directive")
	}
	if off := notText(data); off >= 0 {
		return fatbin.Entry{}, fmt.Errorf("PTX holds a byte that is not text at offset %#x", off)
	}
	major, _ := strconv.Atoi(string(v[1]))
	minor, _ := strconv.Atoi(string(v[2]))
	arch, _ := strconv.Atoi(string(t[1]))
	e := fatbin.Entry{Kind: fatbin.KindPTX, Arch: uint32(arch), Major: uint16(major), Minor: uint16(minor), Flags: fatbin.DefaultFlags, Payload: data}
	switch string(t[2]) {
	case "a":
		e.Flags |= fatbin.FlagArchSpecific
	case "f":
		e.Flags |= fatbin.FlagFamilySpecific
	}
	return e, nil
}

// notText returns the offset of the first byte of data that is not part of UTF-8 text (a control
// character other than white space, or an invalid sequence), or -1.
func notText(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 || r < 0x20 && !strings.ContainsRune("\t\n\v\f\r", r) || r == 0x7f {
			return i
		}
		i += n
	}
	return -1
}

// CheckEntries reads each image of a fatbin whole, as the driver would before loading it: each
// cubin (decompressed) as CubinImage does, for the architecture its entry names, and each PTX as
// PTXImage does. NVVM IR, which the driver does not load, and obfuscated payloads, which only NVIDIA's
// tools decode, are not read. The error is an *ImageError naming the entry.
func CheckEntries(entries []fatbin.Entry) error {
	for i, e := range entries {
		if e.Flags&fatbin.FlagObfuscated != 0 {
			continue
		}
		fail := func(off int64, format string, args ...any) error {
			return &ImageError{Entry: i, Kind: e.Kind, Arch: e.ArchName(), Offset: off, Msg: fmt.Sprintf(format, args...), Fix: damagedFix}
		}
		switch e.Kind {
		case fatbin.KindELF:
			c, err := readCubin(e.Payload)
			if err != nil {
				err.Entry, err.Kind, err.Arch, err.Fix = i, e.Kind, e.ArchName(), damagedFix
				return err
			}
			if c.arch != e.Arch {
				return fail(-1, "the entry is for sm_%d, its cubin for sm_%d", e.Arch, c.arch)
			}
		case fatbin.KindPTX:
			if _, err := PTXImage(e.Payload); err != nil {
				return fail(-1, "%v", err)
			}
		}
	}
	return nil
}

// elfSize is the length of the ELF image at the start of data: where its last header, table,
// section or segment ends. It is 0 when data is not a whole cubin.
func elfSize(data []byte) uint64 {
	c, err := readCubin(data)
	if err != nil {
		return 0
	}
	return c.size
}

// Base is the name cuobjdump gives extracted files of path: the file name without its extension.
func Base(path string) string {
	b := filepath.Base(path)
	return b[:len(b)-len(filepath.Ext(b))]
}
