package mlirrt

import (
	"fmt"
	"strings"
)

// TMA descriptors. LLVM 21's convert-nvgpu-to-nvvm lowers nvgpu.tma.create.descriptor to
//
//	ptr mgpuTensorMapEncodeTiledMemref(i64 rank, ptr rankedDescriptor, i64 dataType,
//	    i64 interleave, i64 swizzle, i64 l2Promotion, i64 oobFill, ptr boxDims)
//
// whose codes are cuda.h's own (CUtensorMapDataType, CUtensorMapInterleave, CUtensorMapSwizzle,
// CUtensorMapL2promotion, CUtensorMapFloatOOBfill) and whose box sizes are in the memref's order,
// outermost first. The wrapper (tma_cuda.go) makes the arguments of cuTensorMapEncodeTiled from the
// memref's descriptor with NewTiledMap, encodes the 128-byte CUtensorMap and returns a copy of it
// in device memory, which the kernel receives as a pointer, as upstream's does.

// maxTensorRank is the most dimensions a tensor map has (cuda.h).
const maxTensorRank = 5

// TensorDataType is a CUtensorMapDataType code.
type TensorDataType int64

// tensorDataTypes names the CUtensorMapDataType codes, in order (CUDA 12.4's cuda.h), with their
// element sizes in bytes. The lowering passes UINT8, UINT16, UINT32 and UINT64 for memrefs of ui8
// to ui64, INT32 and INT64 for i32 and i64, FLOAT16, FLOAT32, FLOAT64 and BFLOAT16 for f16, f32,
// f64 and bf16; and BFLOAT16 for every other element type (i8, i16, si32, ...), whose strides then
// come out wrong: LLVM 21's quirk, which a runtime cannot see.
var tensorDataTypes = []struct {
	name string
	size int64
}{
	{"UINT8", 1}, {"UINT16", 2}, {"UINT32", 4}, {"INT32", 4}, {"UINT64", 8}, {"INT64", 8},
	{"FLOAT16", 2}, {"FLOAT32", 4}, {"FLOAT64", 8}, {"BFLOAT16", 2}, {"FLOAT32_FTZ", 4},
	{"TFLOAT32", 4}, {"TFLOAT32_FTZ", 4},
}

func (t TensorDataType) known() bool { return t >= 0 && int(t) < len(tensorDataTypes) }

// String is cuda.h's name without its prefix: FLOAT32 for CU_TENSOR_MAP_DATA_TYPE_FLOAT32.
func (t TensorDataType) String() string {
	if !t.known() {
		return fmt.Sprintf("data type %d", int64(t))
	}
	return tensorDataTypes[t].name
}

// Size is the element size in bytes, 0 for an unknown code.
func (t TensorDataType) Size() int64 {
	if !t.known() {
		return 0
	}
	return tensorDataTypes[t].size
}

// tensorMapEnums names the values of the other four enumerations (cuda.h, without the prefixes).
var tensorMapEnums = []struct {
	what   string // the argument, in messages
	values []string
}{
	{"interleave", []string{"NONE", "16B", "32B"}},
	{"swizzle", []string{"NONE", "32B", "64B", "128B"}},
	{"L2 promotion", []string{"NONE", "L2_64B", "L2_128B", "L2_256B"}},
	{"OOB fill", []string{"NONE", "NAN_REQUEST_ZERO_FMA"}},
}

// The indices of tensorMapEnums and of TiledMap.Modes.
const (
	interleaveMode = iota
	swizzleMode
	l2PromotionMode
	oobFillMode
)

// TiledMap holds the arguments of one cuTensorMapEncodeTiled call, in the driver's order: dimension
// 0 is the innermost (the memref's last).
type TiledMap struct {
	DataType TensorDataType
	// Address is the tensor's first element: the memref's aligned pointer plus its offset.
	Address uintptr
	// GlobalDim holds the sizes (rank of them), GlobalStrides the strides in bytes of dimensions 1
	// and up (rank - 1 of them; dimension 0 is dense), BoxDim the box's sizes, ElementStrides the
	// traversal strides (all 1, as upstream's).
	GlobalDim      []uint64
	GlobalStrides  []uint64
	BoxDim         []uint32
	ElementStrides []uint32
	// Modes are the interleave, swizzle, L2 promotion and OOB fill codes (cuda.h's values).
	Modes [4]int64

	// The memref's sizes, strides (in elements) and box as the program wrote them, for messages.
	sizes, strides, box []int64
}

// Rank is the number of dimensions.
func (m *TiledMap) Rank() int { return len(m.GlobalDim) }

// NewTiledMap makes the arguments of cuTensorMapEncodeTiled for a memref (its aligned pointer,
// offset, sizes and strides in elements, outermost first, as its descriptor holds them), a box
// (outermost first) and the lowering's codes. Upstream's wrapper does the same but for two cases
// that it gets silently wrong: it ignores the memref's offset, taking the first element to be at
// the aligned pointer, where this adds it; and it ignores the innermost stride, where this refuses
// one other than 1 (a tensor map has no stride for dimension 0). What the driver checks (alignment,
// strides that are multiples of 16 bytes, box sizes) is left to it: Problems explains a refusal.
func NewTiledMap(dataType TensorDataType, modes [4]int64, aligned uintptr, offset int64, sizes, strides, box []int64) (*TiledMap, error) {
	rank := len(sizes)
	if rank < 1 || rank > maxTensorRank {
		return nil, fmt.Errorf("a memref of rank %d: a TMA descriptor has 1 to %d dimensions", rank, maxTensorRank)
	}
	if len(strides) != rank || len(box) != rank {
		return nil, fmt.Errorf("rank %d with %d strides and %d box sizes", rank, len(strides), len(box))
	}
	if !dataType.known() {
		return nil, fmt.Errorf("unknown CUtensorMapDataType %d (cuda.h has 0 to %d)", int64(dataType), len(tensorDataTypes)-1)
	}
	for i, mode := range modes {
		if e := tensorMapEnums[i]; mode < 0 || mode >= int64(len(e.values)) {
			return nil, fmt.Errorf("unknown %s code %d (cuda.h has 0 to %d)", e.what, mode, len(e.values)-1)
		}
	}
	m := &TiledMap{DataType: dataType, Modes: modes, sizes: sizes, strides: strides, box: box}
	if sizes[rank-1] > 1 && strides[rank-1] != 1 {
		return nil, fmt.Errorf("memref sizes %v strides %v: the innermost dimension must be contiguous (stride 1) for a TMA descriptor", sizes, strides)
	}
	if offset < 0 {
		return nil, fmt.Errorf("memref offset %d is negative", offset)
	}
	size := dataType.Size()
	m.Address = aligned + uintptr(offset*size)
	for i := rank - 1; i >= 0; i-- {
		if sizes[i] < 0 || strides[i] < 0 || box[i] < 0 || box[i] > 1<<32-1 {
			return nil, fmt.Errorf("memref sizes %v strides %v, box %v: negative or out of range", sizes, strides, box)
		}
		m.GlobalDim = append(m.GlobalDim, uint64(sizes[i]))
		m.BoxDim = append(m.BoxDim, uint32(box[i]))
		m.ElementStrides = append(m.ElementStrides, 1)
		if i < rank-1 {
			m.GlobalStrides = append(m.GlobalStrides, uint64(strides[i]*size))
		}
	}
	return m, nil
}

// String shows the driver's arguments and the memref they come from:
// "FLOAT32, rank 2, address 0x..., globalDim [16 8], ...".
func (m *TiledMap) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, rank %d, address %#x, globalDim %v, globalStrides %v bytes, boxDim %v, elementStrides %v",
		m.DataType, m.Rank(), m.Address, m.GlobalDim, m.GlobalStrides, m.BoxDim, m.ElementStrides)
	for i, mode := range m.Modes {
		fmt.Fprintf(&b, ", %s %s", tensorMapEnums[i].what, tensorMapEnums[i].values[mode])
	}
	fmt.Fprintf(&b, "; dimension 0 innermost, from the memref's sizes %v, strides %v and box %v", m.sizes, m.strides, m.box)
	return b.String()
}

// Problems lists the arguments that break cuTensorMapEncodeTiled's documented requirements
// (CUDA 12.4's cuda.h), to explain why the driver refused them; empty when none does.
func (m *TiledMap) Problems() []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	size := m.DataType.Size()
	interleave, swizzle := m.Modes[interleaveMode], m.Modes[swizzleMode]
	if interleave != 0 && m.Rank() < 3 {
		add("an interleaved layout needs rank 3 or more")
	}
	align := uintptr(16)
	if interleave == 2 {
		align = 32
	}
	if m.Address%align != 0 {
		add("the address %#x is not a multiple of %d bytes", m.Address, align)
	}
	for i, d := range m.GlobalDim {
		if d == 0 || d > 1<<32 {
			add("globalDim[%d] = %d is not in 1..2^32", i, d)
		}
	}
	for i, s := range m.GlobalStrides {
		if s%uint64(align) != 0 || s >= 1<<40 {
			add("globalStrides[%d] = %d bytes is not a multiple of %d below 2^40", i, s, align)
		}
	}
	for i, d := range m.BoxDim {
		if d == 0 || d > 256 {
			add("boxDim[%d] = %d is not in 1..256", i, d)
		}
	}
	if inner := int64(m.BoxDim[0]) * size; interleave == 0 {
		if inner%16 != 0 {
			add("boxDim[0] * %d bytes = %d bytes is not a multiple of 16", size, inner)
		}
		if span := int64(16) << swizzle; swizzle != 0 && inner > span {
			add("boxDim[0] * %d bytes = %d bytes is more than the %d-byte swizzle", size, inner, span)
		}
	}
	if interleave == 2 && swizzle != 1 {
		add("interleave 32B needs swizzle 32B")
	}
	if m.Modes[oobFillMode] != 0 {
		switch m.DataType.String() {
		case "FLOAT16", "FLOAT32", "FLOAT64", "BFLOAT16", "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ":
		default:
			add("OOB fill NAN_REQUEST_ZERO_FMA needs a floating-point data type")
		}
	}
	return problems
}

// Explain is the context of a failed cuTensorMapEncodeTiled: the requirements the arguments break,
// or that none of the documented ones is.
func (m *TiledMap) Explain() string {
	problems := m.Problems()
	if len(problems) == 0 {
		return "the arguments meet cuda.h's documented requirements"
	}
	return "against cuda.h's requirements: " + strings.Join(problems, "; ")
}
