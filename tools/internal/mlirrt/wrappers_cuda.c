//go:build cuda

// The C half of package mlirrt's CUDA wrappers. The lowering of a gpu.binary (LLVM 21) loads the
// module in a global constructor of priority 123 and unloads it in a destructor, both calling the
// wrappers below. Such a constructor runs before the Go runtime's own (of no priority), and an
// exported Go function called then waits forever for the runtime to start: so these wrappers, and
// the context handling they need, are C. A module that does not load is recorded here and
// explained by the Go half (explain.go), which needs the runtime: from the package's init, from
// mgpuModuleGetFunction or from mgpuModuleUnload, whichever comes first.

#include "mlirrt_cuda.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

// The device the calling thread's wrappers use (mgpuSetDefaultDevice), as upstream's thread_local
// defaultDevice.
static _Thread_local int32_t default_device;

enum { max_devices = 64 };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
// The retained primary context of each device ordinal; under mu.
static CUcontext primary[max_devices];
// failed is 1 when failure holds a refused module not yet taken, 2 once taken; under mu.
static int failed;
static mlirrt_load_failure failure;

// known names the results that the driver cannot name itself: once it has shut down, as at exit,
// cuGetErrorName fails too.
static const char *known(CUresult r) {
  switch (r) {
  case CUDA_ERROR_INVALID_VALUE:
    return "CUDA_ERROR_INVALID_VALUE";
  case CUDA_ERROR_OUT_OF_MEMORY:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case CUDA_ERROR_DEINITIALIZED:
    return "CUDA_ERROR_DEINITIALIZED";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  case CUDA_ERROR_INVALID_DEVICE:
    return "CUDA_ERROR_INVALID_DEVICE";
  default:
    return NULL;
  }
}

void mlirrt_die(const char *what, CUresult result) {
  const char *name = NULL, *text = NULL;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = known(result);
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = NULL;
  fflush(stdout);
  if (name)
    fprintf(stderr, "mlirrt: %s failed with %s", what, name);
  else
    fprintf(stderr, "mlirrt: %s failed with CUresult %d", what, (int)result);
  if (text)
    fprintf(stderr, ": %s", text);
  if (result == CUDA_ERROR_ASSERT) {
    // A kernel's assert failed (its message, printed by the device, is above): report it and carry
    // on, as MLIR's runtime does; the context is unusable, so every later GPU call fails too.
    fputs(" (a device-side assert failed; the program carries on, as with MLIR's runtime, and every later GPU call fails)\n", stderr);
    fflush(stderr);
    return;
  }
  fputc('\n', stderr);
  fflush(stderr);
  // _exit, not exit: exit would run the gpu.binary's destructor, which would report again.
  _exit(1);
}

void mlirrt_die_message(const char *message) {
  fflush(stdout);
  fprintf(stderr, "mlirrt: %s\n", message);
  fflush(stderr);
  _exit(1);
}

void mlirrt_set_default_device(int32_t device) { default_device = device; }

int32_t mlirrt_default_device(void) { return default_device; }

// push makes the primary context of the calling thread's default device current, retaining it
// first if needed. On failure it returns the result and names the failed call in what.
static CUresult push(const char *call, char *what, size_t n) {
  int32_t dev = default_device;
  if (dev < 0 || dev >= max_devices) {
    snprintf(what, n, "%s: device %d (mgpuSetDefaultDevice)", call, (int)dev);
    return CUDA_ERROR_INVALID_DEVICE;
  }
  CUresult r = CUDA_SUCCESS;
  pthread_mutex_lock(&mu);
  CUcontext ctx = primary[dev];
  if (!ctx) {
    CUdevice device = 0;
    snprintf(what, n, "%s: cuInit", call);
    r = cuInit(0);
    if (r == CUDA_SUCCESS) {
      snprintf(what, n, "%s: cuDeviceGet(%d)", call, (int)dev);
      r = cuDeviceGet(&device, dev);
    }
    if (r == CUDA_SUCCESS) {
      // As upstream: retaining the primary context does not make it current.
      snprintf(what, n, "%s: cuDevicePrimaryCtxRetain(device %d)", call, (int)dev);
      r = cuDevicePrimaryCtxRetain(&ctx, device);
    }
    if (r == CUDA_SUCCESS)
      primary[dev] = ctx;
  }
  pthread_mutex_unlock(&mu);
  if (r == CUDA_SUCCESS) {
    snprintf(what, n, "%s: cuCtxPushCurrent", call);
    r = cuCtxPushCurrent(ctx);
  }
  return r;
}

void mlirrt_enter(const char *call) {
  char what[256];
  CUresult r = push(call, what, sizeof what);
  if (r != CUDA_SUCCESS)
    mlirrt_die(what, r);
}

void mlirrt_leave(const char *call) {
  CUcontext ctx;
  CUresult r = cuCtxPopCurrent(&ctx);
  if (r != CUDA_SUCCESS) {
    char what[256];
    snprintf(what, sizeof what, "%s: cuCtxPopCurrent", call);
    mlirrt_die(what, r);
  }
}

static void record(const char *call, const char *driver, CUresult r, const void *image, size_t size,
                   const char *log) {
  pthread_mutex_lock(&mu);
  if (!failed) {
    failed = 1;
    failure.call = call;
    failure.driver = driver;
    failure.result = r;
    failure.image = image;
    failure.size = size;
    failure.device = default_device;
    snprintf(failure.log, sizeof failure.log, "%s", log ? log : "");
  }
  pthread_mutex_unlock(&mu);
}

int mlirrt_take_load_failure(mlirrt_load_failure *out) {
  int took = 0;
  pthread_mutex_lock(&mu);
  if (failed == 1) {
    *out = failure;
    failed = 2;
    took = 1;
  }
  pthread_mutex_unlock(&mu);
  return took;
}

// mgpuModuleLoad loads a fatbin or cubin (gpu.binary's bin and fatbin formats). Upstream ignores
// gpuBlobSize; here it bounds the image for the explanation of a failure.
CUmodule mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  mlirrt_enter("mgpuModuleLoad");
  CUmodule module = NULL;
  CUresult r = cuModuleLoadData(&module, data);
  mlirrt_leave("mgpuModuleLoad");
  if (r != CUDA_SUCCESS) {
    record("mgpuModuleLoad", "cuModuleLoadData", r, data, gpuBlobSize, NULL);
    return NULL;
  }
  return module;
}

// mgpuModuleLoadJIT loads PTX (gpu.binary's isa format), which the driver compiles at optLevel,
// keeping the compiler's error log, as upstream does.
CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  mlirrt_enter("mgpuModuleLoadJIT");
  CUmodule module = NULL;
  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, (void *)(uintptr_t)sizeof log, (void *)(uintptr_t)optLevel};
  CUresult r = cuModuleLoadDataEx(&module, data, 3, options, values);
  mlirrt_leave("mgpuModuleLoadJIT");
  if (r != CUDA_SUCCESS) {
    record("mgpuModuleLoadJIT", "cuModuleLoadDataEx", r, data, strlen((const char *)data), log);
    return NULL;
  }
  return module;
}

// mgpuModuleUnload unloads a module; a null one is a module that did not load: the destructor is
// the last chance to explain why. A program lowered ahead of time unloads its modules in a global
// destructor, which runs after the driver's own exit handler has shut it down
// (CUDA_ERROR_DEINITIALIZED): the driver has freed the module then, and there is nothing to do.
void mgpuModuleUnload(CUmodule module) {
  if (!module) {
    mlirrtExplainLoadFailure();
    return;
  }
  char what[256];
  CUresult r = push("mgpuModuleUnload", what, sizeof what);
  if (r == CUDA_ERROR_DEINITIALIZED)
    return;
  if (r != CUDA_SUCCESS) {
    mlirrt_die(what, r);
    return; // after a device-side assert: nothing was pushed, nothing to pop
  }
  r = cuModuleUnload(module);
  if (r != CUDA_SUCCESS && r != CUDA_ERROR_DEINITIALIZED)
    mlirrt_die("mgpuModuleUnload: cuModuleUnload", r);
  mlirrt_leave("mgpuModuleUnload");
}

void *mlirrt_mem_alloc(uint64_t size, int host_shared, CUresult *result) {
  CUdeviceptr p = 0;
  *result = CUDA_SUCCESS;
  if (size == 0) // as upstream: no allocation, a null pointer
    return NULL;
  if (host_shared)
    *result = cuMemAllocManaged(&p, size, CU_MEM_ATTACH_GLOBAL);
  else
    *result = cuMemAlloc(&p, size);
  return (void *)(uintptr_t)p;
}

CUresult mlirrt_launch_cluster(CUfunction f, unsigned cluster_x, unsigned cluster_y, unsigned cluster_z,
                               unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                               unsigned block_y, unsigned block_z, unsigned smem, CUstream stream,
                               void **params, void **extra) {
#if CUDA_VERSION >= 12000
  // As upstream: the cluster's shape, and the spread scheduling policy.
  CUlaunchAttribute attrs[2];
  memset(attrs, 0, sizeof attrs);
  attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attrs[0].value.clusterDim.x = cluster_x;
  attrs[0].value.clusterDim.y = cluster_y;
  attrs[0].value.clusterDim.z = cluster_z;
  attrs[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE;
  attrs[1].value.clusterSchedulingPolicyPreference = CU_CLUSTER_SCHEDULING_POLICY_SPREAD;
  CUlaunchConfig config;
  memset(&config, 0, sizeof config);
  config.gridDimX = grid_x;
  config.gridDimY = grid_y;
  config.gridDimZ = grid_z;
  config.blockDimX = block_x;
  config.blockDimY = block_y;
  config.blockDimZ = block_z;
  config.sharedMemBytes = smem;
  config.hStream = stream;
  config.attrs = attrs;
  config.numAttrs = 2;
  return cuLaunchKernelEx(&config, f, params, extra);
#else
  return CUDA_ERROR_NOT_SUPPORTED;
#endif
}

void mlirrt_write(const void *p, size_t n, int flush) {
  fwrite(p, 1, n, stdout);
  if (flush)
    fflush(stdout);
}
