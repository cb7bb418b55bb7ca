package fatbin

import (
	"bytes"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// TestZstdMatchesFreshEncoder checks that the shared, reused encoders give
// the same bytes as a fresh single-goroutine encoder, however many calls
// ran on them before and alongside.
func TestZstdMatchesFreshEncoder(t *testing.T) {
	inputs := [][]byte{
		[]byte("x"),
		ptxText(80, 5),
		elfPayload(1000, 1),
		elfPayload(300_000, 2),
		randomBytes(5000, 3),
		elfPayload(3<<20, 4), // several zstd blocks
	}
	for _, zlevel := range []int{1, 3, 7, 19} {
		level := zstd.EncoderLevelFromZstd(zlevel)
		fresh := func(in []byte) []byte {
			e, err := zstd.NewWriter(nil, append(zstdOptions(level), zstd.WithEncoderConcurrency(1))...)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			return e.EncodeAll(in, nil)
		}
		var wg sync.WaitGroup
		for round := range 3 {
			for i, in := range inputs {
				wg.Go(func() {
					got, err := compressZstd(in, zlevel)
					if err != nil {
						t.Error(err)
						return
					}
					if want := fresh(in); !bytes.Equal(got, want) {
						t.Errorf("level %d round %d input %d: shared encoder output differs from a fresh encoder's", zlevel, round, i)
					}
				})
			}
		}
		wg.Wait()
	}
}

func TestLZ4MatchesFreshCompressor(t *testing.T) {
	inputs := [][]byte{ptxText(80, 5), elfPayload(1000, 1), elfPayload(300_000, 2), randomBytes(5000, 3)}
	for round := range 3 {
		for i, in := range inputs {
			got, err := compressLZ4(in)
			if err != nil {
				t.Fatal(err)
			}
			var c lz4.Compressor
			want := make([]byte, lz4.CompressBlockBound(len(in)))
			n, err := c.CompressBlock(in, want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want[:n]) {
				t.Errorf("round %d input %d: pooled compressor output differs", round, i)
			}
		}
	}
}
