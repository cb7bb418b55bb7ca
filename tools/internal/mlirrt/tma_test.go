package mlirrt

import (
	"reflect"
	"strings"
	"testing"
)

// The CUtensorMapDataType codes the tests use (cuda.h).
const (
	tmaUint8    TensorDataType = 0
	tmaInt32    TensorDataType = 3
	tmaFloat16  TensorDataType = 6
	tmaFloat32  TensorDataType = 7
	tmaBfloat16 TensorDataType = 9
)

func TestTensorDataType(t *testing.T) {
	for _, tc := range []struct {
		code TensorDataType
		name string
		size int64
	}{
		{0, "UINT8", 1}, {1, "UINT16", 2}, {2, "UINT32", 4}, {3, "INT32", 4}, {4, "UINT64", 8},
		{5, "INT64", 8}, {6, "FLOAT16", 2}, {7, "FLOAT32", 4}, {8, "FLOAT64", 8}, {9, "BFLOAT16", 2},
		{10, "FLOAT32_FTZ", 4}, {11, "TFLOAT32", 4}, {12, "TFLOAT32_FTZ", 4},
		{13, "data type 13", 0}, {-1, "data type -1", 0},
	} {
		if got := tc.code.String(); got != tc.name {
			t.Errorf("TensorDataType(%d).String() = %q, want %q", tc.code, got, tc.name)
		}
		if got := tc.code.Size(); got != tc.size {
			t.Errorf("TensorDataType(%d).Size() = %d, want %d", tc.code, got, tc.size)
		}
	}
}

// TestNewTiledMap checks the driver's arguments made from memref descriptors: reversed to put the
// innermost dimension first, strides in bytes without the innermost one, the offset added.
func TestNewTiledMap(t *testing.T) {
	const base = 0x7f0000000000
	for _, tc := range []struct {
		name                string
		dataType            TensorDataType
		modes               [4]int64
		offset              int64
		sizes, strides, box []int64
		want                TiledMap // its Address, GlobalDim, GlobalStrides, BoxDim, ElementStrides
		wantErr             string
	}{
		{
			name: "2-D f32", dataType: tmaFloat32, sizes: []int64{8, 16}, strides: []int64{16, 1}, box: []int64{4, 8},
			want: TiledMap{Address: base, GlobalDim: []uint64{16, 8}, GlobalStrides: []uint64{64}, BoxDim: []uint32{8, 4}, ElementStrides: []uint32{1, 1}},
		},
		{
			name: "1-D f16", dataType: tmaFloat16, sizes: []int64{64}, strides: []int64{1}, box: []int64{64},
			want: TiledMap{Address: base, GlobalDim: []uint64{64}, BoxDim: []uint32{64}, ElementStrides: []uint32{1}},
		},
		{
			name: "3-D padded rows, offset", dataType: tmaBfloat16, offset: 8, modes: [4]int64{0, 3, 2, 1},
			sizes: []int64{2, 4, 64}, strides: []int64{512, 128, 1}, box: []int64{1, 4, 64},
			want: TiledMap{Address: base + 16, GlobalDim: []uint64{64, 4, 2}, GlobalStrides: []uint64{256, 1024}, BoxDim: []uint32{64, 4, 1}, ElementStrides: []uint32{1, 1, 1}},
		},
		{
			name: "innermost size 1, any stride", dataType: tmaInt32, sizes: []int64{4, 1}, strides: []int64{4, 7}, box: []int64{4, 1},
			want: TiledMap{Address: base, GlobalDim: []uint64{1, 4}, GlobalStrides: []uint64{16}, BoxDim: []uint32{1, 4}, ElementStrides: []uint32{1, 1}},
		},
		{name: "rank 0", dataType: tmaFloat32, wantErr: "a memref of rank 0: a TMA descriptor has 1 to 5 dimensions"},
		{
			name: "rank 6", dataType: tmaFloat32, sizes: make([]int64, 6), strides: make([]int64, 6), box: make([]int64, 6),
			wantErr: "rank 6",
		},
		{
			name: "unknown data type", dataType: 13, sizes: []int64{16}, strides: []int64{1}, box: []int64{16},
			wantErr: "unknown CUtensorMapDataType 13 (cuda.h has 0 to 12)",
		},
		{
			name: "unknown swizzle", dataType: tmaFloat32, modes: [4]int64{0, 4, 0, 0}, sizes: []int64{16}, strides: []int64{1}, box: []int64{16},
			wantErr: "unknown swizzle code 4 (cuda.h has 0 to 3)",
		},
		{
			name: "unknown OOB fill", dataType: tmaFloat32, modes: [4]int64{0, 0, 0, 2}, sizes: []int64{16}, strides: []int64{1}, box: []int64{16},
			wantErr: "unknown OOB fill code 2",
		},
		{
			name: "strided innermost", dataType: tmaFloat32, sizes: []int64{8, 8}, strides: []int64{1, 8}, box: []int64{8, 8},
			wantErr: "memref sizes [8 8] strides [1 8]: the innermost dimension must be contiguous (stride 1)",
		},
		{
			name: "negative box", dataType: tmaFloat32, sizes: []int64{8, 8}, strides: []int64{8, 1}, box: []int64{-1, 8},
			wantErr: "negative or out of range",
		},
		{
			name: "box count", dataType: tmaFloat32, sizes: []int64{8, 8}, strides: []int64{8, 1}, box: []int64{8},
			wantErr: "rank 2 with 2 strides and 1 box sizes",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewTiledMap(tc.dataType, tc.modes, base, tc.offset, tc.sizes, tc.strides, tc.box)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := TiledMap{Address: m.Address, GlobalDim: m.GlobalDim, GlobalStrides: m.GlobalStrides, BoxDim: m.BoxDim, ElementStrides: m.ElementStrides}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			if m.DataType != tc.dataType || m.Modes != tc.modes || m.Rank() != len(tc.sizes) {
				t.Errorf("data type %v, modes %v, rank %d: not the arguments'", m.DataType, m.Modes, m.Rank())
			}
		})
	}
}

func TestTiledMapString(t *testing.T) {
	m, err := NewTiledMap(tmaFloat32, [4]int64{0, 0, 1, 1}, 0x1000, 0, []int64{8, 16}, []int64{16, 1}, []int64{4, 8})
	if err != nil {
		t.Fatal(err)
	}
	want := "FLOAT32, rank 2, address 0x1000, globalDim [16 8], globalStrides [64] bytes, boxDim [8 4], elementStrides [1 1], " +
		"interleave NONE, swizzle NONE, L2 promotion L2_64B, OOB fill NAN_REQUEST_ZERO_FMA; " +
		"dimension 0 innermost, from the memref's sizes [8 16], strides [16 1] and box [4 8]"
	if got := m.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestTiledMapProblems checks the explanation of a refusal against cuda.h's documented rules.
func TestTiledMapProblems(t *testing.T) {
	for _, tc := range []struct {
		name                string
		dataType            TensorDataType
		modes               [4]int64
		address             uintptr
		sizes, strides, box []int64
		want                []string
	}{
		{name: "fine", dataType: tmaFloat32, address: 0x100, sizes: []int64{8, 16}, strides: []int64{16, 1}, box: []int64{4, 8}},
		{
			name: "fine, 128-byte swizzle", dataType: tmaFloat16, modes: [4]int64{0, 3, 0, 0}, address: 0x100,
			sizes: []int64{64, 64}, strides: []int64{64, 1}, box: []int64{64, 64},
		},
		{
			name: "misaligned address", dataType: tmaFloat32, address: 0x104, sizes: []int64{8, 16}, strides: []int64{16, 1}, box: []int64{4, 8},
			want: []string{"the address 0x104 is not a multiple of 16 bytes"},
		},
		{
			name: "row stride", dataType: tmaFloat32, address: 0x100, sizes: []int64{8, 6}, strides: []int64{6, 1}, box: []int64{4, 6},
			want: []string{"globalStrides[0] = 24 bytes is not a multiple of 16 below 2^40", "boxDim[0] * 4 bytes = 24 bytes is not a multiple of 16"},
		},
		{
			name: "box too big", dataType: tmaUint8, address: 0x100, sizes: []int64{512, 512}, strides: []int64{512, 1}, box: []int64{512, 16},
			want: []string{"boxDim[1] = 512 is not in 1..256"},
		},
		{
			name: "box zero, size zero", dataType: tmaFloat32, address: 0x100, sizes: []int64{0, 16}, strides: []int64{16, 1}, box: []int64{0, 4},
			want: []string{"globalDim[1] = 0 is not in 1..2^32", "boxDim[1] = 0 is not in 1..256"},
		},
		{
			name: "wider than the swizzle", dataType: tmaFloat32, modes: [4]int64{0, 1, 0, 0}, address: 0x100,
			sizes: []int64{8, 16}, strides: []int64{16, 1}, box: []int64{8, 16},
			want: []string{"boxDim[0] * 4 bytes = 64 bytes is more than the 32-byte swizzle"},
		},
		{
			name: "interleave", dataType: tmaFloat16, modes: [4]int64{2, 0, 0, 0}, address: 0x110,
			sizes: []int64{8, 16}, strides: []int64{16, 1}, box: []int64{8, 16},
			want: []string{"an interleaved layout needs rank 3 or more", "the address 0x110 is not a multiple of 32 bytes", "interleave 32B needs swizzle 32B"},
		},
		{
			name: "NaN fill of integers", dataType: tmaInt32, modes: [4]int64{0, 0, 0, 1}, address: 0x100,
			sizes: []int64{16}, strides: []int64{1}, box: []int64{16},
			want: []string{"OOB fill NAN_REQUEST_ZERO_FMA needs a floating-point data type"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewTiledMap(tc.dataType, tc.modes, tc.address, 0, tc.sizes, tc.strides, tc.box)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Problems(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			explain := m.Explain()
			if len(tc.want) == 0 && explain != "the arguments meet cuda.h's documented requirements" ||
				len(tc.want) > 0 && explain != "against cuda.h's requirements: "+strings.Join(tc.want, "; ") {
				t.Errorf("Explain() = %q", explain)
			}
		})
	}
}
