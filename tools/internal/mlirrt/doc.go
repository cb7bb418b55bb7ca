// Package mlirrt is the runtime that MLIR GPU programs built by rules_gpu link: the CUDA runtime
// wrappers that MLIR's gpu-to-llvm lowering calls (mgpuModuleLoad, mgpuLaunchKernel, ...; upstream
// mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp), over the CUDA driver, and MLIR's printing
// helpers (printMemrefF32, printF32, ...; upstream CRunnerUtils.cpp, RunnerUtils.cpp and
// Float16bits.cpp), and MLIR's async runtime (mlirAsyncRuntime*; upstream AsyncRuntime.cpp), which
// the lowered async dialect calls, exported to C with upstream's names and ABIs (LLVM 21). Debian has no
// libmlir_cuda_runtime, and its runner-utils libraries need libMLIR.so and a newer glibc than the
// GPU machines, so programs link this instead: a main package that imports it, built with
// -buildmode=c-archive and -tags cuda, linked with the program's object and -lcuda.
//
// print.go (pure Go, every build) formats memrefs and scalars byte for byte as upstream does;
// explain.go (pure Go) says why the driver refused a module. The C side needs cgo, cuda.h and
// libcuda and builds only with the "cuda" build tag: exports_cuda.go holds the //export functions,
// wrappers_cuda.c the few wrappers that must be C (see there: module loads run in global
// constructors, before the Go runtime starts); async_cuda.go the async runtime (tokens, values and
// groups as cgo handles, reference counted; coroutines resumed on goroutines; see there for its
// only global state, cgo's handle table), with async_cuda.c calling a coroutine's resume function.
// sparse_cuda.c holds the wrappers of the gpu dialect's sparse ops, over cuSPARSE and cuSPARSELt,
// which it loads with dlopen on first use (see there). sparsert.go (pure Go) is MLIR's sparse
// tensor runtime library (upstream SparseTensorRuntime.h), which the sparsifier calls with
// enable-runtime-library: its tensors' storage, in buffers that the program reads; sparsert_cuda.go
// and sparsert_cuda.c export it with upstream's names.
//
// TMA descriptors (nvgpu.tma.create.descriptor, sm_90 and newer): tma.go (pure Go) makes the
// arguments of the driver's cuTensorMapEncodeTiled from a memref descriptor and explains a refusal;
// tma_cuda.go exports mgpuTensorMapEncodeTiledMemref, which encodes the descriptor and returns a
// copy of it in device memory, as upstream's does.
//
// Contexts: like upstream's ScopedContext, every wrapper that calls the driver pushes the primary
// context of the calling thread's default device (mgpuSetDefaultDevice, thread-local, 0 by default)
// and pops it before returning. A C call into an exported Go function runs on the calling C thread,
// and the runtime keeps that goroutine locked to the thread until the call returns, so the push,
// the driver calls and the pop all happen on the caller's thread; nothing needs
// runtime.LockOSThread. Unlike upstream, which keeps one primary context for whichever device was
// the default first, each device ordinal gets its own.
//
// Why the driver through cgo, not gorgonia.org/cu (which tools/internal/launch uses): measured with
// gorgonia.org/cu v0.9.6, its package init calls cuInit and, without a GPU, prints a generic message
// and calls os.Exit(1) — every program (and every test binary, on machines without a GPU) would die
// before main, instead of failing at the first call with this package's message; its Module,
// Function, Stream and Event wrap the driver's handles in unexported fields, while the lowered
// program passes and receives the raw CUmodule, CUfunction, CUstream and CUevent; it has no
// cuLaunchKernelEx (cluster launches) and no launch with an `extra` argument; and the module loads
// run in the program's global constructors, before the Go runtime has started, so they must be C
// anyway.
//
// Errors: upstream prints "'call' failed with 'CUDA_ERROR_...'" and carries on; here the first
// failure prints the call, its arguments where they help, the driver's error name and string, and
// for a module that does not load the images it holds, the GPU's chip and the fix, then flushes
// stdout and exits with status 1. The one exception is a failed device-side assert
// (CUDA_ERROR_ASSERT): the kernel has printed its message, and, as upstream, each failed call is
// reported and the program carries on (MLIR's assert tests check what it prints after), its later
// GPU calls failing with the same error.
package mlirrt
