package mlirrt

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Kind is a memref's element type, named as upstream's printers name it: printMemrefF32 prints F32.
type Kind int

// The element kinds that upstream's runner utils print (RunnerUtils.h, LLVM 21).
const (
	I8    Kind = iota + 1 // int8_t: streamed as a char, so its raw byte is printed (upstream's quirk)
	I16                   // int16_t
	I32                   // int32_t
	I64                   // int64_t
	Index                 // MLIR's index type, printed as uint64_t (impl::index_type)
	F16                   // f16: printed as the float it converts to
	BF16                  // bf16: likewise
	F32                   // float
	F64                   // double
	C32                   // std::complex<float>: "(re,im)"
	C64                   // std::complex<double>
)

var kinds = map[Kind]struct {
	name string
	size int
}{
	I8: {"I8", 1}, I16: {"I16", 2}, I32: {"I32", 4}, I64: {"I64", 8}, Index: {"Ind", 8},
	F16: {"F16", 2}, BF16: {"BF16", 2}, F32: {"F32", 4}, F64: {"F64", 8}, C32: {"C32", 8}, C64: {"C64", 16},
}

// String is the kind as upstream's function names spell it: "F32", "Ind".
func (k Kind) String() string {
	if i, ok := kinds[k]; ok {
		return i.name
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Size is the size of one element in bytes, 0 for an unknown kind.
func (k Kind) Size() int { return kinds[k].size }

// Memref is a strided view of elements, as a memref descriptor describes it (CRunnerUtils.h's
// StridedMemRefType: basePtr, data, offset, sizes, strides).
type Memref struct {
	Kind Kind
	// Ranked says which printer prints it: the ranked ones (_mlir_ciface_printMemref1dF32, ...) start
	// with "Memref ", the unranked ones (printMemrefF32, ...) with "Unranked Memref ".
	Ranked bool
	// Base is the descriptor's aligned data pointer, printed as "base@ = 0x...".
	Base uintptr
	// Data holds the elements in the machine's byte order: element i (i = Offset + Σ index·stride,
	// counted from Base) starts at byte (i-Start)·Kind.Size().
	Data []byte
	// Start is the element index that Data begins at: 0 unless strides are negative (see Span).
	Start int64
	// Offset, Sizes and Strides are the descriptor's, in elements; Sizes and Strides have one entry
	// per dimension (none for a 0-d memref).
	Offset         int64
	Sizes, Strides []int64
}

// Span returns the lowest and highest element index, counted from the aligned data pointer, that
// Print reads for a memref of this offset, sizes and strides. Like upstream's printer, it includes
// the first element of every dimension even when a size is 0: upstream prints "[x]" for an empty
// 1-d memref, reading an element past the end of its buffer.
func Span(offset int64, sizes, strides []int64) (lo, hi int64) {
	lo, hi = offset, offset
	for d := range sizes {
		n := max(sizes[d], 1)
		step := (n - 1) * strides[d]
		lo, hi = lo+min(step, 0), hi+max(step, 0)
	}
	return lo, hi
}

// Print writes m as upstream's printMemref* functions print it (RunnerUtils.h, impl::printMemRef):
//
//	Unranked Memref base@ = 0x55d0... rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
//	[[0,   1,   2],
//	 [3,   4,   5]]
//
// with a space after "data =" and a newline at the end.
func Print(w io.Writer, m *Memref) error {
	if err := m.check(); err != nil {
		return err
	}
	b := m.appendHeader(nil)
	b = append(b, " data = \n"...)
	if len(m.Sizes) == 0 {
		b = append(b, '[')
	}
	b, err := m.appendData(b, m.Offset, 0)
	if err != nil {
		return err
	}
	if len(m.Sizes) == 0 {
		b = append(b, ']')
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// PrintShape writes m's metadata line as upstream's _mlir_ciface_printMemrefShape* functions do
// (RunnerUtils.cpp): "Unranked Memref base@ = ... strides = [1]" and a newline.
func PrintShape(w io.Writer, m *Memref) error {
	if err := m.check(); err != nil {
		return err
	}
	_, err := w.Write(append(m.appendHeader(nil), '\n'))
	return err
}

func (m *Memref) check() error {
	if m.Kind.Size() == 0 {
		return fmt.Errorf("unknown element kind %v", m.Kind)
	}
	if len(m.Sizes) != len(m.Strides) {
		return fmt.Errorf("memref has %d sizes and %d strides", len(m.Sizes), len(m.Strides))
	}
	return nil
}

// appendHeader is "Memref " or "Unranked Memref " and printMemRefMetaData's text.
func (m *Memref) appendHeader(b []byte) []byte {
	if m.Ranked {
		b = append(b, "Memref "...)
	} else {
		b = append(b, "Unranked Memref "...)
	}
	// LLVM 21 prints the pointer as an integer in hex with showbase: "0x7f..." ("0" when null).
	b = append(b, "base@ = "...)
	if m.Base != 0 {
		b = append(b, "0x"...)
	}
	b = strconv.AppendUint(b, uint64(m.Base), 16)
	b = append(b, " rank = "...)
	b = strconv.AppendInt(b, int64(len(m.Sizes)), 10)
	b = append(b, " offset = "...)
	b = strconv.AppendInt(b, m.Offset, 10)
	b = append(b, " sizes = ["...)
	b = appendList(b, m.Sizes)
	b = append(b, "] strides = ["...)
	b = appendList(b, m.Strides)
	return append(b, ']')
}

func appendList(b []byte, xs []int64) []byte {
	for i, x := range xs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, x, 10)
	}
	return b
}

// appendData is MemRefDataPrinter<T>::print with its printFirst and printLast inlined: dim counts
// the dimensions already entered (upstream counts those left). Upstream's quirks are kept: the
// first element of a dimension is printed even when its size is 0, and a dimension of size 1
// closes its bracket right after its first element.
func (m *Memref) appendData(b []byte, offset int64, dim int) ([]byte, error) {
	rank := len(m.Sizes)
	if dim == rank {
		return m.appendElem(b, offset)
	}
	size, stride := m.Sizes[dim], m.Strides[dim]
	inner := rank - dim - 1 // upstream's dim - 1
	// printSpace(rank - dim + 1) in upstream's terms: one more space per level of nesting.
	indent := func(b []byte) []byte {
		for range dim + 1 {
			b = append(b, ' ')
		}
		return b
	}
	// printFirst
	b = append(b, '[')
	b, err := m.appendData(b, offset, dim+1)
	if err != nil {
		return nil, err
	}
	if size <= 1 {
		return append(b, ']'), nil
	}
	b = append(b, ", "...)
	if inner > 0 {
		b = append(b, '\n')
	}
	for i := int64(1); i+1 < size; i++ {
		b = indent(b)
		if b, err = m.appendData(b, offset+i*stride, dim+1); err != nil {
			return nil, err
		}
		b = append(b, ", "...)
		if inner > 0 {
			b = append(b, '\n')
		}
	}
	// printLast
	b = indent(b)
	if b, err = m.appendData(b, offset+(size-1)*stride, dim+1); err != nil {
		return nil, err
	}
	return append(b, ']'), nil
}

// appendElem appends the element at index i as std::ostream's operator<< prints it.
func (m *Memref) appendElem(b []byte, i int64) ([]byte, error) {
	size := int64(m.Kind.Size())
	at := (i - m.Start) * size
	if i < m.Start || at+size > int64(len(m.Data)) {
		return nil, fmt.Errorf("element %d is outside the data (elements %d to %d)", i, m.Start, m.Start+int64(len(m.Data))/size-1)
	}
	e := m.Data[at : at+size]
	ne := binary.NativeEndian
	switch m.Kind {
	case I8:
		return append(b, e[0]), nil
	case I16:
		return strconv.AppendInt(b, int64(int16(ne.Uint16(e))), 10), nil
	case I32:
		return strconv.AppendInt(b, int64(int32(ne.Uint32(e))), 10), nil
	case I64:
		return strconv.AppendInt(b, int64(ne.Uint64(e)), 10), nil
	case Index:
		return strconv.AppendUint(b, ne.Uint64(e), 10), nil
	case F16:
		return AppendFloat(b, float64(F16ToFloat32(ne.Uint16(e)))), nil
	case BF16:
		return AppendFloat(b, float64(BF16ToFloat32(ne.Uint16(e)))), nil
	case F32:
		return AppendFloat(b, float64(math.Float32frombits(ne.Uint32(e)))), nil
	case F64:
		return AppendFloat(b, math.Float64frombits(ne.Uint64(e))), nil
	case C32:
		re, im := math.Float32frombits(ne.Uint32(e)), math.Float32frombits(ne.Uint32(e[4:]))
		return appendComplex(b, float64(re), float64(im)), nil
	case C64:
		return appendComplex(b, math.Float64frombits(ne.Uint64(e)), math.Float64frombits(ne.Uint64(e[8:]))), nil
	}
	return nil, fmt.Errorf("unknown element kind %v", m.Kind)
}

// appendComplex is libstdc++'s operator<< for std::complex: "(re,im)".
func appendComplex(b []byte, re, im float64) []byte {
	b = append(b, '(')
	b = AppendFloat(b, re)
	b = append(b, ',')
	b = AppendFloat(b, im)
	return append(b, ')')
}

// AppendFloat appends f as C's printf("%g") prints it, which is also how C++ streams print a float or
// double at their default precision of 6: "0.1", "1e+06", "123456", "3.40282e+38", "-0", "inf",
// "-inf", "nan", and "-nan" for a NaN with its sign bit set (glibc). printF32, printF64 and the
// memref printers all print floats this way.
func AppendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f) && math.Signbit(f):
		return append(b, "-nan"...)
	case math.IsNaN(f):
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	}
	// strconv's 'g' at precision 6 is C's %g: %e when the exponent is < -4 or >= 6, trailing zeros
	// removed, at least two exponent digits, the decimal rounded half to even as glibc does.
	return strconv.AppendFloat(b, f, 'g', 6, 64)
}

// The punctuation that vector.print's lowering prints with printOpen, printClose, printComma and
// printNewline (CRunnerUtils.cpp).
const (
	Open    = "( "
	Close   = " )"
	Comma   = ", "
	Newline = "\n"
)

// F16ToFloat32 converts IEEE half-precision bits to a float32 exactly (Float16bits.cpp's
// half2float), subnormals, infinities and NaNs included.
func F16ToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // inf or NaN: keep the payload
		return math.Float32frombits(sign | 0xff<<23 | mant<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
	case mant == 0:
		return math.Float32frombits(sign)
	}
	// A subnormal half is mant·2⁻²⁴, exact in float32.
	f := float32(mant) * (1.0 / (1 << 24))
	if sign != 0 {
		f = -f
	}
	return f
}

// BF16ToFloat32 converts bfloat16 bits to a float32: the top half of its bits.
func BF16ToFloat32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }
