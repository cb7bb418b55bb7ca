package artifact

import (
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
)

// benchImages is 100 cubin-shaped images of 1 MiB each: what `gpubuild link` joins for a large
// module built for many chips.
func benchImages() []fatbin.Entry {
	var images []fatbin.Entry
	for i := range 100 {
		b := fakeCubin(7, uint32(50+i%70), 1<<20)
		for j := 0x40; j < len(b)-64; j += 8 {
			b[j] = byte(i + j) // not all zeros, so the data is not trivially compressible
		}
		e, err := CubinImage(b)
		if err != nil {
			panic(err)
		}
		images = append(images, e)
	}
	return images
}

// BenchmarkLink measures `gpubuild link` without file I/O: 100 MiB of cubins into one fatbin.
func BenchmarkLink(b *testing.B) {
	images := benchImages()
	b.SetBytes(100 << 20)
	for b.Loop() {
		if _, err := Link(images, LinkOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInspect measures `gpubuild inspect` without file I/O: parse a 100 MiB fatbin and describe
// its entries.
func BenchmarkInspect(b *testing.B) {
	data, err := Link(benchImages(), LinkOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		a, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		if len(Describe(a)) != 100 {
			b.Fatal("wrong entry count")
		}
	}
}

// BenchmarkExtractRead measures reading every payload out of a 100 MiB fatbin (what extract does
// before writing files): the payload bytes are touched, not just the headers.
func BenchmarkExtractRead(b *testing.B) {
	data, err := Link(benchImages(), LinkOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	var sink byte
	for b.Loop() {
		a, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range a.Images {
			out := make([]byte, len(e.Payload))
			copy(out, e.Payload)
			sink ^= out[len(out)-1]
		}
	}
	_ = sink
}
