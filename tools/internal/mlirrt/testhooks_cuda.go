//go:build cuda

package mlirrt

/*
#include <stdio.h>
#include <stdlib.h>
#include "mlirrt_cuda.h"
*/
import "C"

import "unsafe"

// The cgo that exports_cuda_test.go needs and, as a test, cannot have itself.

// haveGPU reports whether the driver initialises and sees a GPU.
func haveGPU() bool {
	var n C.int
	return C.cuInit(0) == C.CUDA_SUCCESS && C.cuDeviceGetCount(&n) == C.CUDA_SUCCESS && n > 0
}

// cBytes copies b into memory from C's malloc.
func cBytes(b []byte) unsafe.Pointer { return C.CBytes(b) }

// cString copies s into a NUL-terminated C string.
func cString(s string) *C.char { return C.CString(s) }

func moduleLoad(image unsafe.Pointer, size int) C.CUmodule {
	return C.mgpuModuleLoad(image, C.size_t(size))
}

func moduleLoadJIT(ptx unsafe.Pointer, optLevel int) C.CUmodule {
	return C.mgpuModuleLoadJIT(ptx, C.int(optLevel))
}

func moduleUnload(m C.CUmodule) { C.mgpuModuleUnload(m) }

func flushStdout() { C.fflush(C.stdout) }

// unrankedAt is the UnrankedMemRefType at p.
func unrankedAt(p unsafe.Pointer) *C.mlirrt_unranked { return (*C.mlirrt_unranked)(p) }

// int64sAt is the array of int64_t at p (the box sizes of mgpuTensorMapEncodeTiledMemref).
func int64sAt(p unsafe.Pointer) *C.int64_t { return (*C.int64_t)(p) }
