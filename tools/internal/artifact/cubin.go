package artifact

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
)

// This file is the one reader of cubins: the ELF images that ptxas, nvcc -cubin and nvlink write,
// alone or as the ELF entries of a fatbin. It reads the whole image before describing it, so that
// nothing the CUDA driver would refuse (CUDA_ERROR_INVALID_IMAGE: a truncated file, a header that
// points past the end, a section-name table that is not one) is ever called a cubin.
//
// It checks, with explicit bounds (debug/elf reads lazily and checks only what it reads):
//   - the ELF header: magic, 64-bit class, little endian, EI_VERSION 1, e_machine EM_CUDA (190),
//     e_type relocatable or executable, its own size (64 bytes);
//   - the section header table and the program header table: entry sizes, offsets, no extended
//     numbering, and both inside the file; a cubin has sections, so a file without a section header
//     table is refused, and its first section is SHT_NULL;
//   - every section's bytes (but SHT_NOBITS sections') and every segment's file bytes inside the file,
//     and no section compressed (SHF_COMPRESSED: the driver does not decompress them);
//   - the section-name string table: a string table inside the file, NUL-terminated, and every
//     section's name inside it; symbol tables: 24-byte entries, linked to a string table;
//   - note sections: every note inside its section; the architecture that NVIDIA's notes name (the
//     .note.nv.cuinfo SM, the .note.nv.tkinfo "-arch sm_XX") is the one in e_flags.
//
// The ELF header's e_version and EI_OSABI are not checked: they change with the toolkit (CUDA 12
// ptxas writes its ABI version, 124, into e_version; CUDA 13 changed EI_OSABI from 0x33 to 0x41).

// emCUDA is the ELF machine number of NVIDIA CUDA images.
const emCUDA = 190

// The ELF64 sizes and constants the reader uses (see the ELF gABI).
const (
	ehdrSize      = 0x40 // ELF header
	shdrSize      = 0x40 // section header
	phdrSize      = 0x38 // program header
	symSize       = 0x18 // symbol table entry
	shtNull       = 0
	shtSymtab     = 2
	shtStrtab     = 3
	shtNote       = 7
	shtNobits     = 8
	shtDynsym     = 11
	etRel         = 1
	etExec        = 2
	ptLoad        = 1
	shfCompressed = 0x800
	noteCUInfo    = 1000 // .note.nv.cuinfo: u16 version, u16 SM, u32 toolkit version (CUDA 13)
	noteTKInfo    = 2000 // .note.nv.tkinfo: the tool's name, version and command line (CUDA 13)
	noteVendor    = "NVIDIA Corp"
	damagedFix    = "the file is damaged (truncated or corrupted): rebuild it"
	notCubinFix   = "" // a file that is no cubin at all: the caller says what it wanted
)

// ImageError is an image that cannot be read whole: a cubin or PTX file, or an entry of a fatbin,
// that the CUDA driver would refuse (CUDA_ERROR_INVALID_IMAGE). It says which image, what is wrong
// and the fix; Open and ReadImage put the file's path before it.
type ImageError struct {
	// Entry is the index of the fatbin entry, from 0; -1 for a file that is one cubin or PTX.
	Entry int
	Kind  fatbin.Kind
	Arch  string // "sm_90"; empty when the image does not say
	// Offset is the byte offset in the image of what is wrong, -1 when no one byte is.
	Offset int64
	Msg    string // what is wrong
	Fix    string // what to do
}

func (e *ImageError) Error() string {
	what := "cubin"
	if e.Kind == fatbin.KindPTX {
		what = "PTX"
	}
	if e.Entry >= 0 {
		what = fmt.Sprintf("fatbin entry %d (%s", e.Entry, e.Kind)
		if e.Arch != "" {
			what += ", " + e.Arch
		}
		what += ")"
	}
	s := what + ": " + e.Msg
	if e.Offset >= 0 {
		s += fmt.Sprintf(" (at byte %#x)", e.Offset)
	}
	if e.Fix != "" {
		s += ": " + e.Fix
	}
	return s
}

// SaysFix says whether err, from Open, Parse or ReadImage, ends with the fix: an *ImageError with
// one.
func SaysFix(err error) bool {
	var ie *ImageError
	return errors.As(err, &ie) && ie.Fix != ""
}

// cubinInfo is what the ELF header and notes of a well-formed cubin say.
type cubinInfo struct {
	arch     uint32 // 90 for sm_90 and sm_90a
	abi      byte   // the ELF ABI version: 7 for CUDA 12, 8 for CUDA 13
	specific bool   // sm_90a
	family   bool   // sm_100f
	size     uint64 // where the image's last byte ends: the ELF headers, tables, sections and segments
}

// CubinImage describes a cubin as a fatbin entry, after checking that it is one whole ELF image
// (see the file comment); errors are *ImageError. Its architecture comes from the ELF header's
// e_flags, its code version (the fatbin entry's 1.minor) from the ELF ABI version, as fatbinary does.
func CubinImage(data []byte) (fatbin.Entry, error) {
	c, err := readCubin(data)
	if err != nil {
		err.Entry = -1
		err.Kind = fatbin.KindELF
		return fatbin.Entry{}, err
	}
	e := fatbin.Entry{Kind: fatbin.KindELF, Arch: c.arch, Major: 1, Minor: uint16(c.abi), Flags: fatbin.DefaultFlags, Payload: data}
	if c.specific {
		e.Flags |= fatbin.FlagArchSpecific
	}
	if c.family {
		e.Flags |= fatbin.FlagFamilySpecific
	}
	return e, nil
}

// tkinfoArch finds the target in the tool command line of a .note.nv.tkinfo note ("-arch sm_90a -m 64").
var tkinfoArch = regexp.MustCompile(`-arch[ =]sm_(\d+)([af]?)\b`)

// readCubin checks data as a cubin, whole. The error's Entry, Kind and Arch are for the caller to
// fill in.
func readCubin(data []byte) (cubinInfo, *ImageError) {
	var c cubinInfo
	n := uint64(len(data))
	fail := func(off int64, fix, format string, args ...any) (cubinInfo, *ImageError) {
		return cubinInfo{}, &ImageError{Offset: off, Msg: fmt.Sprintf(format, args...), Fix: fix}
	}
	// inside says whether [off, off+size) lies in the file, without overflowing.
	inside := func(off, size uint64) bool { return off <= n && size <= n-off }

	// The ELF header.
	if !bytes.HasPrefix(data, []byte("\x7fELF")) {
		return fail(-1, notCubinFix, "not an ELF file")
	}
	if len(data) < ehdrSize {
		return fail(-1, damagedFix, "%d bytes: shorter than an ELF header (%d bytes)", len(data), ehdrSize)
	}
	if data[4] != 2 || data[5] != 1 {
		return fail(4, notCubinFix, "not a 64-bit little-endian ELF file, as cubins are (class %d, data %d)", data[4], data[5])
	}
	if data[6] != 1 {
		return fail(6, damagedFix, "ELF identification version %d, not 1", data[6])
	}
	le := binary.LittleEndian
	if m := le.Uint16(data[0x12:]); m != emCUDA {
		return fail(0x12, notCubinFix, "ELF machine %d is not CUDA (%d): not a cubin", m, emCUDA)
	}
	if t := le.Uint16(data[0x10:]); t != etRel && t != etExec {
		return fail(0x10, damagedFix, "ELF type %d is neither relocatable (1) nor executable (2)", t)
	}
	if s := le.Uint16(data[0x34:]); s != ehdrSize {
		return fail(0x34, damagedFix, "ELF header size %d, not %d", s, ehdrSize)
	}
	c.abi = data[8]
	flags := le.Uint32(data[0x30:])
	// ELF ABI ≤ 7 (CUDA ≤ 12.x): EF_CUDA_SM in the low byte, the virtual SM in the third, and
	// 0x800 (EF_CUDA_ACCELERATORS) for architecture-specific targets such as sm_90a; seen in
	// CUDA 12.4 ptxas output (sm_90: 0x4b055a, sm_90a: 0x5a0d5a).
	c.arch, c.specific = flags&0xff, flags&0x800 != 0
	if c.abi >= 8 {
		// ELF ABI 8 (CUDA 13): the SM is in the second byte (seen for sm_75 … sm_120 from CUDA 13.0
		// nvcc on the H200), and the flags of sm_90 and sm_90a cubins are identical: only the
		// toolkit note's ptxas command line ("-arch sm_90a -m 64") says which it is (below).
		c.arch, c.specific = (flags>>8)&0xff, false
	}
	if c.arch == 0 {
		return fail(0x30, damagedFix, "ELF flags %#x name no architecture", flags)
	}

	// The header tables.
	phoff, shoff := le.Uint64(data[0x20:]), le.Uint64(data[0x28:])
	phentsize, phnum := le.Uint16(data[0x36:]), uint64(le.Uint16(data[0x38:]))
	shentsize, shnum := le.Uint16(data[0x3a:]), uint64(le.Uint16(data[0x3c:]))
	shstrndx := uint64(le.Uint16(data[0x3e:]))
	if shoff == 0 || shnum == 0 {
		return fail(0x28, damagedFix, "no section header table (offset %#x, %d sections): a cubin has sections", shoff, shnum)
	}
	if shentsize != shdrSize {
		return fail(0x3a, damagedFix, "section header size %d, not %d", shentsize, shdrSize)
	}
	if !inside(shoff, shnum*shdrSize) {
		return fail(0x28, damagedFix, "the section header table [%#x, %#x) ends past the end of the file (%d bytes)", shoff, shoff+shnum*shdrSize, n)
	}
	c.size = max(ehdrSize, shoff+shnum*shdrSize)
	if phnum == 0xffff {
		return fail(0x38, damagedFix, "extended program header numbering (e_phnum 0xffff), which cubins do not use")
	}
	if phnum == 0 && phoff != 0 {
		return fail(0x20, damagedFix, "a program header table offset (%#x) without program headers", phoff)
	}
	if phnum > 0 {
		if phoff == 0 {
			return fail(0x20, damagedFix, "%d program headers without a table offset", phnum)
		}
		if phentsize != phdrSize {
			return fail(0x36, damagedFix, "program header size %d, not %d", phentsize, phdrSize)
		}
		if !inside(phoff, phnum*phdrSize) {
			return fail(0x20, damagedFix, "the program header table [%#x, %#x) ends past the end of the file (%d bytes)", phoff, phoff+phnum*phdrSize, n)
		}
		c.size = max(c.size, phoff+phnum*phdrSize)
	}

	// The sections.
	type section struct {
		name, typ    uint32
		flags        uint64
		off, size    uint64
		link         uint32
		entsize, hdr uint64
	}
	secs := make([]section, shnum)
	for i := range secs {
		h := shoff + uint64(i)*shdrSize
		s := data[h : h+shdrSize]
		secs[i] = section{name: le.Uint32(s[0:]), typ: le.Uint32(s[4:]), flags: le.Uint64(s[8:]), off: le.Uint64(s[0x18:]), size: le.Uint64(s[0x20:]),
			link: le.Uint32(s[0x28:]), entsize: le.Uint64(s[0x38:]), hdr: h}
	}
	if secs[0].typ != shtNull {
		return fail(int64(shoff)+4, damagedFix, "the first section has type %d, not SHT_NULL", secs[0].typ)
	}
	if shstrndx == 0 || shstrndx >= shnum {
		return fail(0x3e, damagedFix, "the section-name string table's index %d is not a section (the file has %d)", shstrndx, shnum)
	}
	strtab := secs[shstrndx]
	if strtab.typ != shtStrtab {
		return fail(int64(strtab.hdr)+4, damagedFix, "the section-name string table (section %d) has type %d, not a string table (%d)", shstrndx, strtab.typ, shtStrtab)
	}
	if !inside(strtab.off, strtab.size) || strtab.size == 0 || data[strtab.off+strtab.size-1] != 0 {
		return fail(int64(strtab.hdr)+0x18, damagedFix, "the section-name string table (section %d, [%#x, %#x)) is not a NUL-terminated string table inside the file (%d bytes)",
			shstrndx, strtab.off, strtab.off+strtab.size, n)
	}
	names := data[strtab.off : strtab.off+strtab.size]
	name := func(s section) string {
		if i := bytes.IndexByte(names[s.name:], 0); i >= 0 {
			return string(names[s.name : s.name+uint32(i)])
		}
		return ""
	}
	for i, s := range secs {
		if uint64(s.name) >= strtab.size {
			return fail(int64(s.hdr), damagedFix, "section %d's name offset %#x is past the end of the section-name string table (%d bytes)", i, s.name, strtab.size)
		}
		label := fmt.Sprintf("section %d (%s)", i, name(s))
		if s.flags&shfCompressed != 0 {
			return fail(int64(s.hdr)+8, damagedFix, "%s is compressed (SHF_COMPRESSED), which cubins never are", label)
		}
		if s.off >= 1<<63 || s.size >= 1<<63 {
			return fail(int64(s.hdr)+0x18, damagedFix, "%s: impossible offset %#x or size %#x", label, s.off, s.size)
		}
		if s.typ == shtNull || s.typ == shtNobits {
			continue
		}
		if !inside(s.off, s.size) {
			return fail(int64(s.hdr)+0x18, damagedFix, "%s [%#x, %#x) ends past the end of the file (%d bytes)", label, s.off, s.off+s.size, n)
		}
		c.size = max(c.size, s.off+s.size)
		switch s.typ {
		case shtSymtab, shtDynsym:
			if s.entsize != symSize || s.size%symSize != 0 {
				return fail(int64(s.hdr)+0x38, damagedFix, "%s: a symbol table of %d bytes with %d-byte entries (want %d)", label, s.size, s.entsize, symSize)
			}
			if uint64(s.link) >= shnum || secs[s.link].typ != shtStrtab {
				return fail(int64(s.hdr)+0x28, damagedFix, "%s: a symbol table whose string table, section %d, is not one", label, s.link)
			}
		case shtNote:
			if err := c.readNotes(data[s.off:s.off+s.size], s.off); err != nil {
				err.Msg = label + ": " + err.Msg
				return cubinInfo{}, err
			}
		}
	}

	// The segments.
	for i := range phnum {
		h := phoff + i*phdrSize
		p := data[h : h+phdrSize]
		typ, off, filesz, memsz := le.Uint32(p[0:]), le.Uint64(p[8:]), le.Uint64(p[0x20:]), le.Uint64(p[0x28:])
		if !inside(off, filesz) {
			return fail(int64(h)+8, damagedFix, "segment %d [%#x, %#x) ends past the end of the file (%d bytes)", i, off, off+filesz, n)
		}
		if typ == ptLoad && filesz > memsz {
			return fail(int64(h)+0x20, damagedFix, "segment %d stores %d bytes in a memory size of %d", i, filesz, memsz)
		}
		c.size = max(c.size, off+filesz)
	}
	return c, nil
}

// readNotes checks the ELF notes of a note section, at file offset base, and that NVIDIA's name
// the architecture that e_flags does; the toolkit note says whether a CUDA 13 cubin is sm_XXa or
// sm_XXf, which its e_flags do not.
func (c *cubinInfo) readNotes(sec []byte, base uint64) *ImageError {
	le := binary.LittleEndian
	align4 := func(x uint64) uint64 { return (x + 3) &^ 3 }
	for off := uint64(0); off < uint64(len(sec)); {
		left := uint64(len(sec)) - off
		if left < 12 {
			return &ImageError{Offset: int64(base + off), Msg: fmt.Sprintf("a note header needs 12 bytes, %d left", left), Fix: damagedFix}
		}
		namesz, descsz, typ := uint64(le.Uint32(sec[off:])), uint64(le.Uint32(sec[off+4:])), le.Uint32(sec[off+8:])
		nameEnd := off + 12 + align4(namesz)
		if align4(namesz) > left-12 || align4(descsz) > uint64(len(sec))-nameEnd {
			return &ImageError{Offset: int64(base + off), Msg: fmt.Sprintf("a note of %d name and %d description bytes ends past its section (%d bytes left)", namesz, descsz, left), Fix: damagedFix}
		}
		name := string(bytes.TrimRight(sec[off+12:off+12+namesz], "\x00"))
		desc := sec[nameEnd : nameEnd+descsz]
		if name == noteVendor {
			var arch uint64
			var suffix string
			switch {
			case typ == noteCUInfo && len(desc) >= 4:
				arch = uint64(le.Uint16(desc[2:]))
			case typ == noteTKInfo:
				if m := tkinfoArch.FindSubmatch(desc); m != nil {
					arch, _ = strconv.ParseUint(string(m[1]), 10, 32)
					suffix = string(m[2])
				}
			}
			if arch != 0 && arch != uint64(c.arch) {
				return &ImageError{Offset: int64(base + nameEnd), Msg: fmt.Sprintf("the ELF flags say sm_%d, the NVIDIA note of type %d sm_%d", c.arch, typ, arch), Fix: damagedFix}
			}
			if typ == noteTKInfo && c.abi >= 8 && arch != 0 {
				c.specific, c.family = suffix == "a", suffix == "f"
			}
		}
		off = nameEnd + align4(descsz)
	}
	return nil
}
