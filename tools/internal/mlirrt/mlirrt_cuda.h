// mlirrt_cuda.h declares the C half of package mlirrt (wrappers_cuda.c) for its Go half
// (exports_cuda.go), and the module wrappers that MLIR-lowered programs call.
#ifndef MLIRRT_CUDA_H
#define MLIRRT_CUDA_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

// UnrankedMemRefType (mlir/ExecutionEngine/CRunnerUtils.h): a rank and a pointer to a ranked
// descriptor {T *basePtr; T *data; int64_t offset; int64_t sizes[rank]; int64_t strides[rank];}.
typedef struct {
  int64_t rank;
  void *descriptor;
} mlirrt_unranked;

// The wrappers that a gpu.binary's global constructor and destructor call: C, since constructors
// run before the Go runtime starts (wrappers_cuda.c).
CUmodule mgpuModuleLoad(void *data, size_t gpuBlobSize);
CUmodule mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(CUmodule module);

// mlirrt_enter makes the primary context of the calling thread's default device current (pushes
// it), mlirrt_leave pops it: upstream's ScopedContext. call names the wrapper in error messages.
void mlirrt_enter(const char *call);
void mlirrt_leave(const char *call);
void mlirrt_set_default_device(int32_t device);
int32_t mlirrt_default_device(void);

// mlirrt_die reports "mlirrt: <what> failed with CUDA_ERROR_...: <description>", flushes stdout
// and exits with status 1, except after a failed device-side assert (CUDA_ERROR_ASSERT), which it
// reports and returns from, as MLIR's runtime does; mlirrt_die_message reports "mlirrt: <message>"
// and exits.
void mlirrt_die(const char *what, CUresult result);
void mlirrt_die_message(const char *message);

// mlirrt_load_failure is the first module that the driver refused, kept for the Go half to
// explain (explain.go): the image stays valid, since programs embed it as a constant.
typedef struct {
  const char *call, *driver;
  CUresult result;
  const void *image;
  size_t size;
  int32_t device;
  char log[4096];
} mlirrt_load_failure;

// mlirrt_take_load_failure copies the recorded failure into out and returns 1, once; else 0.
int mlirrt_take_load_failure(mlirrt_load_failure *out);

// mlirrtExplainLoadFailure, exported by the Go half (exports_cuda.go), explains a recorded failure
// and exits; it returns when there is none.
void mlirrtExplainLoadFailure(void);

// Helpers for what cgo expresses badly: pointer-valued device memory, and the launch attributes
// union of cuLaunchKernelEx.
void *mlirrt_mem_alloc(uint64_t size, int host_shared, CUresult *result);
CUresult mlirrt_launch_cluster(CUfunction f, unsigned cluster_x, unsigned cluster_y, unsigned cluster_z,
                               unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                               unsigned block_y, unsigned block_z, unsigned smem, CUstream stream,
                               void **params, void **extra);

// mlirrt_write writes n bytes to C's stdout, so that the program's own stdio output (and the
// driver's device printf) stays in order with ours; flush as upstream's std::flush.
void mlirrt_write(const void *p, size_t n, int flush);

// The async runtime's C half (async_cuda.c): mlirrt_async_resume calls a coroutine's resume
// function, resume(handle), as upstream's CoroResume; mlirrt_async_handle makes a cgo.Handle the
// opaque pointer that lowered code holds; mlirrt_async_print_thread_id prints the calling thread's
// id, as upstream's mlirAsyncRuntimePrintCurrentThreadId.
void mlirrt_async_resume(void *handle, void *resume);
void *mlirrt_async_handle(uintptr_t handle);
void mlirrt_async_print_thread_id(void);

#endif // MLIRRT_CUDA_H
