package fatbin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// WriteOptions controls Write and Marshal. The zero value is ready to use.
type WriteOptions struct {
	// ExactFlags stores each entry's Flags as given, apart from the
	// compression bits, which Write always derives from the compression it
	// applies. Without it, an entry whose Flags are zero apart from those
	// bits is stored with DefaultFlags (64-bit, Linux host).
	ExactFlags bool
	// ZstdLevel is the zstd level (1 to 22, as for the zstd command) for
	// entries with CompressionZstd; 0 means 3. The encoder maps levels onto
	// four speeds (see zstd.EncoderLevelFromZstd in
	// github.com/klauspost/compress/zstd).
	ZstdLevel int
}

// prepared is one entry ready to be emitted.
type prepared struct {
	header []byte // the complete entry header, strings included
	body   []byte // stored bytes before padding: payload or compressed stream
	pad    int    // zero bytes after body; includes the NUL of uncompressed PTX
}

var zeros [8]byte

// Write writes a fatbin holding entries, in the order given, to w. See
// Marshal for how entries are encoded. Write compresses all entries before
// writing anything, so an invalid entry leaves w untouched; it then writes
// uncompressed payloads straight from the entries without copying them.
func Write(w io.Writer, entries []Entry, opts WriteOptions) error {
	ps, size, err := prepare(entries, opts)
	if err != nil {
		return err
	}
	ew := errWriter{w: w}
	var fh [fileHeaderSize]byte
	putFileHeader(fh[:], size)
	ew.write(fh[:])
	for i := range ps {
		ew.write(ps[i].header)
		ew.write(ps[i].body)
		ew.write(zeros[:ps[i].pad])
	}
	if ew.err != nil {
		return fmt.Errorf("fatbin: write: %w", ew.err)
	}
	return nil
}

// Marshal returns the fatbin holding entries, in the order given.
//
// Entries keep the caller's order: Marshal does not sort or deduplicate, so
// callers that want reproducible output must pass entries in a reproducible
// order. The output depends only on the entries' contents and opts.
//
// For each entry Marshal uses Kind, Arch, Major, Minor, Flags (see
// WriteOptions.ExactFlags), Identifier, Options, Payload, Compression and
// Raw, and ignores the fields that Read fills in (Offset, HeaderSize, ...).
// A PTX payload gets a terminating NUL. With CompressionLZ4 or
// CompressionZstd the payload is compressed, but it is stored uncompressed
// (and flagged so) when it is empty, when compressing does not make its
// stored, 8-byte-padded size smaller, or when the compressed size does not
// fit the header's 32-bit field. Entries are compressed in parallel (up to
// GOMAXPROCS at once); the output does not depend on that.
//
// Marshal fails, naming the entry, on an unknown kind or compression, a NUL
// byte in Identifier, Options or a PTX payload, or sizes that do not fit the
// header fields.
func Marshal(entries []Entry, opts WriteOptions) ([]byte, error) {
	ps, size, err := prepare(entries, opts)
	if err != nil {
		return nil, err
	}
	total := fileHeaderSize + size
	if total > math.MaxInt {
		return nil, fmt.Errorf("fatbin: output of %d bytes is too large", total)
	}
	out := make([]byte, fileHeaderSize, int(total))
	putFileHeader(out, size)
	for i := range ps {
		out = append(out, ps[i].header...)
		out = append(out, ps[i].body...)
		out = append(out, zeros[:ps[i].pad]...)
	}
	return out, nil
}

func putFileHeader(b []byte, bodySize uint64) {
	binary.LittleEndian.PutUint32(b[fileOffMagic:], Magic)
	binary.LittleEndian.PutUint16(b[fileOffVersion:], fileVersion)
	binary.LittleEndian.PutUint16(b[fileOffHeaderSize:], fileHeaderSize)
	binary.LittleEndian.PutUint64(b[fileOffBodySize:], bodySize)
}

// prepare validates and compresses the entries and returns them with the
// size of everything after the file header. Entries to compress are spread
// over up to GOMAXPROCS goroutines; each result depends only on its entry,
// so the output does not depend on the scheduling.
func prepare(entries []Entry, opts WriteOptions) ([]prepared, uint64, error) {
	ps := make([]prepared, len(entries))
	errs := make([]error, len(entries))
	compressed := 0
	for i := range entries {
		if entries[i].Compression != CompressionNone && len(entries[i].Payload) > 0 {
			compressed++
		}
	}
	if workers := min(runtime.GOMAXPROCS(0), compressed); workers <= 1 {
		for i := range entries {
			ps[i], errs[i] = prepareEntry(&entries[i], opts)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for {
					i := int(next.Add(1) - 1)
					if i >= len(entries) {
						return
					}
					ps[i], errs[i] = prepareEntry(&entries[i], opts)
				}
			})
		}
		wg.Wait()
	}

	var size uint64
	for i := range entries {
		if err := errs[i]; err != nil {
			e := &entries[i]
			return nil, 0, fmt.Errorf("fatbin: entry %d (%s %s): %w", i, e.Kind, e.ArchName(), err)
		}
		p := &ps[i]
		n := uint64(len(p.header)) + uint64(len(p.body)) + uint64(p.pad)
		if size > math.MaxInt64-n {
			return nil, 0, fmt.Errorf("fatbin: entry %d: total size overflows", i)
		}
		size += n
	}
	return ps, size, nil
}

func prepareEntry(e *Entry, opts WriteOptions) (prepared, error) {
	var p prepared
	if !e.Kind.Valid() {
		return p, fmt.Errorf("unknown kind %d", uint16(e.Kind))
	}
	if !e.Compression.Valid() {
		return p, fmt.Errorf("unknown compression %d", uint8(e.Compression))
	}
	if strings.IndexByte(e.Identifier, 0) >= 0 {
		return p, errors.New("identifier contains a NUL byte")
	}
	isPTX := e.Kind == KindPTX
	if isPTX && strings.IndexByte(e.Options, 0) >= 0 {
		return p, errors.New("PTX options contain a NUL byte")
	}
	obfuscated := e.Flags&FlagObfuscated != 0 && e.Compression != CompressionNone
	if isPTX && !obfuscated && bytes.IndexByte(e.Payload, 0) >= 0 {
		return p, errors.New("PTX payload contains a NUL byte")
	}

	// The uncompressed image is the payload plus, for PTX, a NUL.
	imageLen := uint64(len(e.Payload))
	if isPTX && !obfuscated {
		imageLen++
	}

	// Payload: compressed if asked for and worthwhile.
	p.body = e.Payload
	stored := align8(imageLen)
	var compFlag uint64
	var compressedSize, uncompressedSize uint64
	if obfuscated {
		// Obfuscated data (see FlagObfuscated) is stored back exactly as Read found it.
		compFlag = FlagLZ4
		if e.Compression == CompressionZstd {
			compFlag = FlagZstd
		}
		stored = align8(uint64(len(e.Payload)))
		compressedSize, uncompressedSize = uint64(len(e.Payload)), e.UncompressedSize
	} else if e.Compression != CompressionNone && len(e.Payload) > 0 {
		src := e.Payload
		if isPTX {
			src = make([]byte, imageLen)
			copy(src, e.Payload) // last byte stays 0
		}
		var c []byte
		var err error
		switch e.Compression {
		case CompressionLZ4:
			c, err = compressLZ4(src)
			compFlag = FlagLZ4
		case CompressionZstd:
			c, err = compressZstd(src, opts.ZstdLevel)
			compFlag = FlagZstd
		}
		if err != nil {
			return p, fmt.Errorf("compress: %w", err)
		}
		cs := uint64(len(c))
		if cs <= math.MaxUint32 && align8(cs) < stored {
			p.body = c
			stored = align8(cs)
			compressedSize, uncompressedSize = cs, imageLen
		} else {
			compFlag = 0
		}
	}
	p.pad = int(stored - uint64(len(p.body)))

	// Header layout, as CUDA 12.4's fatbinary writes it: the fixed part; an identifier slot, always
	// present (8 zero bytes when there is no identifier, whose offset field then stays 0); for PTX (and
	// any entry with options) the options descriptor and an options slot, always present.
	hs := uint64(entryFixedSize)
	idOff := hs
	hs += align8(uint64(len(e.Identifier)) + 1)
	var descOff, optOff uint64
	if isPTX || e.Options != "" {
		descOff = hs
		hs += optionsDescSize
		optOff = hs
		hs += align8(uint64(len(e.Options)) + 1)
	}
	if hs > math.MaxUint32 {
		return p, fmt.Errorf("entry header of %d bytes does not fit in 32 bits", hs)
	}

	flags := e.Flags &^ FlagCompressionMask
	if flags == 0 && !opts.ExactFlags {
		flags = DefaultFlags
	}
	flags |= compFlag
	f02, f30 := uint16(defaultField02), uint64(0)
	if e.Raw != nil {
		f02, f30 = e.Raw.Field02, e.Raw.Field30
	}

	h := make([]byte, hs)
	le := binary.LittleEndian
	le.PutUint16(h[offKind:], uint16(e.Kind))
	le.PutUint16(h[offField02:], f02)
	le.PutUint32(h[offHeaderSize:], uint32(hs))
	le.PutUint64(h[offStoredSize:], stored)
	le.PutUint32(h[offCompressedSize:], uint32(compressedSize))
	le.PutUint32(h[offOptionsDesc:], uint32(descOff))
	le.PutUint16(h[offMinor:], e.Minor)
	le.PutUint16(h[offMajor:], e.Major)
	le.PutUint32(h[offArch:], e.Arch)
	if e.Identifier != "" {
		le.PutUint32(h[offIdentOffset:], uint32(idOff))
		le.PutUint32(h[offIdentLength:], uint32(len(e.Identifier)))
		copy(h[idOff:], e.Identifier)
	}
	le.PutUint64(h[offFlags:], flags)
	le.PutUint64(h[offField30:], f30)
	le.PutUint64(h[offUncompressedSize:], uncompressedSize)
	if descOff != 0 {
		le.PutUint32(h[descOff:], uint32(optOff))
		le.PutUint32(h[descOff+4:], uint32(len(e.Options)))
		copy(h[optOff:], e.Options)
	}
	p.header = h
	return p, nil
}

// errWriter keeps the first write error and skips later writes.
type errWriter struct {
	w   io.Writer
	err error
}

func (ew *errWriter) write(b []byte) {
	if ew.err != nil || len(b) == 0 {
		return
	}
	_, ew.err = ew.w.Write(b)
}
