//go:build cuda

package mlirrt

/*
#include <stdint.h>
#include <stdlib.h>
#include "sparsert_cuda.h"
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"unsafe"
)

// This file exports MLIR's sparse tensor runtime library (upstream SparseTensorRuntime.h, LLVM 21)
// over the storage model of sparsert.go: newSparseTensor, sparseLvlSize, sparseDimSize,
// endLexInsert and delSparseTensor here, and the entry points of each value type and overhead width
// (sparseValuesF64, lexInsertF32, expInsertI8, sparsePositions32, sparseCoordinates0,
// sparseCoordinatesBuffer16, ...) in sparsert_cuda.c, which calls the functions below. The tensor
// the program holds is a token in C memory holding a cgo.Handle of its *SparseStorage: the
// runtime's only state, each tensor's, from newSparseTensor to delSparseTensor. The buffers that
// the program reads and writes through memref descriptors are C memory (cMemory). The runtime does
// not read files (sparse_tensor.new, the action kFromReader, and the reader and writer entry
// points): such a program fails to link, or stops with a message. A misuse that upstream asserts
// on (a value type or width that is not the tensor's, an unsupported level type or action, entries
// out of order) stops the program with a message naming the entry point, and exit status 1.

// cMemory allocates a SparseStorage's buffers with calloc: at least one byte, so that an empty
// buffer has an address to free.
type cMemory struct{}

func (cMemory) Alloc(n int) []byte {
	p := C.calloc(C.size_t(max(n, 1)), 1)
	if p == nil {
		die("sparse tensor runtime: out of memory allocating %d bytes", n)
	}
	return unsafe.Slice((*byte)(p), max(n, 1))[:n]
}

func (cMemory) Free(b []byte) { C.free(unsafe.Pointer(unsafe.SliceData(b))) }

// storage returns the tensor behind a token that newSparseTensor returned.
func storage(tensor unsafe.Pointer, name string) *SparseStorage {
	if tensor == nil {
		die("%s: the tensor is null", name)
	}
	return cgo.Handle(*(*C.uintptr_t)(tensor)).Value().(*SparseStorage)
}

// indexes copies a 1-d memref of index (or i64) elements.
func indexes(m *C.mlirrt_memref1) []uint64 {
	xs := make([]uint64, m.size)
	for i := range xs {
		xs[i] = *(*uint64)(unsafe.Add(m.data, (int64(m.offset)+int64(i)*int64(m.stride))*8))
	}
	return xs
}

// contiguous is a 1-d memref of w-byte elements as bytes; it must have stride 1, as upstream's.
func contiguous(m *C.mlirrt_memref1, w int, name, what string) []byte {
	if m.stride != 1 && m.size > 1 {
		die("%s: the %s buffer has stride %d; the runtime needs stride 1", name, what, int64(m.stride))
	}
	if m.size == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Add(m.data, int64(m.offset)*int64(w))), int(m.size)*w)
}

// describe sets a 1-d memref descriptor to the buffer b of w-byte elements.
func describe(out *C.mlirrt_memref1, b []byte, w int) {
	p := unsafe.Pointer(unsafe.SliceData(b))
	out.base, out.data, out.offset, out.size, out.stride = p, p, 0, C.int64_t(len(b)/w), 1
}

//export _mlir_ciface_newSparseTensor
func _mlir_ciface_newSparseTensor(dimSizes, lvlSizes, lvlTypes, dim2lvl, lvl2dim *C.mlirrt_memref1, posTp, crdTp, valTp, action C.uint32_t, ptr unsafe.Pointer) unsafe.Pointer {
	const name = "newSparseTensor"
	types := indexes(lvlTypes)
	lts := make([]LevelType, len(types))
	for i, t := range types {
		lts[i] = LevelType(t)
	}
	args := func() string {
		return fmt.Sprintf("levels %v of sizes %v, %s positions, %s coordinates, %s values", lts, indexes(lvlSizes), Overhead(posTp), Overhead(crdTp), Primary(valTp))
	}
	var s *SparseStorage
	var err error
	switch a := SparseAction(action); a {
	case ActionEmpty:
		s, err = NewSparseStorage(cMemory{}, indexes(dimSizes), indexes(lvlSizes), lts, indexes(dim2lvl), indexes(lvl2dim), Overhead(posTp), Overhead(crdTp), Primary(valTp))
	case ActionPack:
		// At most two buffers a level, then the values.
		bufs := unsafe.Slice((*unsafe.Pointer)(ptr), 2*len(lts)+1)
		s, err = NewSparseStorageFromBuffers(cMemory{}, indexes(dimSizes), indexes(lvlSizes), lts, indexes(dim2lvl), indexes(lvl2dim), Overhead(posTp), Overhead(crdTp), Primary(valTp),
			func(i, n int) []byte {
				if n == 0 {
					return nil
				}
				return unsafe.Slice((*byte)(bufs[i]), n)
			})
	case ActionSortCOOInPlace:
		if err := storage(ptr, name).SortCOOInPlace(); err != nil {
			die("%s: %v", name, err)
		}
		return ptr
	default:
		die("%s: action %d (%s) is not supported; the runtime supports actions 0 (a new empty tensor), 2 (a tensor assembled from buffers, sparse_tensor.assemble) and 3 (a COO tensor sorted in place); it does not read files (sparse_tensor.new)", name, uint32(a), a.describe())
	}
	if err != nil {
		die("%s: %s: %v", name, args(), err)
	}
	token := (*C.uintptr_t)(C.malloc(C.size_t(unsafe.Sizeof(C.uintptr_t(0)))))
	*token = C.uintptr_t(cgo.NewHandle(s))
	return unsafe.Pointer(token)
}

// describe names an action for messages.
func (a SparseAction) describe() string {
	switch a {
	case ActionFromReader:
		return "a tensor read from a file"
	case ActionPack:
		return "a tensor assembled from buffers"
	case ActionSortCOOInPlace:
		return "a COO tensor sorted in place"
	case ActionEmpty:
		return "a new empty tensor"
	}
	return "unknown"
}

//export delSparseTensor
func delSparseTensor(tensor unsafe.Pointer) {
	s := storage(tensor, "delSparseTensor")
	s.Free()
	h := (*C.uintptr_t)(tensor)
	cgo.Handle(*h).Delete()
	C.free(tensor)
}

//export sparseLvlSize
func sparseLvlSize(tensor unsafe.Pointer, l C.uint64_t) C.uint64_t {
	n, err := storage(tensor, "sparseLvlSize").LvlSize(uint64(l))
	if err != nil {
		die("sparseLvlSize: %v", err)
	}
	return C.uint64_t(n)
}

//export sparseDimSize
func sparseDimSize(tensor unsafe.Pointer, d C.uint64_t) C.uint64_t {
	n, err := storage(tensor, "sparseDimSize").DimSize(uint64(d))
	if err != nil {
		die("sparseDimSize: %v", err)
	}
	return C.uint64_t(n)
}

//export endLexInsert
func endLexInsert(tensor unsafe.Pointer) {
	if err := storage(tensor, "endLexInsert").EndLexInsert(); err != nil {
		die("endLexInsert: %v", err)
	}
}

// checkValues stops the program when the tensor's values are not of the entry point's type.
func checkValues(s *SparseStorage, valTp C.int, name string) {
	if s.Val != Primary(valTp) {
		die("%s: the tensor holds %s values, not %s", name, s.Val, Primary(valTp))
	}
}

//export mlirrtSparseValues
func mlirrtSparseValues(out *C.mlirrt_memref1, tensor unsafe.Pointer, valTp C.int, cname *C.char) {
	name := C.GoString(cname)
	s := storage(tensor, name)
	checkValues(s, valTp, name)
	describe(out, s.Values(), s.Val.Size())
}

// mlirrtSparseOverhead serves sparsePositions (which 0), sparseCoordinates (1) and
// sparseCoordinatesBuffer (2) of a width in bits (0 for index).
//
//export mlirrtSparseOverhead
func mlirrtSparseOverhead(out *C.mlirrt_memref1, tensor unsafe.Pointer, lvl C.uint64_t, bits, which C.int, cname *C.char) {
	name := C.GoString(cname)
	s := storage(tensor, name)
	o, what := s.Crd, "coordinates"
	if which == 0 {
		o, what = s.Pos, "positions"
	}
	if want := int(bits); o.Size()*8 != want && (want != 0 || o.Size() != 8) {
		die("%s: the tensor's %s are %s", name, what, o)
	}
	var b []byte
	var err error
	switch which {
	case 0:
		b, err = s.Positions(uint64(lvl))
	case 1:
		b, err = s.Coordinates(uint64(lvl))
	default:
		b, err = s.CoordinatesAoS(uint64(lvl))
	}
	if err != nil {
		die("%s: %v", name, err)
	}
	if b == nil {
		b = cMemory{}.Alloc(0)[:0] // a level without the buffer: empty (kept until exit, rare)
	}
	describe(out, b, o.Size())
}

//export mlirrtLexInsert
func mlirrtLexInsert(tensor unsafe.Pointer, lvlCoords *C.mlirrt_memref1, value *C.mlirrt_memref0, valTp C.int, cname *C.char) {
	name := C.GoString(cname)
	s := storage(tensor, name)
	checkValues(s, valTp, name)
	w := s.Val.Size()
	v := unsafe.Slice((*byte)(unsafe.Add(value.data, int64(value.offset)*int64(w))), w)
	if err := s.LexInsert(indexes(lvlCoords), v); err != nil {
		die("%s: %v", name, err)
	}
}

//export mlirrtExpInsert
func mlirrtExpInsert(tensor unsafe.Pointer, lvlCoords, values, filled, added *C.mlirrt_memref1, count C.uint64_t, valTp C.int, cname *C.char) {
	name := C.GoString(cname)
	s := storage(tensor, name)
	checkValues(s, valTp, name)
	if count == 0 {
		return
	}
	crd := indexes(lvlCoords)
	a := contiguous(added, 8, name, "added coordinates")
	if uint64(len(a)) < 8*uint64(count) {
		die("%s: %d added coordinates in a buffer of %d", name, uint64(count), len(a)/8)
	}
	add := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(a))), count)
	if err := s.ExpInsert(crd, contiguous(values, s.Val.Size(), name, "values"), contiguous(filled, 1, name, "filled"), add); err != nil {
		die("%s: %v", name, err)
	}
	// The last coordinate inserted, as upstream leaves it.
	if n := len(crd); n > 0 && lvlCoords.size > 0 {
		*(*uint64)(unsafe.Add(lvlCoords.data, (int64(lvlCoords.offset)+int64(n-1)*int64(lvlCoords.stride))*8)) = crd[n-1]
	}
}
