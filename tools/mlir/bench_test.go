package mlir

import (
	"strings"
	"testing"
)

func BenchmarkAttach(b *testing.B) {
	const n = 100000
	for _, bc := range []struct{ name, src string }{
		{"saxpy", string(readTestdata(b, "saxpy.mlir"))},
		// Deep nesting and long lists take linear time.
		{"deep-braces", "module {" + strings.Repeat("{", n) + strings.Repeat("}", n) + "}"},
		{"deep-target", "gpu.module @k [" + strings.Repeat("[", n) + strings.Repeat("]", n) + "] {}"},
		{"many-modules", strings.Repeat("gpu.module @k {}\n", n/10)},
		{"many-targets", "gpu.module @k [" + strings.Repeat("#nvvm.target<O = 1>, ", n/10) + "#nvvm.target] {}"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			src := []byte(bc.src)
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, _, err := Attach(src, DefaultTarget()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
