package mlirrt

import (
	"slices"
	"strings"
	"testing"
)

// ints decodes a buffer of w-byte unsigned integers.
func ints(b []byte, w int) []uint64 {
	xs := []uint64{}
	for i := range len(b) / w {
		xs = append(xs, get(b, w, i))
	}
	return xs
}

// entry is an inserted value at level coordinates.
type entry struct {
	crd []uint64
	val float64
}

const (
	dense      = LevelDense
	compressed = LevelCompressed
	loose      = LevelLooseCompressed
	singleton  = LevelSingleton
	nonunique  = LevelNonunique
)

// The 4x4 matrix [[1, 0, 0, 2], [0, 0, 3, 0], [0, 0, 0, 0], [4, 0, 5, 0]] in row-major order.
var matrix = []entry{{[]uint64{0, 0}, 1}, {[]uint64{0, 3}, 2}, {[]uint64{1, 2}, 3}, {[]uint64{3, 0}, 4}, {[]uint64{3, 2}, 5}}

func TestSparseStorageLayout(t *testing.T) {
	for _, tc := range []struct {
		name     string
		types    []LevelType
		sizes    []uint64
		pos, crd Overhead
		inserts  []entry
		// want holds, per level, its positions and coordinates (nil where it has none).
		wantPos, wantCrd [][]uint64
		wantVal          []float64
	}{
		{"CSR", []LevelType{dense, compressed}, []uint64{4, 4}, OverheadIndex, OverheadIndex, matrix,
			[][]uint64{nil, {0, 2, 3, 3, 5}}, [][]uint64{nil, {0, 3, 2, 0, 2}}, []float64{1, 2, 3, 4, 5}},
		{"DCSR, 8-bit", []LevelType{compressed, compressed}, []uint64{4, 4}, OverheadU8, OverheadU8, matrix,
			[][]uint64{{0, 3}, {0, 2, 3, 5}}, [][]uint64{{0, 1, 3}, {0, 3, 2, 0, 2}}, []float64{1, 2, 3, 4, 5}},
		{"COO", []LevelType{compressed | nonunique, singleton}, []uint64{4, 4}, OverheadU32, OverheadU16, matrix,
			[][]uint64{{0, 5}, nil}, [][]uint64{{0, 0, 1, 3, 3}, {0, 3, 2, 0, 2}}, []float64{1, 2, 3, 4, 5}},
		{"COO with duplicates", []LevelType{compressed | nonunique, singleton | nonunique}, []uint64{4, 4}, OverheadIndex, OverheadIndex,
			[]entry{{[]uint64{1, 1}, 1}, {[]uint64{1, 1}, 2}},
			[][]uint64{{0, 2}, nil}, [][]uint64{{1, 1}, {1, 1}}, []float64{1, 2}},
		{"loose_compressed", []LevelType{dense, loose}, []uint64{4, 4}, OverheadIndex, OverheadIndex, matrix,
			[][]uint64{nil, {0, 2, 2, 3, 3, 3, 3, 5, 5}}, [][]uint64{nil, {0, 3, 2, 0, 2}}, []float64{1, 2, 3, 4, 5}},
		{"dense then compressed then dense", []LevelType{dense, compressed, dense}, []uint64{2, 2, 2}, OverheadIndex, OverheadIndex,
			[]entry{{[]uint64{1, 1, 0}, 7}},
			[][]uint64{nil, {0, 0, 1}, nil}, [][]uint64{nil, {1}, nil}, []float64{7, 0}},
		{"no entries, CSR", []LevelType{dense, compressed}, []uint64{3, 4}, OverheadIndex, OverheadIndex, nil,
			[][]uint64{nil, {0, 0, 0, 0}}, [][]uint64{nil, {}}, []float64{}},
		{"no entries, DCSR", []LevelType{compressed, compressed}, []uint64{3, 4}, OverheadIndex, OverheadIndex, nil,
			[][]uint64{{0, 0}, {0}}, [][]uint64{{}, {}}, []float64{}},
		{"all dense", []LevelType{dense, dense}, []uint64{2, 2}, OverheadIndex, OverheadIndex,
			[]entry{{[]uint64{1, 0}, 3}},
			[][]uint64{nil, nil}, [][]uint64{nil, nil}, []float64{0, 0, 3, 0}},
		{"structured[2, 4]", []LevelType{dense, dense, LevelNOutOfM | 2<<32 | 4<<40}, []uint64{1, 2, 4}, OverheadIndex, OverheadIndex,
			[]entry{{[]uint64{0, 0, 1}, 1}, {[]uint64{0, 0, 3}, 2}, {[]uint64{0, 1, 0}, 3}, {[]uint64{0, 1, 2}, 4}},
			[][]uint64{nil, nil, nil}, [][]uint64{nil, nil, {1, 3, 0, 2}}, []float64{1, 2, 3, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSparseStorage(GoMemory{}, tc.sizes, tc.sizes, tc.types, nil, nil, tc.pos, tc.crd, PrimaryF64)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range tc.inserts {
				if err := s.LexInsert(e.crd, f64s(e.val)); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.EndLexInsert(); err != nil {
				t.Fatal(err)
			}
			for l := range tc.types {
				p, _ := s.Positions(uint64(l))
				c, _ := s.Coordinates(uint64(l))
				if tc.wantPos[l] == nil != (p == nil) || !slices.Equal(ints(p, tc.pos.Size()), append([]uint64{}, tc.wantPos[l]...)) {
					t.Errorf("level %d positions %v, want %v", l, ints(p, tc.pos.Size()), tc.wantPos[l])
				}
				if tc.wantCrd[l] == nil != (c == nil) || !slices.Equal(ints(c, tc.crd.Size()), append([]uint64{}, tc.wantCrd[l]...)) {
					t.Errorf("level %d coordinates %v, want %v", l, ints(c, tc.crd.Size()), tc.wantCrd[l])
				}
			}
			if got := s.Values(); string(got) != string(f64s(tc.wantVal...)) {
				t.Errorf("values %v, want %v", ints(got, 8), ints(f64s(tc.wantVal...), 8))
			}
		})
	}
}

func TestSparseStorageErrors(t *testing.T) {
	csr := []LevelType{dense, compressed}
	for _, tc := range []struct {
		name    string
		types   []LevelType
		crd     Overhead
		val     Primary
		inserts []entry
		want    string
	}{
		{"batch level", []LevelType{LevelBatch, compressed}, OverheadIndex, PrimaryF64, nil, "level 0: batch is not supported; the runtime supports dense, compressed"},
		{"dense with a property", []LevelType{dense | nonunique, compressed}, OverheadIndex, PrimaryF64, nil, "level 0: dense(nonunique) has properties"},
		{"unknown overhead", csr, Overhead(9), PrimaryF64, nil, "the positions are index and the coordinates overhead type 9"},
		{"unknown value type", csr, OverheadIndex, Primary(11), nil, "the values are primary type 11"},
		{"out of bounds", csr, OverheadIndex, PrimaryF64, []entry{{[]uint64{0, 4}, 1}}, "coordinate 4 at level 1 of size 4"},
		{"out of order", csr, OverheadIndex, PrimaryF64, []entry{{[]uint64{2, 0}, 1}, {[]uint64{1, 0}, 1}}, "entries out of order: coordinate 1 at dense level 0 after 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSparseStorage(GoMemory{}, []uint64{4, 4}, []uint64{4, 4}, tc.types, nil, nil, OverheadIndex, tc.crd, tc.val)
			for _, e := range tc.inserts {
				if err == nil {
					err = s.LexInsert(e.crd, f64s(e.val))
				}
			}
			if err == nil {
				err = s.EndLexInsert()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	// A coordinate beyond the width of the overhead type.
	s, _ := NewSparseStorage(GoMemory{}, []uint64{300}, []uint64{300}, []LevelType{compressed}, nil, nil, OverheadU8, OverheadU8, PrimaryF64)
	if err := s.LexInsert([]uint64{299}, f64s(1)); err != nil {
		t.Fatal(err)
	}
	if err := s.EndLexInsert(); err == nil || err.Error() != "level 0: coordinate 299 does not fit in i8" {
		t.Errorf("overflow: error %v", err)
	}
}

func TestSparseStorageExpInsert(t *testing.T) {
	s, err := NewSparseStorage(GoMemory{}, []uint64{2, 4}, []uint64{2, 4}, []LevelType{dense, compressed}, nil, nil, OverheadIndex, OverheadIndex, PrimaryF64)
	if err != nil {
		t.Fatal(err)
	}
	values, filled := f64s(0, 5, 0, 6), []byte{0, 1, 0, 1}
	crd := []uint64{1, 0}
	if err := s.ExpInsert(crd, values, filled, []uint64{3, 1}); err != nil {
		t.Fatal(err)
	}
	if string(values) != string(f64s(0, 0, 0, 0)) || string(filled) != "\x00\x00\x00\x00" || crd[1] != 3 {
		t.Errorf("after ExpInsert: values %v, filled %v, coordinates %v; want them cleared and the last coordinate 3", ints(values, 8), filled, crd)
	}
	if err := s.EndLexInsert(); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Positions(1)
	c, _ := s.Coordinates(1)
	if !slices.Equal(ints(p, 8), []uint64{0, 0, 2}) || !slices.Equal(ints(c, 8), []uint64{1, 3}) || string(s.Values()) != string(f64s(5, 6)) {
		t.Errorf("positions %v, coordinates %v, values %v", ints(p, 8), ints(c, 8), ints(s.Values(), 8))
	}
}

func TestSparseStorageFromBuffers(t *testing.T) {
	for _, tc := range []struct {
		name             string
		types            []LevelType
		bufs             [][]byte
		wantPos, wantCrd [][]uint64
		wantAoS          []uint64 // CoordinatesAoS(0)
	}{
		{"CSR", []LevelType{dense, compressed},
			[][]byte{ne.AppendUint32(ne.AppendUint32(ne.AppendUint32(nil, 0), 1), 2), {3, 1}, f64s(1, 2)},
			[][]uint64{nil, {0, 1, 2}}, [][]uint64{nil, {3, 1}}, nil},
		{"COO, interleaved", []LevelType{compressed | nonunique, singleton},
			[][]byte{ne.AppendUint32(ne.AppendUint32(nil, 0), 2), {0, 1, 1, 0}, f64s(1, 2)},
			[][]uint64{{0, 2}, nil}, [][]uint64{{0, 1}, {1, 0}}, []uint64{0, 1, 1, 0}},
		{"loose_compressed", []LevelType{dense, loose},
			[][]byte{ne.AppendUint32(ne.AppendUint32(ne.AppendUint32(ne.AppendUint32(nil, 0), 1), 1), 2), {3, 1}, f64s(1, 2)},
			[][]uint64{nil, {0, 1, 1, 2}}, [][]uint64{nil, {3, 1}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSparseStorageFromBuffers(GoMemory{}, []uint64{2, 2}, []uint64{2, 2}, tc.types, nil, nil, OverheadU32, OverheadU8, PrimaryF64,
				func(i, n int) []byte { return tc.bufs[i][:n] })
			if err != nil {
				t.Fatal(err)
			}
			for l := range tc.types {
				p, _ := s.Positions(uint64(l))
				c, _ := s.Coordinates(uint64(l))
				if !slices.Equal(ints(p, 4), append([]uint64{}, tc.wantPos[l]...)) || !slices.Equal(ints(c, 1), append([]uint64{}, tc.wantCrd[l]...)) {
					t.Errorf("level %d: positions %v, coordinates %v; want %v, %v", l, ints(p, 4), ints(c, 1), tc.wantPos[l], tc.wantCrd[l])
				}
			}
			if string(s.Values()) != string(f64s(1, 2)) {
				t.Errorf("values %v", ints(s.Values(), 8))
			}
			if tc.wantAoS != nil {
				if b, err := s.CoordinatesAoS(0); err != nil || !slices.Equal(ints(b, 1), tc.wantAoS) {
					t.Errorf("CoordinatesAoS(0) = %v, %v; want %v", ints(b, 1), err, tc.wantAoS)
				}
			}
		})
	}
}

func TestSparseStorageSortCOOInPlace(t *testing.T) {
	s, err := NewSparseStorage(GoMemory{}, []uint64{4, 4}, []uint64{4, 4}, []LevelType{compressed | nonunique | LevelNonordered, singleton | LevelNonordered}, nil, nil, OverheadIndex, OverheadU16, PrimaryF64)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []entry{{[]uint64{3, 1}, 1}, {[]uint64{0, 2}, 2}, {[]uint64{3, 0}, 3}} {
		if err := s.LexInsert(e.crd, f64s(e.val)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.EndLexInsert(); err != nil {
		t.Fatal(err)
	}
	if err := s.SortCOOInPlace(); err != nil {
		t.Fatal(err)
	}
	c0, _ := s.Coordinates(0)
	c1, _ := s.Coordinates(1)
	if !slices.Equal(ints(c0, 2), []uint64{0, 3, 3}) || !slices.Equal(ints(c1, 2), []uint64{2, 0, 1}) || string(s.Values()) != string(f64s(2, 3, 1)) {
		t.Errorf("sorted: coordinates %v %v, values %v", ints(c0, 2), ints(c1, 2), ints(s.Values(), 8))
	}
	csr, _ := NewSparseStorage(GoMemory{}, []uint64{4, 4}, []uint64{4, 4}, []LevelType{dense, compressed}, nil, nil, OverheadIndex, OverheadIndex, PrimaryF64)
	if err := csr.SortCOOInPlace(); err == nil || !strings.Contains(err.Error(), "needs a COO tensor") {
		t.Errorf("sorting CSR: error %v", err)
	}
}

func TestLevelTypeString(t *testing.T) {
	for _, tc := range []struct {
		t    LevelType
		want string
	}{
		{dense, "dense"},
		{compressed | nonunique, "compressed(nonunique)"},
		{singleton | nonunique | LevelSoA, "singleton(nonunique, soa)"},
		{loose | LevelNonordered, "loose_compressed(nonordered)"},
		{LevelNOutOfM | 2<<32 | 4<<40, "structured[2, 4]"},
		{0x40000000, "level type 0x40000000"},
	} {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("LevelType(%#x).String() = %q, want %q", uint64(tc.t), got, tc.want)
		}
	}
}
