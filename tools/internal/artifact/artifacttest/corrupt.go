package artifacttest

import (
	_ "embed"
	"encoding/binary"
	"slices"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
)

// RealCubin is a cubin as CUDA 12.4's ptxas writes it: `ptxas -arch=sm_90` of testdata/fill.ptx
// (2,752 bytes: 11 sections, the section header table at 0x720, the program header table last).
//
//go:embed testdata/cuda12_sm90.cubin
var RealCubin []byte

// Corruption is a damaged image: what the artifact reader, gpubuild check and link, and cuobjdump
// must all refuse, as the CUDA driver does (CUDA_ERROR_INVALID_IMAGE).
type Corruption struct {
	Name string
	// Ext is the file extension a test writes Data with: ".cubin" or ".fatbin".
	Ext  string
	Data []byte
	// Want is a part of the reader's error message.
	Want string
}

// Corruptions damages cubin, a whole cubin whose section header table precedes its program header
// table (as RealCubin's does) and whose section 9 holds code, in the ways the damaged files that
// users found are damaged, and a few more: cut short, its headers pointing past its end or to the
// wrong section; and fatbins holding it damaged, uncompressed and compressed.
func Corruptions(cubin []byte) []Corruption {
	le := binary.LittleEndian
	shoff, phoff := le.Uint64(cubin[0x28:]), le.Uint64(cubin[0x20:])
	shnum := uint64(le.Uint16(cubin[0x3c:]))
	edit := func(f func(b []byte)) []byte {
		b := slices.Clone(cubin)
		f(b)
		return b
	}
	section := func(b []byte, i uint64) []byte { return b[shoff+i*0x40:] }
	const pastEnd = "ends past the end of the file"
	cs := []Corruption{
		{Name: "ELF header only", Data: cubin[:0x40], Want: pastEnd},
		{Name: "truncated to 300 bytes", Data: cubin[:300], Want: pastEnd},
		{Name: "truncated before the section headers", Data: cubin[:shoff], Want: "the section header table"},
		{Name: "truncated before the program headers", Data: cubin[:phoff], Want: "the program header table"},
		{Name: "one byte short", Data: cubin[:len(cubin)-1], Want: pastEnd},
		{Name: "shorter than an ELF header", Data: cubin[:40], Want: "shorter than an ELF header"},
		{Name: "wrong e_machine", Data: edit(func(b []byte) { le.PutUint16(b[0x12:], 62) }), Want: "ELF machine 62 is not CUDA"},
		{Name: "32-bit class", Data: edit(func(b []byte) { b[4] = 1 }), Want: "not a 64-bit little-endian ELF file"},
		{Name: "no section header table", Data: edit(func(b []byte) { le.PutUint16(b[0x3c:], 0) }), Want: "no section header table"},
		{Name: "section header table past the end", Data: edit(func(b []byte) { le.PutUint64(b[0x28:], uint64(len(b))) }), Want: "the section header table"},
		{Name: "section offset past the end", Data: edit(func(b []byte) { le.PutUint64(section(b, 9)[0x18:], uint64(len(b))+0x100) }), Want: "section 9 (.text.fill)"},
		{Name: "section size past the end", Data: edit(func(b []byte) { le.PutUint64(section(b, 9)[0x20:], 1<<40) }), Want: "section 9 (.text.fill)"},
		{Name: "section-name table index past the sections", Data: edit(func(b []byte) { le.PutUint16(b[0x3e:], uint16(shnum+3)) }), Want: "section-name string table's index"},
		{Name: "section-name table index of the symbol table", Data: edit(func(b []byte) { le.PutUint16(b[0x3e:], 3) }), Want: "not a string table"},
		{Name: "section-name table past the end", Data: edit(func(b []byte) { le.PutUint64(section(b, 1)[0x18:], uint64(len(b))) }), Want: "section-name string table"},
	}
	for i := range cs {
		cs[i].Ext = ".cubin"
	}
	fatbins := []struct {
		name, want string
		payload    []byte
		comp       fatbin.Compression
		damage     func(stored []byte)
	}{
		{name: "fatbin whose cubin is truncated", payload: cubin[:304], want: "fatbin entry 0 (elf, sm_90): the section header table"},
		{name: "fatbin whose uncompressed cubin is corrupted", payload: edit(func(b []byte) { le.PutUint64(section(b, 9)[0x18:], 1<<20) }), want: "fatbin entry 0 (elf, sm_90): section 9"},
		{name: "fatbin whose lz4 cubin is corrupted", payload: cubin, comp: fatbin.CompressionLZ4, damage: zero, want: "entry 0"},
		{name: "fatbin whose zstd cubin is corrupted", payload: cubin, comp: fatbin.CompressionZstd, damage: zero, want: "entry 0"},
	}
	for _, f := range fatbins {
		data, err := fatbin.Marshal([]fatbin.Entry{{Kind: fatbin.KindELF, Arch: 90, Major: 1, Minor: 7, Payload: f.payload, Compression: f.comp}}, fatbin.WriteOptions{})
		if err != nil {
			panic(err)
		}
		if f.damage != nil {
			file, err := fatbin.Read(data)
			if err != nil {
				panic(err)
			}
			f.damage(file.Entries[0].Stored)
		}
		cs = append(cs, Corruption{Name: f.name, Ext: ".fatbin", Data: data, Want: f.want})
	}
	return cs
}

// zero overwrites the first 16 bytes of a compressed payload, where its ELF header is encoded.
func zero(stored []byte) { clear(stored[:16]) }
