//go:build cuda

package mlirrt

/*
#include <stdlib.h>
#include "mlirrt_cuda.h"
*/
import "C"

import "unsafe"

var cTensorMapEncodeTiledMemref = C.CString("mgpuTensorMapEncodeTiledMemref")

// mgpuTensorMapEncodeTiledMemref makes the TMA descriptor of nvgpu.tma.create.descriptor (tma.go
// has the lowering's signature): the memref whose ranked descriptor is at desc, rank dimensions, a
// box of boxDims (outermost first), cuda.h's codes for the rest. It encodes the CUtensorMap with
// cuTensorMapEncodeTiled and returns a copy in device memory, as upstream's does (128 bytes from
// cuMemAlloc, which is 256-byte aligned; never freed, as upstream's are not: one per descriptor
// made, for the program's life).
//
//export mgpuTensorMapEncodeTiledMemref
func mgpuTensorMapEncodeTiledMemref(rank C.int64_t, desc unsafe.Pointer, dataType, interleave, swizzle,
	l2Promotion, oobFill C.int64_t, boxDims *C.int64_t) unsafe.Pointer {
	const call = "mgpuTensorMapEncodeTiledMemref"
	if rank < 1 || rank > maxTensorRank || boxDims == nil {
		die("%s: a memref of rank %d (box at %p): a TMA descriptor has 1 to %d dimensions", call, rank, boxDims, maxTensorRank)
	}
	d, sizes, strides := readDescriptor(call, desc, int64(rank))
	box := unsafe.Slice((*int64)(unsafe.Pointer(boxDims)), rank)
	modes := [4]int64{int64(interleave), int64(swizzle), int64(l2Promotion), int64(oobFill)}
	m, err := NewTiledMap(TensorDataType(dataType), modes, uintptr(d.aligned), d.offset, sizes, strides, box)
	if err != nil {
		die("%s: %v", call, err)
	}

	// The driver's arrays (Go memory without pointers, which C may read during the call) and the map,
	// in C memory: 64-byte aligned, as the driver requires.
	var dims, globalStrides [maxTensorRank]C.cuuint64_t
	var boxDim, elementStrides [maxTensorRank]C.cuuint32_t
	for i := range m.GlobalDim {
		dims[i], boxDim[i], elementStrides[i] = C.cuuint64_t(m.GlobalDim[i]), C.cuuint32_t(m.BoxDim[i]), C.cuuint32_t(m.ElementStrides[i])
	}
	for i, s := range m.GlobalStrides {
		globalStrides[i] = C.cuuint64_t(s)
	}
	tensorMap := (*C.CUtensorMap)(C.aligned_alloc(64, C.sizeof_CUtensorMap))
	defer C.free(unsafe.Pointer(tensorMap))
	address := unsafe.Add(d.aligned, m.Address-uintptr(d.aligned)) // m.Address as a pointer

	C.mlirrt_enter(cTensorMapEncodeTiledMemref)
	defer C.mlirrt_leave(cTensorMapEncodeTiledMemref)
	r := C.cuTensorMapEncodeTiled(tensorMap, C.CUtensorMapDataType(m.DataType), C.cuuint32_t(m.Rank()),
		address, &dims[0], &globalStrides[0], &boxDim[0], &elementStrides[0],
		C.CUtensorMapInterleave(interleave), C.CUtensorMapSwizzle(swizzle), C.CUtensorMapL2promotion(l2Promotion),
		C.CUtensorMapFloatOOBfill(oobFill))
	if r != C.CUDA_SUCCESS {
		fail(r, "%s: cuTensorMapEncodeTiled(%s) (%s)", call, m, m.Explain())
		return nil
	}
	p := C.mlirrt_mem_alloc(C.sizeof_CUtensorMap, 0, &r)
	if r != C.CUDA_SUCCESS {
		fail(r, "%s: cuMemAlloc(%d bytes) for the descriptor", call, C.sizeof_CUtensorMap)
		return nil
	}
	if r := C.cuMemcpyHtoD(C.CUdeviceptr(uintptr(p)), unsafe.Pointer(tensorMap), C.sizeof_CUtensorMap); r != C.CUDA_SUCCESS {
		fail(r, "%s: cuMemcpyHtoD(%p, the descriptor, %d bytes)", call, p, C.sizeof_CUtensorMap)
		return nil
	}
	return p
}
