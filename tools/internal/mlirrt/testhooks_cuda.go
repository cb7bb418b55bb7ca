//go:build cuda

package mlirrt

/*
#include <stdio.h>
#include <stdlib.h>
#include "mlirrt_cuda.h"

// A coroutine's stand-in for the async runtime's tests: resuming it counts, in the int64_t that
// its handle points to.
static void mlirrt_test_resume(void *handle) { __atomic_fetch_add((int64_t *)handle, 1, __ATOMIC_SEQ_CST); }
static void *mlirrt_test_resume_fn(void) { return (void *)mlirrt_test_resume; }
*/
import "C"

import (
	"sync/atomic"
	"unsafe"
)

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

// testCoroutine is a stand-in coroutine for the async runtime's tests: its handle (C memory) and
// resume function, and how many times it has been resumed.
type testCoroutine struct{ handle, resume unsafe.Pointer }

func newTestCoroutine() testCoroutine {
	return testCoroutine{C.calloc(1, 8), C.mlirrt_test_resume_fn()}
}

func (c testCoroutine) resumed() int64 { return atomic.LoadInt64((*int64)(c.handle)) }

func (c testCoroutine) free() { C.free(c.handle) }

// int64sAt is the array of int64_t at p (the box sizes of mgpuTensorMapEncodeTiledMemref).
func int64sAt(p unsafe.Pointer) *C.int64_t { return (*C.int64_t)(p) }
