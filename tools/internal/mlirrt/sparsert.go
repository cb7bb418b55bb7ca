package mlirrt

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// This file is the storage model of MLIR's sparse tensor runtime library (upstream
// SparseTensorRuntime.h and SparseTensor/Storage.h, LLVM 21), which the sparsifier calls with
// enable-runtime-library=true: a tensor's levels, each with the positions and coordinates that its
// level type needs, and its values, in the buffers that the lowered program reads through memref
// descriptors. It is pure Go; sparsert_cuda.go exports it to C with upstream's names and ABIs,
// its buffers in C memory (Memory).
//
// The layout, per level l (the parent size p is the number of entries of level l-1, 1 for l = 0):
//   - dense: no buffers; p·size(l) entries, coordinate c of parent entry q being entry q·size(l)+c;
//   - compressed: positions of p+1 elements, parent q's entries being [pos[q], pos[q+1]), and one
//     coordinate per entry; nonunique lets equal coordinates follow each other, each its own entry;
//   - loose_compressed: positions of 2p+1 elements, parent q's entries being [pos[2q], pos[2q+1])
//     (the last element unused, as upstream's), and one coordinate per entry;
//   - singleton, structured[n, m]: one coordinate per entry, as many entries as the parent has;
//
// and the values hold one element per entry of the last level. A tensor's entries are inserted in
// lexicographic order of their level coordinates (lexInsert; expInsert inserts a row of the last
// level) and laid out when endLexInsert says the insertions are over; a tensor whose levels are all
// dense holds all its values from the start, and inserting writes them in place.

// LevelType is a level's format, its properties and, for structured[n, m], n and m, as upstream's
// Enums.h encodes them in 64 bits: n in bits 32-39, m in bits 40-47, the format in bits 16-31 and
// the properties in bits 0-15.
type LevelType uint64

// The level formats and properties of LevelType.
const (
	LevelDense           LevelType = 0x00010000
	LevelBatch           LevelType = 0x00020000
	LevelCompressed      LevelType = 0x00040000
	LevelSingleton       LevelType = 0x00080000
	LevelLooseCompressed LevelType = 0x00100000
	LevelNOutOfM         LevelType = 0x00200000

	LevelNonunique  LevelType = 0x0001
	LevelNonordered LevelType = 0x0002
	LevelSoA        LevelType = 0x0004

	levelFormatMask LevelType = 0xffff0000
)

// Format is the level's format without its properties.
func (t LevelType) Format() LevelType { return t & levelFormatMask }

// Unique says whether the level's entries have distinct coordinates within a parent entry.
func (t LevelType) Unique() bool { return t&LevelNonunique == 0 }

// hasPositions says whether the level has a positions buffer.
func (t LevelType) hasPositions() bool {
	return t.Format() == LevelCompressed || t.Format() == LevelLooseCompressed
}

// hasCoordinates says whether the level has a coordinates buffer.
func (t LevelType) hasCoordinates() bool { return t.Format() != LevelDense }

// String is the level type in MLIR's syntax: "compressed(nonunique)", "structured[2, 4]".
func (t LevelType) String() string {
	var s string
	switch t.Format() {
	case LevelDense:
		s = "dense"
	case LevelBatch:
		s = "batch"
	case LevelCompressed:
		s = "compressed"
	case LevelSingleton:
		s = "singleton"
	case LevelLooseCompressed:
		s = "loose_compressed"
	case LevelNOutOfM:
		s = fmt.Sprintf("structured[%d, %d]", uint64(t)>>32&0xff, uint64(t)>>40&0xff)
	default:
		return fmt.Sprintf("level type %#x", uint64(t))
	}
	var props []string
	for _, p := range []struct {
		bit  LevelType
		name string
	}{{LevelNonunique, "nonunique"}, {LevelNonordered, "nonordered"}, {LevelSoA, "soa"}} {
		if t&p.bit != 0 {
			props = append(props, p.name)
		}
	}
	if len(props) > 0 {
		s += "(" + strings.Join(props, ", ") + ")"
	}
	return s
}

// supportedLevels names the level formats that the runtime supports, for error messages.
const supportedLevels = "dense, compressed, loose_compressed, singleton and structured[n, m], with the properties nonunique, nonordered and soa"

// check says why the runtime cannot store a level of this type, or nil.
func (t LevelType) check() error {
	switch f := t.Format(); f {
	case LevelDense, LevelNOutOfM:
		if t&0xffff != 0 {
			return fmt.Errorf("%s has properties, which a %s level cannot have", t, LevelType(f))
		}
	case LevelCompressed, LevelSingleton, LevelLooseCompressed:
		if t&0xffff&^(LevelNonunique|LevelNonordered|LevelSoA) != 0 {
			return fmt.Errorf("%s has unknown properties; the runtime supports %s", t, supportedLevels)
		}
	default:
		return fmt.Errorf("%s is not supported; the runtime supports %s", t, supportedLevels)
	}
	return nil
}

// Overhead is the element type of positions and coordinates (upstream's OverheadType): index, or an
// unsigned integer of 64, 32, 16 or 8 bits.
type Overhead uint32

// The overhead types, numbered as upstream's.
const (
	OverheadIndex Overhead = iota
	OverheadU64
	OverheadU32
	OverheadU16
	OverheadU8
)

// Size is the overhead type's size in bytes, 0 when unknown.
func (o Overhead) Size() int {
	switch o {
	case OverheadIndex, OverheadU64:
		return 8
	case OverheadU32:
		return 4
	case OverheadU16:
		return 2
	case OverheadU8:
		return 1
	}
	return 0
}

// Bits is the width in bits that upstream's entry point names carry (sparsePositions32): 0 for
// index.
func (o Overhead) Bits() int {
	if o == OverheadIndex {
		return 0
	}
	return o.Size() * 8
}

func (o Overhead) String() string {
	if o == OverheadIndex {
		return "index"
	}
	if o.Size() == 0 {
		return "overhead type " + strconv.Itoa(int(o))
	}
	return "i" + strconv.Itoa(o.Bits())
}

// Primary is the values' element type (upstream's PrimaryType).
type Primary uint32

// The value types, numbered as upstream's.
const (
	PrimaryF64 Primary = iota + 1
	PrimaryF32
	PrimaryF16
	PrimaryBF16
	PrimaryI64
	PrimaryI32
	PrimaryI16
	PrimaryI8
	PrimaryC64 // complex<f64>
	PrimaryC32 // complex<f32>
)

var primaries = map[Primary]struct {
	name string // as in upstream's entry point names: sparseValuesF64
	mlir string // the MLIR type
	size int
}{
	PrimaryF64: {"F64", "f64", 8}, PrimaryF32: {"F32", "f32", 4}, PrimaryF16: {"F16", "f16", 2},
	PrimaryBF16: {"BF16", "bf16", 2}, PrimaryI64: {"I64", "i64", 8}, PrimaryI32: {"I32", "i32", 4},
	PrimaryI16: {"I16", "i16", 2}, PrimaryI8: {"I8", "i8", 1}, PrimaryC64: {"C64", "complex<f64>", 16},
	PrimaryC32: {"C32", "complex<f32>", 8},
}

// Size is the size of one value in bytes, 0 when unknown.
func (p Primary) Size() int { return primaries[p].size }

// Name is the type as upstream's entry point names spell it: "F64", "C32".
func (p Primary) Name() string { return primaries[p].name }

func (p Primary) String() string {
	if i, ok := primaries[p]; ok {
		return i.mlir
	}
	return "primary type " + strconv.Itoa(int(p))
}

// SparseAction is what newSparseTensor does (upstream's Action).
type SparseAction uint32

// The actions, numbered as upstream's (LLVM 21).
const (
	ActionEmpty          SparseAction = iota // a new tensor without entries
	ActionFromReader                         // a tensor read from a file (not supported)
	ActionPack                               // a tensor copied from the program's level buffers
	ActionSortCOOInPlace                     // the tensor itself, its COO entries sorted
)

// Memory allocates the buffers of a SparseStorage, which the program reads and writes: C memory in
// the runtime, Go memory in tests.
type Memory interface {
	// Alloc returns n zeroed bytes (n may be 0).
	Alloc(n int) []byte
	// Free frees what Alloc returned.
	Free(b []byte)
}

// GoMemory is Memory in Go's heap.
type GoMemory struct{}

func (GoMemory) Alloc(n int) []byte { return make([]byte, n) }
func (GoMemory) Free([]byte)        {}

// SparseStorage is a sparse tensor of the runtime library: what newSparseTensor returns.
type SparseStorage struct {
	DimSizes, LvlSizes []uint64
	LvlTypes           []LevelType
	// Dim2Lvl and Lvl2Dim are the encoding's maps as the sparsifier passes them; the runtime keeps
	// them but needs them only to read files, which it does not.
	Dim2Lvl, Lvl2Dim []uint64
	Pos, Crd         Overhead
	Val              Primary

	mem Memory
	// positions and coordinates hold each level's buffers (nil where the level has none), values
	// the values: Pos, Crd and Val elements in the machine's byte order, allocated by mem.
	positions, coordinates [][]byte
	values                 []byte
	// aos holds the buffers that CoordinatesAoS made, freed with the storage.
	aos [][]byte
	// allDense: every level is dense, values holds every value from the start.
	allDense bool
	// pending holds the level coordinates (one per level) and values of the entries inserted and
	// not yet laid out; laidOut says that endLexInsert (or a pack) laid the entries out.
	pendingCrd []uint64
	pendingVal []byte
	laidOut    bool
}

var ne = binary.NativeEndian

// get reads element i of a buffer of w-byte unsigned integers.
func get(b []byte, w, i int) uint64 {
	switch w {
	case 8:
		return ne.Uint64(b[i*8:])
	case 4:
		return uint64(ne.Uint32(b[i*4:]))
	case 2:
		return uint64(ne.Uint16(b[i*2:]))
	}
	return uint64(b[i])
}

// put writes element i of a buffer of w-byte unsigned integers.
func put(b []byte, w, i int, x uint64) {
	switch w {
	case 8:
		ne.PutUint64(b[i*8:], x)
	case 4:
		ne.PutUint32(b[i*4:], uint32(x))
	case 2:
		ne.PutUint16(b[i*2:], uint16(x))
	default:
		b[i] = byte(x)
	}
}

// NewSparseStorage makes a tensor without entries (ActionEmpty): its compressed and
// loose_compressed levels have the positions buffer {0}, and a tensor whose levels are all dense
// holds zeros.
func NewSparseStorage(mem Memory, dimSizes, lvlSizes []uint64, lvlTypes []LevelType, dim2lvl, lvl2dim []uint64, pos, crd Overhead, val Primary) (*SparseStorage, error) {
	s := &SparseStorage{DimSizes: slices.Clone(dimSizes), LvlSizes: slices.Clone(lvlSizes), LvlTypes: slices.Clone(lvlTypes),
		Dim2Lvl: slices.Clone(dim2lvl), Lvl2Dim: slices.Clone(lvl2dim), Pos: pos, Crd: crd, Val: val, mem: mem, allDense: true}
	if err := s.check(); err != nil {
		return nil, err
	}
	n := uint64(1)
	for l, t := range lvlTypes {
		if t.hasPositions() {
			s.positions[l] = mem.Alloc(pos.Size())
		}
		if t.hasCoordinates() {
			s.allDense = false
			s.coordinates[l] = mem.Alloc(0)
		} else if hi, lo := bits.Mul64(n, lvlSizes[l]); hi != 0 {
			return nil, fmt.Errorf("the level sizes %v overflow", lvlSizes)
		} else {
			n = lo
		}
	}
	size := 0
	if s.allDense {
		if n > uint64(1<<40)/uint64(val.Size()) {
			return nil, fmt.Errorf("a dense tensor of %v %s values is too large", lvlSizes, val)
		}
		size = int(n) * val.Size()
	}
	s.values = mem.Alloc(size)
	return s, nil
}

// check validates the types and ranks, and makes the per-level buffer slices.
func (s *SparseStorage) check() error {
	if s.Pos.Size() == 0 || s.Crd.Size() == 0 {
		return fmt.Errorf("the positions are %s and the coordinates %s; the runtime supports index, i64, i32, i16 and i8", s.Pos, s.Crd)
	}
	if s.Val.Size() == 0 {
		return fmt.Errorf("the values are %s; the runtime supports f64, f32, f16, bf16, i64, i32, i16, i8, complex<f64> and complex<f32>", s.Val)
	}
	if len(s.LvlTypes) != len(s.LvlSizes) || len(s.LvlTypes) == 0 {
		return fmt.Errorf("%d level types for %d level sizes", len(s.LvlTypes), len(s.LvlSizes))
	}
	for l, t := range s.LvlTypes {
		if err := t.check(); err != nil {
			return fmt.Errorf("level %d: %w", l, err)
		}
	}
	s.positions = make([][]byte, len(s.LvlTypes))
	s.coordinates = make([][]byte, len(s.LvlTypes))
	return nil
}

// LvlRank is the number of levels.
func (s *SparseStorage) LvlRank() int { return len(s.LvlTypes) }

// LvlSize is the size of level l.
func (s *SparseStorage) LvlSize(l uint64) (uint64, error) {
	if l >= uint64(len(s.LvlSizes)) {
		return 0, fmt.Errorf("level %d of a tensor of %d levels", l, len(s.LvlSizes))
	}
	return s.LvlSizes[l], nil
}

// DimSize is the size of dimension d.
func (s *SparseStorage) DimSize(d uint64) (uint64, error) {
	if d >= uint64(len(s.DimSizes)) {
		return 0, fmt.Errorf("dimension %d of a tensor of %d dimensions", d, len(s.DimSizes))
	}
	return s.DimSizes[d], nil
}

// Positions is level l's positions buffer: empty for a level without positions, as upstream's.
func (s *SparseStorage) Positions(l uint64) ([]byte, error) {
	if _, err := s.LvlSize(l); err != nil {
		return nil, err
	}
	return s.positions[l], nil
}

// Coordinates is level l's coordinates buffer: empty for a dense level, as upstream's.
func (s *SparseStorage) Coordinates(l uint64) ([]byte, error) {
	if _, err := s.LvlSize(l); err != nil {
		return nil, err
	}
	return s.coordinates[l], nil
}

// CoordinatesAoS is the coordinates of levels l and after, interleaved (entry by entry), for the
// sparsifier's array-of-structures view of a COO region that starts at level l: a new buffer,
// freed with the storage.
func (s *SparseStorage) CoordinatesAoS(l uint64) ([]byte, error) {
	if _, err := s.LvlSize(l); err != nil {
		return nil, err
	}
	w, n, k := s.Crd.Size(), s.NumValues(), s.LvlRank()-int(l)
	for m := int(l); m < s.LvlRank(); m++ {
		if len(s.coordinates[m]) < n*w {
			return nil, fmt.Errorf("level %d (%s) has %d coordinates for %d values: levels %d to %d are no COO region", m, s.LvlTypes[m], len(s.coordinates[m])/w, n, l, s.LvlRank()-1)
		}
	}
	b := s.mem.Alloc(n * k * w)
	for i := range n {
		for j := range k {
			put(b, w, i*k+j, get(s.coordinates[int(l)+j], w, i))
		}
	}
	s.aos = append(s.aos, b)
	return b, nil
}

// Values is the values buffer.
func (s *SparseStorage) Values() []byte { return s.values }

// NumValues is the number of values.
func (s *SparseStorage) NumValues() int { return len(s.values) / s.Val.Size() }

// LexInsert inserts a value (Val.Size() bytes) at the level coordinates lvlCrd, which follow the
// previous insertion's in lexicographic order (except at nonunique or nonordered levels, where an
// entry may repeat or precede the previous one's coordinate).
func (s *SparseStorage) LexInsert(lvlCrd []uint64, val []byte) error {
	if len(lvlCrd) != s.LvlRank() || len(val) != s.Val.Size() {
		return fmt.Errorf("%d coordinates and a value of %d bytes for a tensor of %d levels and %s values", len(lvlCrd), len(val), s.LvlRank(), s.Val)
	}
	for l, c := range lvlCrd {
		if c >= s.LvlSizes[l] {
			return fmt.Errorf("coordinate %d at level %d of size %d", c, l, s.LvlSizes[l])
		}
	}
	if s.allDense {
		i := uint64(0)
		for l, c := range lvlCrd {
			i = i*s.LvlSizes[l] + c
		}
		copy(s.values[i*uint64(len(val)):], val)
		return nil
	}
	if s.laidOut {
		return fmt.Errorf("an insertion after endLexInsert, which the runtime does not support (the sparsifier inserts into a tensor until it loads it)")
	}
	s.pendingCrd = append(s.pendingCrd, lvlCrd...)
	s.pendingVal = append(s.pendingVal, val...)
	return nil
}

// ExpInsert inserts the values of an expanded access pattern at the last level: for each
// coordinate c of added, in increasing order, the value values[c] at lvlCrd with its last
// coordinate set to c (lvlCrd is left holding the last); then it clears values[c] and filled[c], as
// the sparsifier's code expects. values holds Val.Size() bytes per coordinate, filled one bool.
func (s *SparseStorage) ExpInsert(lvlCrd []uint64, values, filled []byte, added []uint64) error {
	slices.Sort(added)
	w, last := s.Val.Size(), s.LvlRank()-1
	for _, c := range added {
		if (c+1)*uint64(w) > uint64(len(values)) || c >= uint64(len(filled)) || last < 0 || len(lvlCrd) != s.LvlRank() {
			return fmt.Errorf("added coordinate %d out of the expanded buffers' %d elements", c, len(filled))
		}
		lvlCrd[last] = c
		v := values[c*uint64(w) : (c+1)*uint64(w)]
		if err := s.LexInsert(lvlCrd, v); err != nil {
			return err
		}
		clear(v)
		filled[c] = 0
	}
	return nil
}

// EndLexInsert lays out the inserted entries: positions, coordinates and values, the tensor's
// previous (empty) buffers freed.
func (s *SparseStorage) EndLexInsert() error {
	if s.allDense {
		return nil
	}
	if s.laidOut {
		return fmt.Errorf("endLexInsert twice, which the runtime does not support (the sparsifier loads a tensor once)")
	}
	b := layout{s: s, pos: make([][]uint64, s.LvlRank()), crd: make([][]uint64, s.LvlRank())}
	for l, t := range s.LvlTypes {
		if t.hasPositions() {
			b.pos[l] = []uint64{0}
		}
	}
	if err := b.level(0, 0, len(s.pendingVal)/s.Val.Size()); err != nil {
		return err
	}
	s.pendingCrd, s.pendingVal = nil, nil
	return s.replace(b.pos, b.crd, b.val)
}

// layout builds the buffers of a tensor from its entries in insertion order.
type layout struct {
	s        *SparseStorage
	pos, crd [][]uint64
	val      []byte
}

func (b *layout) coord(e, l int) uint64 { return b.s.pendingCrd[e*b.s.LvlRank()+l] }

// level lays out entries [lo, hi) at level l and below: they share their coordinates above l and
// make up one parent entry of level l-1.
func (b *layout) level(l, lo, hi int) error {
	s := b.s
	if l == s.LvlRank() {
		w := s.Val.Size()
		b.val = append(b.val, s.pendingVal[lo*w:(lo+1)*w]...)
		return nil
	}
	t := s.LvlTypes[l]
	next := uint64(0) // at a dense level: the first coordinate not yet laid out
	for lo < hi {
		c, end := b.coord(lo, l), lo+1
		if t.Unique() {
			for end < hi && b.coord(end, l) == c {
				end++
			}
		}
		if t.Format() == LevelDense {
			if c < next {
				return fmt.Errorf("entries out of order: coordinate %d at dense level %d after %d", c, l, next-1)
			}
			b.empty(l+1, c-next)
			next = c + 1
		} else {
			b.crd[l] = append(b.crd[l], c)
		}
		if err := b.level(l+1, lo, end); err != nil {
			return err
		}
		lo = end
	}
	if t.Format() == LevelDense {
		b.empty(l+1, s.LvlSizes[l]-next)
	} else {
		b.close(l, 1)
	}
	return nil
}

// close ends n parent entries' segments at sparse level l.
func (b *layout) close(l int, n uint64) {
	switch b.s.LvlTypes[l].Format() {
	case LevelCompressed:
		for range n {
			b.pos[l] = append(b.pos[l], uint64(len(b.crd[l])))
		}
	case LevelLooseCompressed:
		for range 2 * n {
			b.pos[l] = append(b.pos[l], uint64(len(b.crd[l])))
		}
	}
}

// empty lays out n entries without stored entries below them, at level l and below: zero values
// under dense levels, empty segments at compressed ones.
func (b *layout) empty(l int, n uint64) {
	s := b.s
	for n > 0 {
		if l == s.LvlRank() {
			b.val = append(b.val, make([]byte, n*uint64(s.Val.Size()))...)
			return
		}
		if s.LvlTypes[l].Format() != LevelDense {
			b.close(l, n)
			return
		}
		n *= s.LvlSizes[l]
		l++
	}
}

// replace frees the tensor's buffers and sets them to copies of pos, crd and val, checking that
// every position and coordinate fits its type.
func (s *SparseStorage) replace(pos, crd [][]uint64, val []byte) error {
	fill := func(what string, l int, xs []uint64, o Overhead) ([]byte, error) {
		w := o.Size()
		buf := s.mem.Alloc(len(xs) * w)
		for i, x := range xs {
			if w < 8 && x>>(8*w) != 0 {
				s.mem.Free(buf)
				return nil, fmt.Errorf("level %d: %s %d does not fit in %s", l, what, x, o)
			}
			put(buf, w, i, x)
		}
		return buf, nil
	}
	newPos, newCrd := make([][]byte, s.LvlRank()), make([][]byte, s.LvlRank())
	for l, t := range s.LvlTypes {
		var err error
		if t.hasPositions() {
			if newPos[l], err = fill("position", l, pos[l], s.Pos); err != nil {
				return err
			}
		}
		if t.hasCoordinates() {
			if newCrd[l], err = fill("coordinate", l, crd[l], s.Crd); err != nil {
				return err
			}
		}
	}
	v := s.mem.Alloc(len(val))
	copy(v, val)
	s.freeBuffers()
	s.positions, s.coordinates, s.values, s.laidOut = newPos, newCrd, v, true
	return nil
}

// NewSparseStorageFromBuffers makes a tensor from the program's level buffers (ActionPack, for
// sparse_tensor.assemble), copying them: buf(i, n) returns the first n bytes of buffer i. The
// buffers are, level by level, positions then coordinates of each compressed or loose_compressed
// level, then the values; a COO region (a nonunique compressed or loose_compressed level and the
// singleton levels after it) has its positions and one buffer of the region's coordinates
// interleaved. The positions buffer of a loose_compressed level has 2p elements here.
func NewSparseStorageFromBuffers(mem Memory, dimSizes, lvlSizes []uint64, lvlTypes []LevelType, dim2lvl, lvl2dim []uint64, pos, crd Overhead, val Primary, buf func(i, n int) []byte) (*SparseStorage, error) {
	s, err := NewSparseStorage(mem, dimSizes, lvlSizes, lvlTypes, dim2lvl, lvl2dim, pos, crd, val)
	if err != nil {
		return nil, err
	}
	pw, cw := pos.Size(), crd.Size()
	posOut, crdOut := make([][]uint64, s.LvlRank()), make([][]uint64, s.LvlRank())
	read := func(b []byte, w, n int) []uint64 {
		xs := make([]uint64, n)
		for i := range xs {
			xs[i] = get(b, w, i)
		}
		return xs
	}
	parent, next := uint64(1), 0
	for l := 0; l < s.LvlRank(); l++ {
		t := s.LvlTypes[l]
		switch t.Format() {
		case LevelDense:
			parent *= s.LvlSizes[l]
			continue
		case LevelCompressed, LevelLooseCompressed:
		default:
			s.Free()
			return nil, fmt.Errorf("level %d is %s, which assembling from buffers supports only in a COO region after a nonunique compressed level", l, t)
		}
		n := int(parent) + 1
		if t.Format() == LevelLooseCompressed {
			n = 2 * int(parent)
		}
		posOut[l] = read(buf(next, n*pw), pw, n)
		nc := posOut[l][n-1]
		coo := s.LvlRank() - l // the levels whose coordinates buffer next+1 holds
		if t.Unique() {
			coo = 1
		}
		aos := read(buf(next+1, int(nc)*coo*cw), cw, int(nc)*coo)
		for j := range coo {
			for i := range int(nc) {
				crdOut[l+j] = append(crdOut[l+j], aos[i*coo+j])
			}
		}
		next += 2
		parent = nc
		l += coo - 1
	}
	vw := val.Size()
	vals := buf(next, int(parent)*vw)
	if err := s.replace(posOut, crdOut, vals); err != nil {
		s.Free()
		return nil, err
	}
	return s, nil
}

// SortCOOInPlace sorts a COO tensor's entries (every level with a coordinate per value: a
// compressed level and singleton levels) in lexicographic order of their coordinates, in place.
func (s *SparseStorage) SortCOOInPlace() error {
	n, w, vw := s.NumValues(), s.Crd.Size(), s.Val.Size()
	for l, t := range s.LvlTypes {
		if !t.hasCoordinates() || len(s.coordinates[l]) != n*w || (l > 0 && t.Format() != LevelSingleton && t.Format() != LevelNOutOfM) {
			return fmt.Errorf("sorting in place needs a COO tensor (a compressed level, singleton levels after it), not levels %v", s.LvlTypes)
		}
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	k := s.LvlRank()
	crd := make([]uint64, n*k)
	for i := range n {
		for l := range k {
			crd[i*k+l] = get(s.coordinates[l], w, i)
		}
	}
	slices.SortStableFunc(perm, func(a, b int) int { return slices.Compare(crd[a*k:a*k+k], crd[b*k:b*k+k]) })
	vals := slices.Clone(s.values)
	for i, p := range perm {
		for l := range k {
			put(s.coordinates[l], w, i, crd[p*k+l])
		}
		copy(s.values[i*vw:(i+1)*vw], vals[p*vw:(p+1)*vw])
	}
	return nil
}

func (s *SparseStorage) freeBuffers() {
	for _, bs := range [][][]byte{s.positions, s.coordinates} {
		for _, b := range bs {
			if b != nil {
				s.mem.Free(b)
			}
		}
	}
	if s.values != nil {
		s.mem.Free(s.values)
	}
	s.positions, s.coordinates, s.values = make([][]byte, s.LvlRank()), make([][]byte, s.LvlRank()), nil
}

// Free frees the tensor's buffers (delSparseTensor).
func (s *SparseStorage) Free() {
	s.freeBuffers()
	for _, b := range s.aos {
		s.mem.Free(b)
	}
	s.aos = nil
}
