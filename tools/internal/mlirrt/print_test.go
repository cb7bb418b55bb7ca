package mlirrt

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// Element encoders for test data, in the machine's byte order as memrefs hold them.
func f32s(xs ...float32) []byte    { return encode(xs) }
func f64s(xs ...float64) []byte    { return encode(xs) }
func i8s(xs ...int8) []byte        { return encode(xs) }
func i16s(xs ...int16) []byte      { return encode(xs) }
func i32s(xs ...int32) []byte      { return encode(xs) }
func i64s(xs ...int64) []byte      { return encode(xs) }
func u64s(xs ...uint64) []byte     { return encode(xs) }
func halfs(xs ...uint16) []byte    { return encode(xs) }
func c32s(xs ...complex64) []byte  { return encode(xs) }
func c64s(xs ...complex128) []byte { return encode(xs) }

func encode(v any) []byte {
	var b bytes.Buffer
	if err := binary.Write(&b, binary.NativeEndian, v); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func iota32(n int) []byte {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(i)
	}
	return f32s(xs...)
}

var negNaN32 = math.Float32frombits(0xffc00000)

// printCase is one memref and the text upstream prints for it. The expected texts follow upstream's
// printer (mlir/include/mlir/ExecutionEngine/RunnerUtils.h: printMemRefMetaData, MemRefDataPrinter,
// printMemRef; mlir/lib/ExecutionEngine/RunnerUtils.cpp for which printer says "Memref " and which
// "Unranked Memref "; float16 printing in mlir/lib/ExecutionEngine/Float16bits.cpp) and its tests
// (mlir/test/mlir-runner/utils.mlir: "[10]" for 0-d, four spaces between the innermost elements of
// a 3-d memref). oracle_test.go prints the same cases with LLVM 21's libmlir_runner_utils (Debian
// 21.1.8) when mlir-runner-21 is installed, and compares.
type printCase struct {
	name  string
	m     Memref
	shape bool // _mlir_ciface_printMemrefShape*: the metadata line only
	want  string
}

const base = 0x1000

var printCases = []printCase{
	{
		name: "0-d",
		m:    Memref{Kind: F32, Base: base, Data: f32s(42.5)},
		want: "Unranked Memref base@ = 0x1000 rank = 0 offset = 0 sizes = [] strides = [] data = \n[42.5]\n",
	},
	{
		name: "1-d, the output of prog2.mlir",
		m:    Memref{Kind: F32, Base: base, Data: iota32(4), Sizes: []int64{4}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [4] strides = [1] data = \n[0,  1,  2,  3]\n",
	},
	{
		name: "1-d, one element",
		m:    Memref{Kind: F32, Base: base, Data: f32s(5), Sizes: []int64{1}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [1] strides = [1] data = \n[5]\n",
	},
	{
		// Upstream reads and prints the first element even though there is none.
		name: "1-d, empty",
		m:    Memref{Kind: F32, Base: base, Data: f32s(7.5), Sizes: []int64{0}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [0] strides = [1] data = \n[7.5]\n",
	},
	{
		name: "2-d, empty",
		m:    Memref{Kind: F32, Base: base, Data: f32s(1, 2, 3), Sizes: []int64{0, 3}, Strides: []int64{3, 1}},
		want: "Unranked Memref base@ = 0x1000 rank = 2 offset = 0 sizes = [0, 3] strides = [3, 1] data = \n[[1,   2,   3]]\n",
	},
	{
		name: "2-d, special floats",
		m: Memref{Kind: F32, Base: base, Data: f32s(float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e20, 0.1, float32(math.Copysign(0, -1))),
			Sizes: []int64{2, 3}, Strides: []int64{3, 1}},
		want: "Unranked Memref base@ = 0x1000 rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = \n" +
			"[[nan,   inf,   -inf], \n [1e+20,   0.1,   -0]]\n",
	},
	{
		name: "3-d",
		m: Memref{Kind: I32, Base: base, Data: i32s(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
			Sizes: []int64{2, 2, 3}, Strides: []int64{6, 3, 1}},
		want: "Unranked Memref base@ = 0x1000 rank = 3 offset = 0 sizes = [2, 2, 3] strides = [6, 3, 1] data = \n" +
			"[[[0,    1,    2], \n  [3,    4,    5]], \n [[6,    7,    8], \n  [9,    10,    11]]]\n",
	},
	{
		// A dimension of size 1 closes its bracket right after its element.
		name: "3-d with a dimension of size 1",
		m:    Memref{Kind: I32, Base: base, Data: i32s(0, 1, 2, 3), Sizes: []int64{2, 1, 2}, Strides: []int64{2, 2, 1}},
		want: "Unranked Memref base@ = 0x1000 rank = 3 offset = 0 sizes = [2, 1, 2] strides = [2, 2, 1] data = \n" +
			"[[[0,    1]], \n [[2,    3]]]\n",
	},
	{
		name: "2-d view with an offset",
		m:    Memref{Kind: F32, Base: base, Data: iota32(12), Offset: 1, Sizes: []int64{2, 3}, Strides: []int64{4, 1}},
		want: "Unranked Memref base@ = 0x1000 rank = 2 offset = 1 sizes = [2, 3] strides = [4, 1] data = \n" +
			"[[1,   2,   3], \n [5,   6,   7]]\n",
	},
	{
		name: "2-d transposed view",
		m:    Memref{Kind: F32, Base: base, Data: iota32(12), Sizes: []int64{4, 3}, Strides: []int64{1, 4}},
		want: "Unranked Memref base@ = 0x1000 rank = 2 offset = 0 sizes = [4, 3] strides = [1, 4] data = \n" +
			"[[0,   4,   8], \n [1,   5,   9], \n [2,   6,   10], \n [3,   7,   11]]\n",
	},
	{
		name: "1-d negative stride",
		m:    Memref{Kind: F32, Base: base, Data: iota32(4), Offset: 3, Sizes: []int64{4}, Strides: []int64{-1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 3 sizes = [4] strides = [-1] data = \n[3,  2,  1,  0]\n",
	},
	{
		name: "f32 formatting",
		m: Memref{Kind: F32, Base: base, Data: f32s(math.MaxFloat32, 1e6, 123456, 1234567, 1234565, 1e-5, 1e-4, negNaN32, 0.1, 1e20),
			Sizes: []int64{10}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [10] strides = [1] data = \n" +
			"[3.40282e+38,  1e+06,  123456,  1.23457e+06,  1.23456e+06,  1e-05,  0.0001,  -nan,  0.1,  1e+20]\n",
	},
	{
		name: "f64 formatting",
		m:    Memref{Kind: F64, Base: base, Data: f64s(0.1, 1.0/3, 1e100, 5e-324, 2.5, -1e-300, 100000), Sizes: []int64{7}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [7] strides = [1] data = \n" +
			"[0.1,  0.333333,  1e+100,  4.94066e-324,  2.5,  -1e-300,  100000]\n",
	},
	{
		// int8_t goes to the stream as a char: its byte, not its number.
		name: "i8 prints raw bytes",
		m:    Memref{Kind: I8, Base: base, Data: i8s(65, 66, -1, 10, 0), Sizes: []int64{5}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [5] strides = [1] data = \n[A,  B,  \xff,  \n,  \x00]\n",
	},
	{
		name: "i16",
		m:    Memref{Kind: I16, Base: base, Data: i16s(-32768, 32767, 0), Sizes: []int64{3}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [3] strides = [1] data = \n[-32768,  32767,  0]\n",
	},
	{
		name: "i64",
		m:    Memref{Kind: I64, Base: base, Data: i64s(math.MinInt64, math.MaxInt64), Sizes: []int64{2}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [2] strides = [1] data = \n[-9223372036854775808,  9223372036854775807]\n",
	},
	{
		name: "index is unsigned",
		m:    Memref{Kind: Index, Base: base, Data: u64s(0, 7, math.MaxUint64), Sizes: []int64{3}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [3] strides = [1] data = \n[0,  7,  18446744073709551615]\n",
	},
	{
		name: "f16",
		m:    Memref{Kind: F16, Base: base, Data: halfs(0x3c00, 0x3555, 0x7c00, 0x0001, 0xfe00, 0x8000), Sizes: []int64{6}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [6] strides = [1] data = \n[1,  0.333252,  inf,  5.96046e-08,  -nan,  -0]\n",
	},
	{
		// 3.140625 is a tie at six digits: glibc rounds it to even.
		name: "bf16",
		m:    Memref{Kind: BF16, Base: base, Data: halfs(0x3f80, 0x4049, 0x7f80, 0xc2f7), Sizes: []int64{4}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [4] strides = [1] data = \n[1,  3.14062,  inf,  -123.5]\n",
	},
	{
		name: "complex<f32>",
		m:    Memref{Kind: C32, Base: base, Data: c32s(complex(1, 2), complex(-0.5, 1e10)), Sizes: []int64{2}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [2] strides = [1] data = \n[(1,2),  (-0.5,1e+10)]\n",
	},
	{
		name: "complex<f64>",
		m:    Memref{Kind: C64, Base: base, Data: c64s(complex(0.1, math.Copysign(0, -1))), Sizes: []int64{1}, Strides: []int64{1}},
		want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [1] strides = [1] data = \n[(0.1,-0)]\n",
	},
	{
		name: "ranked printer",
		m:    Memref{Kind: F32, Ranked: true, Base: base, Data: f32s(1, 2), Sizes: []int64{2}, Strides: []int64{1}},
		want: "Memref base@ = 0x1000 rank = 1 offset = 0 sizes = [2] strides = [1] data = \n[1,  2]\n",
	},
	{
		name:  "shape",
		m:     Memref{Kind: F32, Base: base, Data: iota32(6), Sizes: []int64{2, 3}, Strides: []int64{3, 1}},
		shape: true,
		want:  "Unranked Memref base@ = 0x1000 rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1]\n",
	},
}

func TestPrint(t *testing.T) {
	extra := []printCase{
		{
			name: "null base pointer",
			m:    Memref{Kind: I32, Data: i32s(3), Sizes: []int64{1}, Strides: []int64{1}},
			want: "Unranked Memref base@ = 0 rank = 1 offset = 0 sizes = [1] strides = [1] data = \n[3]\n",
		},
		{
			// Data holds elements 3 to 5 of the buffer, as the exports pass a view with negative strides.
			name: "data starting past the base",
			m:    Memref{Kind: F32, Base: base, Data: f32s(30, 40, 50), Start: 3, Offset: 5, Sizes: []int64{2}, Strides: []int64{-2}},
			want: "Unranked Memref base@ = 0x1000 rank = 1 offset = 5 sizes = [2] strides = [-2] data = \n[50,  30]\n",
		},
	}
	for _, c := range append(printCases, extra...) {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			printer := Print
			if c.shape {
				printer = PrintShape
			}
			if err := printer(&b, &c.m); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != c.want {
				t.Errorf("got\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

func TestPrintErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		m    Memref
		want string
	}{
		{"data too short", Memref{Kind: F32, Data: f32s(1, 2), Sizes: []int64{3}, Strides: []int64{1}}, "element 2 is outside the data (elements 0 to 1)"},
		{"no data for an empty memref", Memref{Kind: F32, Sizes: []int64{0}, Strides: []int64{1}}, "element 0 is outside the data"},
		{"before the data", Memref{Kind: I64, Data: i64s(1), Start: 1, Sizes: []int64{1}, Strides: []int64{1}}, "element 0 is outside the data"},
		{"sizes and strides disagree", Memref{Kind: F32, Data: f32s(1), Sizes: []int64{1}}, "1 sizes and 0 strides"},
		{"unknown kind", Memref{Data: f32s(1)}, "unknown element kind Kind(0)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Print(&bytes.Buffer{}, &c.m)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestSpan(t *testing.T) {
	for _, c := range []struct {
		name           string
		offset         int64
		sizes, strides []int64
		lo, hi         int64
	}{
		{"0-d", 4, nil, nil, 4, 4},
		{"dense 2-d", 0, []int64{2, 3}, []int64{3, 1}, 0, 5},
		{"view with an offset", 1, []int64{2, 3}, []int64{4, 1}, 1, 7},
		{"empty still reads the first element", 2, []int64{0, 3}, []int64{3, 1}, 2, 4},
		{"negative stride", 3, []int64{4}, []int64{-1}, 0, 3},
		{"broadcast (stride 0)", 0, []int64{5}, []int64{0}, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if lo, hi := Span(c.offset, c.sizes, c.strides); lo != c.lo || hi != c.hi {
				t.Errorf("Span = %d, %d, want %d, %d", lo, hi, c.lo, c.hi)
			}
		})
	}
}

// TestAppendFloat checks C's %g, as printF32 and printF64 (mlir/lib/ExecutionEngine/CRunnerUtils.cpp:
// fprintf(stdout, "%g", f)) and std::ostream at precision 6 print.
func TestAppendFloat(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "-0"},
		{1, "1"},
		{-2.5, "-2.5"},
		{0.1, "0.1"},
		{float64(float32(0.1)), "0.1"},
		{1.0 / 3, "0.333333"},
		{100000, "100000"},
		{999999, "999999"},
		{999999.5, "1e+06"},
		{1e6, "1e+06"},
		{123456, "123456"},
		{1234567, "1.23457e+06"},
		{1234565, "1.23456e+06"}, // a tie, to even
		{1234575, "1.23458e+06"}, // a tie, to even
		{0.0001, "0.0001"},
		{0.00001, "1e-05"},
		{0.000123456789, "0.000123457"},
		{1e20, "1e+20"},
		{1e100, "1e+100"},
		{-1e-300, "-1e-300"},
		{math.MaxFloat32, "3.40282e+38"},
		{math.MaxFloat64, "1.79769e+308"},
		{5e-324, "4.94066e-324"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
		{math.NaN(), "nan"},
		{float64(negNaN32), "-nan"},
	} {
		if got := string(AppendFloat(nil, c.f)); got != c.want {
			t.Errorf("AppendFloat(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestHalfFloats(t *testing.T) {
	for _, c := range []struct {
		bits uint16
		bf16 bool
		want float32
	}{
		{0x3c00, false, 1},
		{0xc000, false, -2},
		{0x7bff, false, 65504},
		{0x0001, false, 1.0 / (1 << 24)}, // the smallest subnormal
		{0x0200, false, 1.0 / (1 << 15)},
		{0x8000, false, float32(math.Copysign(0, -1))},
		{0x7c00, false, float32(math.Inf(1))},
		{0xfc00, false, float32(math.Inf(-1))},
		{0x3f80, true, 1},
		{0xc2f7, true, -123.5},
		{0xff80, true, float32(math.Inf(-1))},
	} {
		conv := F16ToFloat32
		if c.bf16 {
			conv = BF16ToFloat32
		}
		got := conv(c.bits)
		if math.Float32bits(got) != math.Float32bits(c.want) {
			t.Errorf("bits %#04x (bf16 %v): %v, want %v", c.bits, c.bf16, got, c.want)
		}
	}
	for _, bits := range []uint16{0x7e00, 0xfe00, 0x7c01} {
		if f := F16ToFloat32(bits); !math.IsNaN(float64(f)) || math.Signbit(float64(f)) != (bits&0x8000 != 0) {
			t.Errorf("F16ToFloat32(%#04x) = %v, want a NaN with the same sign", bits, f)
		}
	}
}

func TestKind(t *testing.T) {
	for k, want := range map[Kind]string{I8: "I8", Index: "Ind", BF16: "BF16", C64: "C64", Kind(99): "Kind(99)"} {
		if k.String() != want {
			t.Errorf("%d: %q, want %q", int(k), k.String(), want)
		}
	}
	if C64.Size() != 16 || F16.Size() != 2 || Kind(99).Size() != 0 {
		t.Errorf("sizes: C64 %d, F16 %d, Kind(99) %d", C64.Size(), F16.Size(), Kind(99).Size())
	}
}
