//go:build cuda

package mlirrt

/*
#cgo LDFLAGS: -lcuda
#include <stdlib.h>
#include <string.h>
#include "mlirrt_cuda.h"
*/
import "C"

import (
	"bytes"
	"fmt"
	"sync"
	"unsafe"
)

// This file exports, with upstream's C names, the CUDA runtime wrappers that MLIR's gpu-to-llvm
// lowering calls (mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp; the argument types are the
// lowering's, mlir/lib/Conversion/GPUCommon/GPUToLLVMConversion.cpp, as mlir-opt-21 emits them)
// except the module load and unload (wrappers_cuda.c), and MLIR's printing helpers. A parameter
// that the lowering passes as i8 or i16 is declared here as 32 bits wide and masked: LLVM passes
// narrow integers without extending them, and the x86-64 and AArch64 ABIs leave the upper bits of
// the register unspecified, while clang, compiling a callee that declares bool or unsigned short,
// assumes them extended.

// The wrappers' names as C strings, for the context scope's error messages.
var (
	cModuleGetFunction       = C.CString("mgpuModuleGetFunction")
	cLaunchKernel            = C.CString("mgpuLaunchKernel")
	cLaunchClusterKernel     = C.CString("mgpuLaunchClusterKernel")
	cStreamCreate            = C.CString("mgpuStreamCreate")
	cStreamDestroy           = C.CString("mgpuStreamDestroy")
	cStreamSynchronize       = C.CString("mgpuStreamSynchronize")
	cStreamWaitEvent         = C.CString("mgpuStreamWaitEvent")
	cEventCreate             = C.CString("mgpuEventCreate")
	cEventDestroy            = C.CString("mgpuEventDestroy")
	cEventSynchronize        = C.CString("mgpuEventSynchronize")
	cEventRecord             = C.CString("mgpuEventRecord")
	cMemAlloc                = C.CString("mgpuMemAlloc")
	cMemFree                 = C.CString("mgpuMemFree")
	cMemcpy                  = C.CString("mgpuMemcpy")
	cMemset32                = C.CString("mgpuMemset32")
	cMemset16                = C.CString("mgpuMemset16")
	cMemHostRegister         = C.CString("mgpuMemHostRegister")
	cMemHostRegisterMemRef   = C.CString("mgpuMemHostRegisterMemRef")
	cMemHostUnregister       = C.CString("mgpuMemHostUnregister")
	cMemHostUnregisterMemRef = C.CString("mgpuMemHostUnregisterMemRef")
	cNullModule              = C.CString("mgpuModuleGetFunction: the module is null: it was never loaded")
)

// A module that a gpu.binary's constructor failed to load, before the Go runtime started, is
// explained as soon as the runtime starts.
func init() { mlirrtExplainLoadFailure() }

// fail reports a failed driver call and exits (mlirrt_die); after a failed device-side assert it
// returns, and the wrapper returns its zero values.
func fail(r C.CUresult, format string, args ...any) {
	what := C.CString(fmt.Sprintf(format, args...))
	C.mlirrt_die(what, r)
}

// die reports message and exits.
func die(format string, args ...any) {
	C.mlirrt_die_message(C.CString(fmt.Sprintf(format, args...)))
}

//export mlirrtExplainLoadFailure
func mlirrtExplainLoadFailure() {
	var f C.mlirrt_load_failure
	if C.mlirrt_take_load_failure(&f) == 0 {
		return
	}
	lf := &LoadFailure{
		Call:   C.GoString(f.call),
		Driver: C.GoString(f.driver),
		Result: errorName(f.result),
		Detail: errorString(f.result),
		Log:    C.GoString(&f.log[0]),
		Image:  C.GoBytes(f.image, C.int(f.size)),
		GPU:    describeGPU(int(f.device)),
	}
	die("%s", lf.Error())
}

func errorName(r C.CUresult) string {
	var p *C.char
	if C.cuGetErrorName(r, &p) != C.CUDA_SUCCESS || p == nil {
		return fmt.Sprintf("CUresult %d", int(r))
	}
	return C.GoString(p)
}

func errorString(r C.CUresult) string {
	var p *C.char
	if C.cuGetErrorString(r, &p) != C.CUDA_SUCCESS || p == nil {
		return ""
	}
	return C.GoString(p)
}

// describeGPU asks the driver about device ordinal; what it cannot say stays zero.
func describeGPU(ordinal int) GPU {
	g := GPU{Ordinal: ordinal, Name: "an unknown GPU"}
	var dev C.CUdevice
	if C.cuDeviceGet(&dev, C.int(ordinal)) != C.CUDA_SUCCESS {
		return g
	}
	var name [256]C.char
	if C.cuDeviceGetName(&name[0], C.int(len(name)), dev) == C.CUDA_SUCCESS {
		g.Name = C.GoString(&name[0])
	}
	var major, minor, driver C.int
	C.cuDeviceGetAttribute(&major, C.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
	C.cuDeviceGetAttribute(&minor, C.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
	C.cuDriverGetVersion(&driver)
	g.Major, g.Minor, g.Driver = int(major), int(minor), int(driver)
	return g
}

// kernelName is the function's name for messages (cuFuncGetName, CUDA 12.3).
func kernelName(f C.CUfunction) string {
	var p *C.char
	if C.cuFuncGetName(&p, f) != C.CUDA_SUCCESS || p == nil {
		return "a kernel"
	}
	return C.GoString(p)
}

//export mgpuModuleGetFunction
func mgpuModuleGetFunction(module C.CUmodule, name *C.char) C.CUfunction {
	if module == nil {
		mlirrtExplainLoadFailure()
		C.mlirrt_die_message(cNullModule)
	}
	C.mlirrt_enter(cModuleGetFunction)
	defer C.mlirrt_leave(cModuleGetFunction)
	var f C.CUfunction
	if r := C.cuModuleGetFunction(&f, module, name); r != C.CUDA_SUCCESS {
		fail(r, "mgpuModuleGetFunction: cuModuleGetFunction(%q)", C.GoString(name))
	}
	return f
}

// dims3 is a launch's grid, block or cluster shape for messages.
func dims3(x, y, z C.intptr_t) string { return fmt.Sprintf("%dx%dx%d", x, y, z) }

// setSharedMemory lets f use smem bytes of dynamic shared memory, as upstream does before a launch.
func setSharedMemory(call string, f C.CUfunction, smem C.int32_t) {
	if smem <= 0 {
		return
	}
	var dev C.CUdevice
	var most C.int
	if r := C.cuDeviceGet(&dev, C.int(C.mlirrt_default_device())); r != C.CUDA_SUCCESS {
		fail(r, "%s: cuDeviceGet", call)
	}
	if r := C.cuDeviceGetAttribute(&most, C.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev); r != C.CUDA_SUCCESS {
		fail(r, "%s: cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)", call)
	}
	if C.int(smem) > most {
		die("%s: %s asks for %d bytes of dynamic shared memory; device %d allows at most %d per block",
			call, kernelName(f), smem, C.mlirrt_default_device(), most)
	}
	if r := C.cuFuncSetAttribute(f, C.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, C.int(smem)); r != C.CUDA_SUCCESS {
		fail(r, "%s: cuFuncSetAttribute(%s, MAX_DYNAMIC_SHARED_SIZE_BYTES, %d)", call, kernelName(f), smem)
	}
}

// mgpuLaunchKernel launches function on stream. params points to paramsCount pointers, one to each
// argument (cuLaunchKernel's kernelParams); extra is cuLaunchKernel's, null from the lowering. The
// sizes are intptr_t, MLIR's index, as upstream's.
//
//export mgpuLaunchKernel
func mgpuLaunchKernel(function C.CUfunction, gridX, gridY, gridZ, blockX, blockY, blockZ C.intptr_t,
	smem C.int32_t, stream C.CUstream, params, extra *unsafe.Pointer, paramsCount C.size_t) {
	C.mlirrt_enter(cLaunchKernel)
	defer C.mlirrt_leave(cLaunchKernel)
	setSharedMemory("mgpuLaunchKernel", function, smem)
	r := C.cuLaunchKernel(function, C.uint(gridX), C.uint(gridY), C.uint(gridZ), C.uint(blockX), C.uint(blockY),
		C.uint(blockZ), C.uint(smem), stream, params, extra)
	if r != C.CUDA_SUCCESS {
		fail(r, "mgpuLaunchKernel: cuLaunchKernel(%s, grid %s, block %s, %d bytes of shared memory, %d arguments)",
			kernelName(function), dims3(gridX, gridY, gridZ), dims3(blockX, blockY, blockZ), smem, paramsCount)
	}
}

// mgpuLaunchClusterKernel launches function in thread block clusters (cuLaunchKernelEx, CUDA 12).
// Upstream's C function takes a size_t paramsCount last; LLVM 21's lowering does not pass it.
//
//export mgpuLaunchClusterKernel
func mgpuLaunchClusterKernel(function C.CUfunction, clusterX, clusterY, clusterZ, gridX, gridY, gridZ,
	blockX, blockY, blockZ C.intptr_t, smem C.int32_t, stream C.CUstream, params, extra *unsafe.Pointer) {
	C.mlirrt_enter(cLaunchClusterKernel)
	defer C.mlirrt_leave(cLaunchClusterKernel)
	setSharedMemory("mgpuLaunchClusterKernel", function, smem)
	r := C.mlirrt_launch_cluster(function, C.uint(clusterX), C.uint(clusterY), C.uint(clusterZ), C.uint(gridX),
		C.uint(gridY), C.uint(gridZ), C.uint(blockX), C.uint(blockY), C.uint(blockZ), C.uint(smem), stream, params, extra)
	if r != C.CUDA_SUCCESS {
		fail(r, "mgpuLaunchClusterKernel: cuLaunchKernelEx(%s, cluster %s, grid %s, block %s, %d bytes of shared memory)",
			kernelName(function), dims3(clusterX, clusterY, clusterZ), dims3(gridX, gridY, gridZ), dims3(blockX, blockY, blockZ), smem)
	}
}

// liveStreams are the streams mgpuStreamCreate made and mgpuStreamDestroy has not destroyed. LLVM
// 21's gpu-to-llvm hands the runtime a stream where upstream's contract has an event: an
// async.execute region that yields its GPU work's token yields the region's stream (the pattern
// that records an event on it and destroys the stream at the yield does not apply), and the
// region that depends on it calls mgpuStreamWaitEvent and mgpuEventDestroy with that stream.
// The wrappers tell the two apart by this set and do what the event stood for: wait for the
// stream's work so far, and destroy the stream where the event would have been destroyed.
var liveStreams sync.Map // C.CUstream -> struct{}

func isStream(h unsafe.Pointer) bool {
	_, ok := liveStreams.Load(uintptr(h))
	return ok
}

//export mgpuStreamCreate
func mgpuStreamCreate() C.CUstream {
	C.mlirrt_enter(cStreamCreate)
	defer C.mlirrt_leave(cStreamCreate)
	var s C.CUstream
	if r := C.cuStreamCreate(&s, C.CU_STREAM_NON_BLOCKING); r != C.CUDA_SUCCESS {
		fail(r, "mgpuStreamCreate: cuStreamCreate")
	}
	liveStreams.Store(uintptr(unsafe.Pointer(s)), struct{}{})
	return s
}

//export mgpuStreamDestroy
func mgpuStreamDestroy(stream C.CUstream) {
	C.mlirrt_enter(cStreamDestroy)
	defer C.mlirrt_leave(cStreamDestroy)
	liveStreams.Delete(uintptr(unsafe.Pointer(stream)))
	if r := C.cuStreamDestroy(stream); r != C.CUDA_SUCCESS {
		fail(r, "mgpuStreamDestroy: cuStreamDestroy")
	}
}

//export mgpuStreamSynchronize
func mgpuStreamSynchronize(stream C.CUstream) {
	C.mlirrt_enter(cStreamSynchronize)
	defer C.mlirrt_leave(cStreamSynchronize)
	if r := C.cuStreamSynchronize(stream); r != C.CUDA_SUCCESS {
		fail(r, "mgpuStreamSynchronize: cuStreamSynchronize (an error here is usually a kernel's, launched on "+
			"the stream earlier; CUDA_LAUNCH_BLOCKING=1 or compute-sanitizer names it)")
	}
}

//export mgpuStreamWaitEvent
func mgpuStreamWaitEvent(stream C.CUstream, event C.CUevent) {
	C.mlirrt_enter(cStreamWaitEvent)
	defer C.mlirrt_leave(cStreamWaitEvent)
	if isStream(unsafe.Pointer(event)) {
		// A stream in the event's place (see liveStreams): wait for its work so far, through an
		// event of our own.
		var e C.CUevent
		if r := C.cuEventCreate(&e, C.CU_EVENT_DISABLE_TIMING); r != C.CUDA_SUCCESS {
			fail(r, "mgpuStreamWaitEvent: cuEventCreate")
			return
		}
		defer C.cuEventDestroy(e)
		if r := C.cuEventRecord(e, C.CUstream(unsafe.Pointer(event))); r != C.CUDA_SUCCESS {
			fail(r, "mgpuStreamWaitEvent: cuEventRecord on the stream it waits for")
			return
		}
		event = e
	}
	if r := C.cuStreamWaitEvent(stream, event, 0); r != C.CUDA_SUCCESS {
		fail(r, "mgpuStreamWaitEvent: cuStreamWaitEvent")
	}
}

//export mgpuEventCreate
func mgpuEventCreate() C.CUevent {
	C.mlirrt_enter(cEventCreate)
	defer C.mlirrt_leave(cEventCreate)
	var e C.CUevent
	if r := C.cuEventCreate(&e, C.CU_EVENT_DISABLE_TIMING); r != C.CUDA_SUCCESS {
		fail(r, "mgpuEventCreate: cuEventCreate")
	}
	return e
}

//export mgpuEventDestroy
func mgpuEventDestroy(event C.CUevent) {
	C.mlirrt_enter(cEventDestroy)
	defer C.mlirrt_leave(cEventDestroy)
	if isStream(unsafe.Pointer(event)) {
		// A stream in the event's place (see liveStreams): its region is done with it. Its work
		// still runs; the driver destroys it after.
		liveStreams.Delete(uintptr(unsafe.Pointer(event)))
		if r := C.cuStreamDestroy(C.CUstream(unsafe.Pointer(event))); r != C.CUDA_SUCCESS {
			fail(r, "mgpuEventDestroy: cuStreamDestroy of the stream in the event's place")
		}
		return
	}
	if r := C.cuEventDestroy(event); r != C.CUDA_SUCCESS {
		fail(r, "mgpuEventDestroy: cuEventDestroy")
	}
}

//export mgpuEventSynchronize
func mgpuEventSynchronize(event C.CUevent) {
	C.mlirrt_enter(cEventSynchronize)
	defer C.mlirrt_leave(cEventSynchronize)
	if isStream(unsafe.Pointer(event)) {
		if r := C.cuStreamSynchronize(C.CUstream(unsafe.Pointer(event))); r != C.CUDA_SUCCESS {
			fail(r, "mgpuEventSynchronize: cuStreamSynchronize of the stream in the event's place")
		}
		return
	}
	if r := C.cuEventSynchronize(event); r != C.CUDA_SUCCESS {
		fail(r, "mgpuEventSynchronize: cuEventSynchronize")
	}
}

//export mgpuEventRecord
func mgpuEventRecord(event C.CUevent, stream C.CUstream) {
	C.mlirrt_enter(cEventRecord)
	defer C.mlirrt_leave(cEventRecord)
	if r := C.cuEventRecord(event, stream); r != C.CUDA_SUCCESS {
		fail(r, "mgpuEventRecord: cuEventRecord")
	}
}

// mgpuMemAlloc allocates device memory, or managed memory when isHostShared (gpu.alloc
// host_shared); the stream is unused, as upstream's. 0 bytes give a null pointer.
//
//export mgpuMemAlloc
func mgpuMemAlloc(sizeBytes C.uint64_t, stream C.CUstream, isHostShared C.uint32_t) unsafe.Pointer {
	C.mlirrt_enter(cMemAlloc)
	defer C.mlirrt_leave(cMemAlloc)
	shared := C.int(0)
	if isHostShared&0xff != 0 { // an i8 from the lowering
		shared = 1
	}
	var r C.CUresult
	p := C.mlirrt_mem_alloc(sizeBytes, shared, &r)
	if r != C.CUDA_SUCCESS {
		fail(r, "mgpuMemAlloc: %d bytes (host shared: %v)", sizeBytes, shared != 0)
	}
	return p
}

//export mgpuMemFree
func mgpuMemFree(ptr unsafe.Pointer, stream C.CUstream) {
	if ptr == nil { // what mgpuMemAlloc gives for 0 bytes
		return
	}
	C.mlirrt_enter(cMemFree)
	defer C.mlirrt_leave(cMemFree)
	if r := C.cuMemFree(C.CUdeviceptr(uintptr(ptr))); r != C.CUDA_SUCCESS {
		fail(r, "mgpuMemFree: cuMemFree(%p)", ptr)
	}
}

//export mgpuMemcpy
func mgpuMemcpy(dst, src unsafe.Pointer, sizeBytes C.size_t, stream C.CUstream) {
	C.mlirrt_enter(cMemcpy)
	defer C.mlirrt_leave(cMemcpy)
	if r := C.cuMemcpyAsync(C.CUdeviceptr(uintptr(dst)), C.CUdeviceptr(uintptr(src)), sizeBytes, stream); r != C.CUDA_SUCCESS {
		fail(r, "mgpuMemcpy: cuMemcpyAsync(%p, %p, %d bytes)", dst, src, sizeBytes)
	}
}

//export mgpuMemset32
func mgpuMemset32(dst unsafe.Pointer, value C.uint32_t, count C.size_t, stream C.CUstream) {
	C.mlirrt_enter(cMemset32)
	defer C.mlirrt_leave(cMemset32)
	if r := C.cuMemsetD32Async(C.CUdeviceptr(uintptr(dst)), C.uint(value), count, stream); r != C.CUDA_SUCCESS {
		fail(r, "mgpuMemset32: cuMemsetD32Async(%p, %#x, %d)", dst, value, count)
	}
}

// mgpuMemset16 fills count 16-bit words; value is an i16 from the lowering.
//
//export mgpuMemset16
func mgpuMemset16(dst unsafe.Pointer, value C.uint32_t, count C.size_t, stream C.CUstream) {
	C.mlirrt_enter(cMemset16)
	defer C.mlirrt_leave(cMemset16)
	v := C.ushort(value & 0xffff)
	if r := C.cuMemsetD16Async(C.CUdeviceptr(uintptr(dst)), v, count, stream); r != C.CUDA_SUCCESS {
		fail(r, "mgpuMemset16: cuMemsetD16Async(%p, %#x, %d)", dst, v, count)
	}
}

//export mgpuMemHostRegister
func mgpuMemHostRegister(ptr unsafe.Pointer, sizeBytes C.uint64_t) {
	C.mlirrt_enter(cMemHostRegister)
	defer C.mlirrt_leave(cMemHostRegister)
	if r := C.cuMemHostRegister(ptr, C.size_t(sizeBytes), 0); r != C.CUDA_SUCCESS {
		fail(r, "mgpuMemHostRegister: cuMemHostRegister(%p, %d bytes)", ptr, sizeBytes)
	}
}

// descriptor is the head of a ranked memref descriptor (StridedMemRefType); its sizes and strides
// follow.
type descriptor struct {
	allocated, aligned unsafe.Pointer
	offset             int64
}

// maxRank bounds the rank read from a descriptor, against garbage.
const maxRank = 1 << 10

// readDescriptor reads the ranked descriptor at p.
func readDescriptor(call string, p unsafe.Pointer, rank int64) (d *descriptor, sizes, strides []int64) {
	if p == nil || rank < 0 || rank > maxRank {
		die("%s: no memref descriptor of rank %d at %p", call, rank, p)
	}
	d = (*descriptor)(p)
	dims := unsafe.Slice((*int64)(unsafe.Add(p, unsafe.Sizeof(descriptor{}))), 2*rank)
	return d, dims[:rank:rank], dims[rank:]
}

// hostMemRef is what mgpuMemHostRegisterMemRef registers: the memref's elements from its offset,
// which must be dense.
func hostMemRef(call string, rank C.int64_t, desc unsafe.Pointer, elementSizeBytes C.int64_t) (unsafe.Pointer, uint64) {
	d, sizes, strides := readDescriptor(call, desc, int64(rank))
	n, stride := int64(1), int64(1)
	for i := len(sizes) - 1; i >= 0; i-- {
		// Upstream asserts dense strides (in builds with assertions) and registers sizes' product.
		if sizes[i] > 1 && strides[i] != stride {
			die("%s: memref sizes %v strides %v are not dense: only dense memrefs can be registered", call, sizes, strides)
		}
		stride *= sizes[i]
		n *= sizes[i]
	}
	return unsafe.Add(d.aligned, d.offset*int64(elementSizeBytes)), uint64(n * int64(elementSizeBytes))
}

// mgpuMemHostRegisterMemRef registers a dense memref (gpu.host_register): rank and the ranked
// descriptor of an unranked memref, and the element size.
//
//export mgpuMemHostRegisterMemRef
func mgpuMemHostRegisterMemRef(rank C.int64_t, desc unsafe.Pointer, elementSizeBytes C.int64_t) {
	ptr, size := hostMemRef("mgpuMemHostRegisterMemRef", rank, desc, elementSizeBytes)
	C.mlirrt_enter(cMemHostRegisterMemRef)
	defer C.mlirrt_leave(cMemHostRegisterMemRef)
	if r := C.cuMemHostRegister(ptr, C.size_t(size), 0); r != C.CUDA_SUCCESS {
		fail(r, "mgpuMemHostRegisterMemRef: cuMemHostRegister(%p, %d bytes)", ptr, size)
	}
}

//export mgpuMemHostUnregister
func mgpuMemHostUnregister(ptr unsafe.Pointer) {
	C.mlirrt_enter(cMemHostUnregister)
	defer C.mlirrt_leave(cMemHostUnregister)
	if r := C.cuMemHostUnregister(ptr); r != C.CUDA_SUCCESS {
		fail(r, "mgpuMemHostUnregister: cuMemHostUnregister(%p)", ptr)
	}
}

//export mgpuMemHostUnregisterMemRef
func mgpuMemHostUnregisterMemRef(rank C.int64_t, desc unsafe.Pointer, elementSizeBytes C.int64_t) {
	d, _, _ := readDescriptor("mgpuMemHostUnregisterMemRef", desc, int64(rank))
	ptr := unsafe.Add(d.aligned, d.offset*int64(elementSizeBytes))
	C.mlirrt_enter(cMemHostUnregisterMemRef)
	defer C.mlirrt_leave(cMemHostUnregisterMemRef)
	if r := C.cuMemHostUnregister(ptr); r != C.CUDA_SUCCESS {
		fail(r, "mgpuMemHostUnregisterMemRef: cuMemHostUnregister(%p)", ptr)
	}
}

// mgpuSetDefaultDevice sets the calling thread's device for the wrappers it calls next.
//
//export mgpuSetDefaultDevice
func mgpuSetDefaultDevice(device C.int32_t) { C.mlirrt_set_default_device(device) }

// Printing. Everything goes through C's stdout (mlirrt_write), as upstream's std::cout and printf
// do, so it stays in order with the program's other output.

func write(b []byte, flush bool) {
	if len(b) == 0 {
		return
	}
	f := C.int(0)
	if flush {
		f = 1
	}
	C.mlirrt_write(unsafe.Pointer(&b[0]), C.size_t(len(b)), f)
}

// printMemref prints the memref whose ranked descriptor is at p, as the printer call does.
func printMemref(call string, kind Kind, ranked, shape bool, rank int64, p unsafe.Pointer) {
	d, sizes, strides := readDescriptor(call, p, rank)
	m := &Memref{Kind: kind, Ranked: ranked, Base: uintptr(d.aligned), Offset: d.offset, Sizes: sizes, Strides: strides}
	if !shape && d.aligned != nil {
		// The elements Print reads, as upstream reads them.
		lo, hi := Span(d.offset, sizes, strides)
		size := int64(kind.Size())
		m.Start = lo
		m.Data = unsafe.Slice((*byte)(unsafe.Add(d.aligned, lo*size)), (hi-lo+1)*size)
	}
	var b bytes.Buffer
	var err error
	if shape {
		err = PrintShape(&b, m)
	} else {
		err = Print(&b, m)
	}
	if err != nil {
		die("%s: %v", call, err)
	}
	// Upstream's printMemRef ends with std::flush; the shape printers do not flush.
	write(b.Bytes(), !shape)
}

func unranked(kind Kind, rank C.int64_t, p unsafe.Pointer) {
	printMemref("printMemref"+kind.String(), kind, false, false, int64(rank), p)
}

func ciface(kind Kind, m *C.mlirrt_unranked) {
	printMemref("_mlir_ciface_printMemref"+kind.String(), kind, false, false, int64(m.rank), m.descriptor)
}

func shape(kind Kind, m *C.mlirrt_unranked) {
	printMemref("_mlir_ciface_printMemrefShape"+kind.String(), kind, false, true, int64(m.rank), m.descriptor)
}

func ranked(kind Kind, rank int64, p unsafe.Pointer) {
	printMemref(fmt.Sprintf("_mlir_ciface_printMemref%dd%s", rank, kind), kind, true, false, rank, p)
}

// The printers of libmlir_runner_utils (RunnerUtils.cpp, LLVM 21): an unranked memref as its rank
// and descriptor pointer, or (_mlir_ciface_, for functions declared with llvm.emit_c_interface) as
// a pointer to UnrankedMemRefType, or a ranked descriptor.

//export printMemrefI32
func printMemrefI32(rank C.int64_t, p unsafe.Pointer) { unranked(I32, rank, p) }

//export printMemrefI64
func printMemrefI64(rank C.int64_t, p unsafe.Pointer) { unranked(I64, rank, p) }

//export printMemrefF32
func printMemrefF32(rank C.int64_t, p unsafe.Pointer) { unranked(F32, rank, p) }

//export printMemrefF64
func printMemrefF64(rank C.int64_t, p unsafe.Pointer) { unranked(F64, rank, p) }

//export printMemrefInd
func printMemrefInd(rank C.int64_t, p unsafe.Pointer) { unranked(Index, rank, p) }

//export printMemrefC32
func printMemrefC32(rank C.int64_t, p unsafe.Pointer) { unranked(C32, rank, p) }

//export printMemrefC64
func printMemrefC64(rank C.int64_t, p unsafe.Pointer) { unranked(C64, rank, p) }

//export _mlir_ciface_printMemrefI8
func _mlir_ciface_printMemrefI8(m *C.mlirrt_unranked) { ciface(I8, m) }

//export _mlir_ciface_printMemrefI16
func _mlir_ciface_printMemrefI16(m *C.mlirrt_unranked) { ciface(I16, m) }

//export _mlir_ciface_printMemrefI32
func _mlir_ciface_printMemrefI32(m *C.mlirrt_unranked) { ciface(I32, m) }

//export _mlir_ciface_printMemrefI64
func _mlir_ciface_printMemrefI64(m *C.mlirrt_unranked) { ciface(I64, m) }

//export _mlir_ciface_printMemrefF16
func _mlir_ciface_printMemrefF16(m *C.mlirrt_unranked) { ciface(F16, m) }

//export _mlir_ciface_printMemrefBF16
func _mlir_ciface_printMemrefBF16(m *C.mlirrt_unranked) { ciface(BF16, m) }

//export _mlir_ciface_printMemrefF32
func _mlir_ciface_printMemrefF32(m *C.mlirrt_unranked) { ciface(F32, m) }

//export _mlir_ciface_printMemrefF64
func _mlir_ciface_printMemrefF64(m *C.mlirrt_unranked) { ciface(F64, m) }

//export _mlir_ciface_printMemrefInd
func _mlir_ciface_printMemrefInd(m *C.mlirrt_unranked) { ciface(Index, m) }

//export _mlir_ciface_printMemrefC32
func _mlir_ciface_printMemrefC32(m *C.mlirrt_unranked) { ciface(C32, m) }

//export _mlir_ciface_printMemrefC64
func _mlir_ciface_printMemrefC64(m *C.mlirrt_unranked) { ciface(C64, m) }

//export _mlir_ciface_printMemrefShapeI8
func _mlir_ciface_printMemrefShapeI8(m *C.mlirrt_unranked) { shape(I8, m) }

//export _mlir_ciface_printMemrefShapeI32
func _mlir_ciface_printMemrefShapeI32(m *C.mlirrt_unranked) { shape(I32, m) }

//export _mlir_ciface_printMemrefShapeI64
func _mlir_ciface_printMemrefShapeI64(m *C.mlirrt_unranked) { shape(I64, m) }

//export _mlir_ciface_printMemrefShapeF32
func _mlir_ciface_printMemrefShapeF32(m *C.mlirrt_unranked) { shape(F32, m) }

//export _mlir_ciface_printMemrefShapeF64
func _mlir_ciface_printMemrefShapeF64(m *C.mlirrt_unranked) { shape(F64, m) }

//export _mlir_ciface_printMemrefShapeInd
func _mlir_ciface_printMemrefShapeInd(m *C.mlirrt_unranked) { shape(Index, m) }

//export _mlir_ciface_printMemrefShapeC32
func _mlir_ciface_printMemrefShapeC32(m *C.mlirrt_unranked) { shape(C32, m) }

//export _mlir_ciface_printMemrefShapeC64
func _mlir_ciface_printMemrefShapeC64(m *C.mlirrt_unranked) { shape(C64, m) }

//export _mlir_ciface_printMemref0dF32
func _mlir_ciface_printMemref0dF32(p unsafe.Pointer) { ranked(F32, 0, p) }

//export _mlir_ciface_printMemref1dF32
func _mlir_ciface_printMemref1dF32(p unsafe.Pointer) { ranked(F32, 1, p) }

//export _mlir_ciface_printMemref2dF32
func _mlir_ciface_printMemref2dF32(p unsafe.Pointer) { ranked(F32, 2, p) }

//export _mlir_ciface_printMemref3dF32
func _mlir_ciface_printMemref3dF32(p unsafe.Pointer) { ranked(F32, 3, p) }

//export _mlir_ciface_printMemref4dF32
func _mlir_ciface_printMemref4dF32(p unsafe.Pointer) { ranked(F32, 4, p) }

//export _mlir_ciface_printMemref1dI8
func _mlir_ciface_printMemref1dI8(p unsafe.Pointer) { ranked(I8, 1, p) }

//export _mlir_ciface_printMemref1dI32
func _mlir_ciface_printMemref1dI32(p unsafe.Pointer) { ranked(I32, 1, p) }

//export _mlir_ciface_printMemref1dI64
func _mlir_ciface_printMemref1dI64(p unsafe.Pointer) { ranked(I64, 1, p) }

//export _mlir_ciface_printMemref1dF64
func _mlir_ciface_printMemref1dF64(p unsafe.Pointer) { ranked(F64, 1, p) }

//export _mlir_ciface_printMemref1dInd
func _mlir_ciface_printMemref1dInd(p unsafe.Pointer) { ranked(Index, 1, p) }

//export _mlir_ciface_printMemref1dC32
func _mlir_ciface_printMemref1dC32(p unsafe.Pointer) { ranked(C32, 1, p) }

//export _mlir_ciface_printMemref1dC64
func _mlir_ciface_printMemref1dC64(p unsafe.Pointer) { ranked(C64, 1, p) }

// The scalar printers that vector.print lowers to: libmlir_c_runner_utils (CRunnerUtils.cpp) and
// libmlir_float16_utils (Float16bits.cpp). None flushes, as upstream's.

//export printF32
func printF32(f C.float) { write(AppendFloat(nil, float64(f)), false) }

//export printF64
func printF64(f C.double) { write(AppendFloat(nil, float64(f)), false) }

//export printI64
func printI64(i C.int64_t) { write(fmt.Appendf(nil, "%d", int64(i)), false) }

//export printU64
func printU64(u C.uint64_t) { write(fmt.Appendf(nil, "%d", uint64(u)), false) }

// printF16 prints half-precision bits, an i16 from the lowering.
//
//export printF16
func printF16(bits C.uint32_t) {
	write(AppendFloat(nil, float64(F16ToFloat32(uint16(bits&0xffff)))), false)
}

// printBF16 prints bfloat16 bits, an i16 from the lowering.
//
//export printBF16
func printBF16(bits C.uint32_t) {
	write(AppendFloat(nil, float64(BF16ToFloat32(uint16(bits&0xffff)))), false)
}

// printString prints a NUL-terminated string, as fputs.
//
//export printString
func printString(s *C.char) {
	if n := C.strlen(s); n > 0 {
		C.mlirrt_write(unsafe.Pointer(s), n, 0)
	}
}

//export printOpen
func printOpen() { write([]byte(Open), false) }

//export printClose
func printClose() { write([]byte(Close), false) }

//export printComma
func printComma() { write([]byte(Comma), false) }

//export printNewline
func printNewline() { write([]byte(Newline), false) }
