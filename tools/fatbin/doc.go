// Package fatbin reads and writes CUDA fatbin containers: the files NVIDIA's
// fatbinary tool produces, that cuobjdump lists and that cuModuleLoadData
// accepts.
//
// A fatbin is a 16-byte file header followed by entries placed back to back.
// Each entry is an entry header (a fixed 64-byte part, an identifier slot, and
// for PTX an options descriptor and an options slot) followed by the stored payload, padded
// with zeros to a multiple of 8 bytes. A payload is a PTX text, an ELF image
// (cubin) or NVVM IR for link-time optimization, and may be compressed with
// LZ4 (a raw LZ4 block) or zstd (a zstd frame).
//
// The package knows nothing about GPUs beyond storing an architecture number
// (80 for sm_80) in each entry. It does not sort, merge or deduplicate
// entries: Write stores them in the order given and Read returns them in file
// order.
//
// # Layout
//
// All integers are little-endian. Write produces exactly the layout of CUDA
// 12.4's fatbinary (the golden files in testdata/ are its output, and the
// tests rebuild them byte for byte); Read also accepts other header shapes,
// such as CUDA 11.8's, whose entries carry no empty string slots. Every offset
// lives in one constant in layout.go.
//
//	File header (16 bytes)
//	  0x00 u32 magic 0xBA55ED50
//	  0x04 u16 version 1
//	  0x06 u16 header size 0x10
//	  0x08 u64 size of everything after the file header
//
//	Entry header (offsets from the entry start)
//	  0x00 u16 kind: 1 PTX, 2 ELF, 8 NVVM IR
//	  0x02 u16 0x0101 in every file seen (kept in RawFields)
//	  0x04 u32 entry header size; the payload starts at entry + this
//	  0x08 u64 stored payload size, a multiple of 8
//	  0x10 u32 compressed size without padding, 0 if not compressed
//	  0x14 u32 offset of the options descriptor in the header, 0 if none
//	  0x18 u16 minor version (PTX ISA minor, or ELF code version minor)
//	  0x1A u16 major version (PTX ISA major, or 1 for ELF)
//	  0x1C u32 architecture number (50, 80, 90, ...)
//	  0x20 u32 identifier offset in the header, 0 if none
//	  0x24 u32 identifier length without its NUL
//	  0x28 u64 flags (Flag64Bit, FlagLZ4, ...)
//	  0x30 u64 0 in every file seen (kept in RawFields)
//	  0x38 u64 uncompressed size, 0 if not compressed
//	  0x40 identifier slot: the identifier, NUL-terminated and zero-padded to
//	       a multiple of 8 (8 zero bytes, and offset 0 at 0x20, when none)
//	  then, for PTX only:
//	  +0   u32+u32 options descriptor (its offset is at 0x14): offset in the
//	       header and length of the ptxas options string
//	  +8   options slot: the options, NUL-terminated and zero-padded to a
//	       multiple of 8 (8 zero bytes when none)
//
// # Payloads
//
// Entry.Payload is always the uncompressed image. A PTX payload is stored
// with a terminating NUL, which Read strips and Write adds; a PTX payload
// therefore must not contain NUL bytes. ELF and NVVM payloads are stored as
// they are, zero-padded to a multiple of 8. An uncompressed entry does not
// record its unpadded length, so Read returns an uncompressed ELF or NVVM
// payload with the padding; cubins are normally a multiple of 8 bytes long
// already, and the padding is harmless to ELF readers. Compressed entries
// record the exact length and come back without padding.
//
// The package is one of rules_gpu's two public Go libraries (with tools/chip): it knows nothing of
// Bazel and depends only on its compressors; gpubuild's own packages are under tools/internal.
package fatbin
