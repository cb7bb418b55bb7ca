// Package artifacttest makes the GPU images that tests of the artifact readers' users need without
// the CUDA toolkit: minimal cubins that tools/internal/artifact reads whole.
package artifacttest

import (
	"encoding/binary"
	"fmt"
)

// MinCubinSize is the size of the smallest cubin that Cubin makes.
const MinCubinSize = 0x40 + 0x10 + 2*0x40

// Cubin returns a minimal well-formed cubin of n bytes (at least MinCubinSize): a 64-bit
// little-endian EM_CUDA executable ELF header with the given ELF ABI version and e_flags (CUDA 12
// writes ABI 7 with the SM in the low byte, 0x5a055a for sm_90; CUDA 13 ABI 8 with the SM in the
// second byte), a section-name string table at 0x40, and the section header table (the null section
// and .shstrtab) ending at n. It has no code: the driver would not load it, but its structure is
// whole.
func Cubin(abi byte, flags uint32, n int) []byte {
	if n < MinCubinSize {
		panic(fmt.Sprintf("artifacttest.Cubin: %d bytes, need at least %d", n, MinCubinSize))
	}
	b := make([]byte, n)
	copy(b, "\x7fELF")
	b[4], b[5], b[6], b[7], b[8] = 2, 1, 1, 0x33, abi // ELFCLASS64, ELFDATA2LSB, EV_CURRENT, CUDA, ABI
	le := binary.LittleEndian
	le.PutUint16(b[0x10:], 2)   // e_type ET_EXEC
	le.PutUint16(b[0x12:], 190) // e_machine EM_CUDA
	le.PutUint32(b[0x14:], 1)   // e_version
	shoff := uint64(n - 2*0x40)
	le.PutUint64(b[0x28:], shoff)
	le.PutUint32(b[0x30:], flags)
	le.PutUint16(b[0x34:], 0x40) // e_ehsize
	le.PutUint16(b[0x3a:], 0x40) // e_shentsize
	le.PutUint16(b[0x3c:], 2)    // e_shnum
	le.PutUint16(b[0x3e:], 1)    // e_shstrndx
	names := "\x00.shstrtab\x00"
	copy(b[0x40:], names)
	s := b[shoff+0x40:]
	le.PutUint32(s[0:], 1)       // sh_name ".shstrtab"
	le.PutUint32(s[4:], 3)       // sh_type SHT_STRTAB
	le.PutUint64(s[0x18:], 0x40) // sh_offset
	le.PutUint64(s[0x20:], uint64(len(names)))
	le.PutUint64(s[0x30:], 1) // sh_addralign
	return b
}
