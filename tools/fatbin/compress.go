package fatbin

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// lz4MaxInput is the largest input an LZ4 block may encode
// (LZ4_MAX_INPUT_SIZE in the reference implementation).
const lz4MaxInput = 0x7E000000

// lz4MaxRatio bounds how much an LZ4 block can expand: every 255 output
// bytes of a match or literal run cost at least one input byte.
const lz4MaxRatio = 255

// zstdPlausibleRatio is the largest expansion Read decompresses into a
// buffer allocated up front from the declared size. A payload declaring more
// is decoded into a growing buffer instead, so that a small hostile entry
// cannot make Read allocate a large buffer it never fills.
const zstdPlausibleRatio = 64

var lz4Compressors = sync.Pool{New: func() any { return new(lz4.Compressor) }}

// compressLZ4 returns src encoded as one raw LZ4 block. The output depends
// only on src: the compressor clears its state on every call.
func compressLZ4(src []byte) ([]byte, error) {
	if len(src) > lz4MaxInput {
		return nil, fmt.Errorf("%d bytes exceed the LZ4 block limit of %d", len(src), lz4MaxInput)
	}
	dst := make([]byte, lz4.CompressBlockBound(len(src)))
	c := lz4Compressors.Get().(*lz4.Compressor)
	n, err := c.CompressBlock(src, dst)
	lz4Compressors.Put(c)
	if err != nil {
		return nil, fmt.Errorf("lz4: %w", err)
	}
	if n == 0 && len(src) > 0 {
		// Cannot happen with a CompressBlockBound-sized buffer.
		return nil, errors.New("lz4: compressor produced no output")
	}
	return dst[:n], nil
}

// decompressLZ4 decodes a raw LZ4 block that must expand to exactly n bytes.
func decompressLZ4(src []byte, n int) ([]byte, error) {
	dst := make([]byte, n)
	m, err := lz4.UncompressBlock(src, dst)
	if err != nil {
		return nil, fmt.Errorf("lz4: %w", err)
	}
	if m != n {
		return nil, fmt.Errorf("decompressed to %d bytes, header says %d", m, n)
	}
	return dst, nil
}

// zstdEncoders holds one encoder per level, created on first use, with every
// option that affects the output fixed. Its concurrency only bounds how many
// EncodeAll calls run at once: each call runs on one goroutine, on one of the
// encoder's internal block encoders, which it resets first, so the output
// depends only on the input and the level (TestZstdMatchesFreshEncoder
// checks this).
var zstdEncoders struct {
	sync.Mutex
	enc [zstd.SpeedBestCompression + 1]*zstd.Encoder
}

func zstdEncoder(level zstd.EncoderLevel) (*zstd.Encoder, error) {
	zstdEncoders.Lock()
	defer zstdEncoders.Unlock()
	if e := zstdEncoders.enc[level]; e != nil {
		return e, nil
	}
	opts := append(zstdOptions(level), zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0)))
	e, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		return nil, fmt.Errorf("zstd: %w", err)
	}
	zstdEncoders.enc[level] = e
	return e, nil
}

// zstdOptions returns every encoder option that can affect the output, all
// set explicitly rather than left to the library's defaults.
func zstdOptions(level zstd.EncoderLevel) []zstd.EOption {
	return []zstd.EOption{
		zstd.WithEncoderLevel(level),
		zstd.WithEncoderCRC(true),
		zstd.WithEncoderPadding(1), // no random padding frames
		zstd.WithWindowSize(8 << 20),
		zstd.WithLowerEncoderMem(false),
		zstd.WithZeroFrames(true),
	}
}

// compressZstd returns src as one zstd frame at the given zstd level
// (1..22, 0 meaning 3), mapped onto the encoder's four speed settings with
// zstd.EncoderLevelFromZstd.
func compressZstd(src []byte, level int) ([]byte, error) {
	if level == 0 {
		level = 3
	}
	e, err := zstdEncoder(zstd.EncoderLevelFromZstd(level))
	if err != nil {
		return nil, err
	}
	return e.EncodeAll(src, make([]byte, 0, len(src)/2+64)), nil
}

var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecodeAllCapLimit(true))
})

// decompressZstd decodes zstd data that must expand to exactly n bytes.
func decompressZstd(src []byte, n int) ([]byte, error) {
	var h zstd.Header
	if err := h.Decode(src); err != nil {
		return nil, fmt.Errorf("zstd: %w", err)
	}
	if h.HasFCS && h.FrameContentSize != uint64(n) {
		return nil, fmt.Errorf("zstd frame declares %d bytes, header says %d", h.FrameContentSize, n)
	}
	var out []byte
	var err error
	if uint64(n) <= uint64(len(src))*zstdPlausibleRatio+1<<20 {
		dec, derr := zstdDecoder()
		if derr != nil {
			return nil, fmt.Errorf("zstd: %w", derr)
		}
		// The cap limit makes DecodeAll fail rather than grow past n+1.
		out, err = dec.DecodeAll(src, make([]byte, 0, n+1))
	} else {
		// Implausible ratio: let the buffer grow with the real output,
		// limited to about n bytes.
		var dec *zstd.Decoder
		dec, err = zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxMemory(uint64(n)+zstd.MinWindowSize))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		out, err = dec.DecodeAll(src, nil)
		dec.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("zstd: %w", err)
	}
	if len(out) != n {
		return nil, fmt.Errorf("decompressed to %d bytes, header says %d", len(out), n)
	}
	return out, nil
}
