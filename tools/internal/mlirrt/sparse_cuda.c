//go:build cuda

// The sparse wrappers of package mlirrt (declared, with what their arguments mean, in
// sparse_cuda.h): the mgpu* functions that LLVM 21's lowering of the gpu dialect's sparse ops calls,
// over cuSPARSE and, for 2:4 structured sparsity, cuSPARSELt.
//
// Neither library is linked: each is loaded with dlopen, by soname, the first time a wrapper needs
// it (pthread_once), and its functions resolved with dlsym, so that a program built against one
// CUDA toolkit runs with another's libraries (CUDA 12's cuSPARSE is libcusparse.so.12, CUDA 11's
// libcusparse.so.11), and a program that uses no sparse op needs neither. A library that does not
// load, or lacks a function a wrapper calls, stops the program with one message that names the
// wrapper, the library, the sonames tried and the fix; a failed call names the wrapper, the call
// and the library's description of its status. cuSPARSE's types come from cusparse.h (present
// wherever the CUDA toolkit is); cuSPARSELt's header is not, so its few types and functions are
// declared here from NVIDIA's documented ABI.
//
// As every wrapper of the package, each pushes the primary context of the calling thread's default
// device (mlirrt_enter) and pops it before returning, and runs its work on the op's stream
// (upstream's wrappers ignore the stream and use cuSPARSE's default, which is not ordered with the
// lowering's non-blocking streams). As upstream, a program has one cuSPARSE handle and one
// cuSPARSELt handle, created and destroyed by the program's own calls (mgpuCreateSparseEnv, ...);
// the wrappers set the handle's stream before each call, so two threads must not use it at once.

#include "mlirrt_cuda.h"
#include "sparse_cuda.h"

#include <cusparse.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if CUSPARSE_VERSION >= 12000
// Removed from cuSPARSE 12 and its header; cuSPARSE 11 has it (mgpuCreateCooAoS).
cusparseStatus_t cusparseCreateCooAoS(cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                      void *cooInd, void *cooValues, cusparseIndexType_t cooIdxType,
                                      cusparseIndexBase_t idxBase, cudaDataType valueType);
#endif

// cuSPARSELt's ABI (cusparseLt.h, not installed here). Its opaque structs are fixed-size byte
// arrays: 11024 bytes in cuSPARSELt 0.4 and 0.5, the versions MLIR's lowering was written for,
// smaller in later ones; lt_blob holds the largest. Its status is cuSPARSE's cusparseStatus_t, its
// matrix order cuSPARSE's cusparseOrder_t (CUSPARSE_ORDER_ROW, from cusparse.h).
typedef struct {
  unsigned char data[11024];
} lt_blob;
enum {
  lt_sparsity_50 = 0,      // cusparseLtSparsity_t CUSPARSELT_SPARSITY_50_PERCENT
  lt_alg_default = 0,      // cusparseLtMatmulAlg_t CUSPARSELT_MATMUL_ALG_DEFAULT
  lt_prune_strip = 1,      // cusparseLtPruneAlg_t CUSPARSELT_PRUNE_SPMMA_STRIP
  lt_major_version = 0,    // libraryPropertyType MAJOR_VERSION
  lt_minor_version = 1,    // libraryPropertyType MINOR_VERSION
};
cusparseStatus_t cusparseLtInit(lt_blob *handle);
cusparseStatus_t cusparseLtDestroy(const lt_blob *handle);
cusparseStatus_t cusparseLtGetProperty(int property, int *value);
cusparseStatus_t cusparseLtDenseDescriptorInit(const lt_blob *handle, lt_blob *mat, int64_t rows, int64_t cols,
                                               int64_t ld, uint32_t alignment, cudaDataType type, int order);
cusparseStatus_t cusparseLtStructuredDescriptorInit(const lt_blob *handle, lt_blob *mat, int64_t rows,
                                                    int64_t cols, int64_t ld, uint32_t alignment,
                                                    cudaDataType type, int order, int sparsity);
cusparseStatus_t cusparseLtMatDescriptorDestroy(const lt_blob *mat);
cusparseStatus_t cusparseLtMatmulDescriptorInit(const lt_blob *handle, lt_blob *matmul, int opA, int opB,
                                                const lt_blob *a, const lt_blob *b, const lt_blob *c,
                                                const lt_blob *d, int computeType);
cusparseStatus_t cusparseLtMatmulAlgSelectionInit(const lt_blob *handle, lt_blob *alg, const lt_blob *matmul,
                                                  int algorithm);
cusparseStatus_t cusparseLtMatmulAlgSelectionDestroy(const lt_blob *alg);
cusparseStatus_t cusparseLtMatmulPlanInit(const lt_blob *handle, lt_blob *plan, const lt_blob *matmul,
                                          const lt_blob *alg);
cusparseStatus_t cusparseLtMatmulPlanDestroy(const lt_blob *plan);
cusparseStatus_t cusparseLtMatmulGetWorkspace(const lt_blob *handle, const lt_blob *plan, size_t *size);
cusparseStatus_t cusparseLtSpMMAPrune(const lt_blob *handle, const lt_blob *matmul, const void *in, void *out,
                                      int pruneAlg, cudaStream_t stream);
cusparseStatus_t cusparseLtSpMMAPruneCheck(const lt_blob *handle, const lt_blob *matmul, const void *in,
                                           int *valid, cudaStream_t stream);
cusparseStatus_t cusparseLtSpMMACompressedSize(const lt_blob *handle, const lt_blob *plan, size_t *size,
                                               size_t *bufferSize);
cusparseStatus_t cusparseLtSpMMACompress(const lt_blob *handle, const lt_blob *plan, const void *dense,
                                         void *compressed, void *buffer, cudaStream_t stream);
cusparseStatus_t cusparseLtMatmul(const lt_blob *handle, const lt_blob *plan, const void *alpha, const void *a,
                                  const void *b, const void *beta, const void *c, void *d, void *workspace,
                                  cudaStream_t *streams, int32_t numStreams);
const char *cusparseLtGetErrorString(cusparseStatus_t status);

// The handles the lowering allocates (sparse_cuda.h gives their sizes): this runtime's layout, in
// slots 16-byte aligned, as the lowering aligns the buffer.
typedef struct {
  lt_blob mat, alg, plan, matmul;
  void *values;
} lt_spmat;
typedef struct {
  lt_blob mat;
  void *values;
} lt_dnmat;
_Static_assert(sizeof(lt_spmat) == mlirrt_sparselt_spmat_size, "the lowering's 2:4 matrix handle size");
_Static_assert(sizeof(lt_dnmat) == mlirrt_sparselt_dnmat_size, "the lowering's cuSPARSELt dense matrix size");
_Static_assert(sizeof(lt_blob) % 16 == 0, "cuSPARSELt's structs stay 16-byte aligned in the handles");

// The functions each library's wrappers call, X(name); OPTIONAL ones may be absent (the wrapper
// that needs one says so when called; the others do without it).
#define CUSPARSE_FUNCTIONS(X)                                                                                     \
  X(cusparseCreate)                                                                                               \
  X(cusparseDestroy)                                                                                              \
  X(cusparseSetStream)                                                                                            \
  X(cusparseGetErrorString)                                                                                       \
  X(cusparseCreateDnVec)                                                                                          \
  X(cusparseDestroyDnVec)                                                                                         \
  X(cusparseCreateDnMat)                                                                                          \
  X(cusparseDestroyDnMat)                                                                                         \
  X(cusparseCreateCoo)                                                                                            \
  X(cusparseCreateCsr)                                                                                            \
  X(cusparseCreateCsc)                                                                                            \
  X(cusparseDestroySpMat)                                                                                         \
  X(cusparseSpMatGetSize)                                                                                         \
  X(cusparseCsrSetPointers)                                                                                       \
  X(cusparseSpMV_bufferSize)                                                                                      \
  X(cusparseSpMV)                                                                                                 \
  X(cusparseSpMM_bufferSize)                                                                                      \
  X(cusparseSpMM)                                                                                                 \
  X(cusparseSDDMM_bufferSize)                                                                                     \
  X(cusparseSDDMM)                                                                                                \
  X(cusparseSpGEMM_createDescr)                                                                                   \
  X(cusparseSpGEMM_destroyDescr)                                                                                  \
  X(cusparseSpGEMM_workEstimation)                                                                                \
  X(cusparseSpGEMM_compute)                                                                                       \
  X(cusparseSpGEMM_copy)
#define CUSPARSE_OPTIONAL(X)                                                                                      \
  X(cusparseCreateBsr)    /* cuSPARSE 12.1 and later */                                                          \
  X(cusparseCreateCooAoS) /* cuSPARSE 11 only */
#define CUSPARSELT_FUNCTIONS(X)                                                                                   \
  X(cusparseLtInit)                                                                                               \
  X(cusparseLtDestroy)                                                                                            \
  X(cusparseLtDenseDescriptorInit)                                                                                \
  X(cusparseLtStructuredDescriptorInit)                                                                           \
  X(cusparseLtMatDescriptorDestroy)                                                                               \
  X(cusparseLtMatmulDescriptorInit)                                                                               \
  X(cusparseLtMatmulAlgSelectionInit)                                                                             \
  X(cusparseLtMatmulPlanInit)                                                                                     \
  X(cusparseLtMatmulPlanDestroy)                                                                                  \
  X(cusparseLtMatmulGetWorkspace)                                                                                 \
  X(cusparseLtSpMMAPrune)                                                                                         \
  X(cusparseLtSpMMAPruneCheck)                                                                                    \
  X(cusparseLtSpMMACompressedSize)                                                                                \
  X(cusparseLtSpMMACompress)                                                                                      \
  X(cusparseLtMatmul)
#define CUSPARSELT_OPTIONAL(X)                                                                                    \
  X(cusparseLtGetProperty)                /* its version, for the compute type's numbering */                    \
  X(cusparseLtGetErrorString)             /* cuSPARSELt 0.8 and later */                                         \
  X(cusparseLtMatmulAlgSelectionDestroy)  /* cuSPARSELt 0.8 and later */

#define ENUM(name) fn_##name,
#define NAME(name) #name,
enum { CUSPARSE_FUNCTIONS(ENUM) cusparse_required, cusparse_optional_dummy = cusparse_required - 1,
       CUSPARSE_OPTIONAL(ENUM) cusparse_count };
enum { CUSPARSELT_FUNCTIONS(ENUM) cusparselt_required, cusparselt_optional_dummy = cusparselt_required - 1,
       CUSPARSELT_OPTIONAL(ENUM) cusparselt_count };
static const char *const cusparse_names[] = {CUSPARSE_FUNCTIONS(NAME) CUSPARSE_OPTIONAL(NAME)};
static const char *const cusparselt_names[] = {CUSPARSELT_FUNCTIONS(NAME) CUSPARSELT_OPTIONAL(NAME)};

// A library that the wrappers load on first use.
typedef struct {
  const char *name;             // as NVIDIA names it
  const char *sonames;          // those to try, in order, colon-separated
  const char *fix;              // what to do when none loads
  const char *const *functions; // the functions the wrappers call: required ones first
  int required, count;
  void **fn;                    // their addresses, by index (null where absent)
  void (*load)(void);           // loads it, once (pthread_once)
  pthread_once_t once;
  void *dl;                      // the dlopen handle; null when it did not load
  const char *soname;            // the soname that loaded
  char tried[2048];              // why each soname did not load
} library;

static void *cusparse_fn[cusparse_count], *cusparselt_fn[cusparselt_count];
static void load_cusparse(void);
static void load_cusparselt(void);

static library cusparse = {
    .name = "cuSPARSE",
    .sonames = "libcusparse.so.12:libcusparse.so.13:libcusparse.so.11:libcusparse.so",
    .fix = "install the CUDA toolkit's cuSPARSE (libcusparse, part of the CUDA toolkit; Debian and Ubuntu "
           "package it as libcusparse12, NVIDIA's repositories as libcusparse-12-*), or put the directory that "
           "holds libcusparse.so.12 on LD_LIBRARY_PATH",
    .functions = cusparse_names,
    .required = cusparse_required,
    .count = cusparse_count,
    .fn = cusparse_fn,
    .load = load_cusparse,
    .once = PTHREAD_ONCE_INIT,
};

static library cusparselt = {
    .name = "cuSPARSELt",
    .sonames = "libcusparseLt.so.0:libcusparseLt.so",
    .fix = "install NVIDIA's cuSPARSELt (not part of the CUDA toolkit: the libcusparselt0 package of NVIDIA's "
           "repositories, or the nvidia-cusparselt-cu12 wheel), or put the directory that holds "
           "libcusparseLt.so.0 on LD_LIBRARY_PATH",
    .functions = cusparselt_names,
    .required = cusparselt_required,
    .count = cusparselt_count,
    .fn = cusparselt_fn,
    .load = load_cusparselt,
    .once = PTHREAD_ONCE_INIT,
};

// open loads lib from the colon-separated sonames and resolves its functions; on failure lib->dl
// stays null and lib->tried says why.
static void open_library(library *lib, const char *sonames) {
  char list[512];
  snprintf(list, sizeof list, "%s", sonames);
  size_t used = 0;
  lib->tried[0] = 0;
  for (char *save = NULL, *so = strtok_r(list, ":", &save); so; so = strtok_r(NULL, ":", &save)) {
    void *dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (dl) {
      lib->dl = dl;
      lib->soname = strdup(so);
      for (int i = 0; i < lib->count; i++)
        lib->fn[i] = dlsym(dl, lib->functions[i]);
      return;
    }
    const char *why = dlerror();
    used += snprintf(lib->tried + used, used < sizeof lib->tried ? sizeof lib->tried - used : 0, "%s%s (%s)",
                     used ? "; " : "", so, why ? why : "not found");
    if (used >= sizeof lib->tried)
      used = sizeof lib->tried;
  }
}

static void load_cusparse(void) { open_library(&cusparse, cusparse.sonames); }
static void load_cusparselt(void) { open_library(&cusparselt, cusparselt.sonames); }

// die_unloaded reports that lib did not load, for wrapper, and exits.
static void die_unloaded(const char *wrapper, const library *lib) {
  char message[4096];
  snprintf(message, sizeof message,
           "%s needs NVIDIA's %s library, which did not load: tried %s. To fix: %s.", wrapper, lib->name,
           lib->tried, lib->fix);
  mlirrt_die_message(message);
}

// need loads lib (once) and returns function i, or reports for wrapper that the library or the
// function is missing, and exits.
static void *need(const char *wrapper, library *lib, int i) {
  pthread_once(&lib->once, lib->load);
  if (!lib->dl)
    die_unloaded(wrapper, lib);
  if (!lib->fn[i]) {
    char message[2048];
    snprintf(message, sizeof message,
             "%s needs %s from NVIDIA's %s library, which %s (the one that loaded) does not have. To fix: use "
             "a %s that has it: %s.",
             wrapper, lib->functions[i], lib->name, lib->soname, lib->name, lib->fix);
    mlirrt_die_message(message);
  }
  return lib->fn[i];
}

// SP(f) and LT(f) are cuSPARSE's and cuSPARSELt's function f, typed as declared, for the wrapper
// that calls them (each wrapper's name is its __func__).
#define SP(f) ((__typeof__(&f))need(__func__, &cusparse, fn_##f))
#define LT(f) ((__typeof__(&f))need(__func__, &cusparselt, fn_##f))

// status_name names a cusparseStatus_t (shared by cuSPARSELt).
static const char *status_name(cusparseStatus_t s) {
#define CASE(x)                                                                                                   \
  case x:                                                                                                         \
    return #x;
  switch (s) {
    CASE(CUSPARSE_STATUS_SUCCESS)
    CASE(CUSPARSE_STATUS_NOT_INITIALIZED)
    CASE(CUSPARSE_STATUS_ALLOC_FAILED)
    CASE(CUSPARSE_STATUS_INVALID_VALUE)
    CASE(CUSPARSE_STATUS_ARCH_MISMATCH)
    CASE(CUSPARSE_STATUS_MAPPING_ERROR)
    CASE(CUSPARSE_STATUS_EXECUTION_FAILED)
    CASE(CUSPARSE_STATUS_INTERNAL_ERROR)
    CASE(CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED)
    CASE(CUSPARSE_STATUS_ZERO_PIVOT)
    CASE(CUSPARSE_STATUS_NOT_SUPPORTED)
    CASE(CUSPARSE_STATUS_INSUFFICIENT_RESOURCES)
  default:
    return NULL;
  }
#undef CASE
}

// check reports a failed call of library lib (its function call) in wrapper, with the library's
// description of the status, and exits; it returns when the call succeeded.
static void check(const char *wrapper, const library *lib, const char *call, cusparseStatus_t s) {
  if (s == CUSPARSE_STATUS_SUCCESS)
    return;
  const char *text = NULL;
  if (lib == &cusparselt && cusparselt.fn[fn_cusparseLtGetErrorString])
    text = ((__typeof__(&cusparseLtGetErrorString))cusparselt.fn[fn_cusparseLtGetErrorString])(s);
  else if (cusparse.dl && cusparse.fn[fn_cusparseGetErrorString])
    text = ((__typeof__(&cusparseGetErrorString))cusparse.fn[fn_cusparseGetErrorString])(s);
  const char *name = status_name(s);
  char message[1024], number[32];
  if (!name) {
    snprintf(number, sizeof number, "cusparseStatus_t %d", (int)s);
    name = number;
  }
  snprintf(message, sizeof message, "%s: %s %s failed with %s%s%s", wrapper, lib->name, call, name,
           text ? ": " : "", text ? text : "");
  mlirrt_die_message(message);
}

// SPCALL(f, args) and LTCALL(f, args) call cuSPARSE's or cuSPARSELt's f and check its status.
#define SPCALL(f, ...) check(__func__, &cusparse, #f, SP(f)(__VA_ARGS__))
#define LTCALL(f, ...) check(__func__, &cusparselt, #f, LT(f)(__VA_ARGS__))

// scalar is alpha or beta, 1 in a compute type: room for a complex double.
typedef struct {
  _Alignas(16) unsigned char bytes[16];
} scalar;

// one is 1 in compute type ctp (a cudaDataType), with a zero imaginary part for complex types;
// doubles for a type it does not know, as upstream.
static scalar one(int32_t ctp) {
  scalar s;
  memset(&s, 0, sizeof s);
  switch (ctp) {
  case CUDA_R_16F:
  case CUDA_C_16F: {
    uint16_t h = 0x3c00;
    memcpy(s.bytes, &h, sizeof h);
    break;
  }
  case CUDA_R_16BF:
  case CUDA_C_16BF: {
    uint16_t h = 0x3f80;
    memcpy(s.bytes, &h, sizeof h);
    break;
  }
  case CUDA_R_32F:
  case CUDA_C_32F: {
    float f = 1;
    memcpy(s.bytes, &f, sizeof f);
    break;
  }
  case CUDA_R_32I:
  case CUDA_C_32I: {
    int32_t i = 1;
    memcpy(s.bytes, &i, sizeof i);
    break;
  }
  default: {
    double d = 1;
    memcpy(s.bytes, &d, sizeof d);
  }
  }
  return s;
}

static pthread_mutex_t env_mu = PTHREAD_MUTEX_INITIALIZER;
static cusparseHandle_t env;    // mgpuCreateSparseEnv's; under env_mu
static _Alignas(16) lt_blob lt_env;         // mgpuCreateSparseLtEnv's
static int lt_ready;            // whether lt_env is initialised; under env_mu

// handle returns the program's cuSPARSE handle, set to run on stream, or reports that the program
// did not create one and exits.
static cusparseHandle_t handle(const char *wrapper, CUstream stream) {
  pthread_mutex_lock(&env_mu);
  cusparseHandle_t h = env;
  pthread_mutex_unlock(&env_mu);
  if (!h) {
    char message[512];
    snprintf(message, sizeof message,
             "%s: the program has no cuSPARSE handle: call mgpuCreateSparseEnv() before the first sparse "
             "product (MLIR's sparse GPU programs declare it, llvm.func @mgpuCreateSparseEnv(), and call it at "
             "the start of main)",
             wrapper);
    mlirrt_die_message(message);
  }
  check(wrapper, &cusparse, "cusparseSetStream",
        ((__typeof__(&cusparseSetStream))need(wrapper, &cusparse, fn_cusparseSetStream))(h, (cudaStream_t)stream));
  return h;
}

// lt_handle returns the program's cuSPARSELt handle, or reports that there is none and exits.
static const lt_blob *lt_handle(const char *wrapper) {
  pthread_mutex_lock(&env_mu);
  int ready = lt_ready;
  pthread_mutex_unlock(&env_mu);
  if (!ready) {
    char message[512];
    snprintf(message, sizeof message,
             "%s: the program has no cuSPARSELt handle: call mgpuCreateSparseLtEnv() before the first 2:4 "
             "sparse op (MLIR's 2:4 GPU programs declare it, llvm.func @mgpuCreateSparseLtEnv(), and call it at "
             "the start of main)",
             wrapper);
    mlirrt_die_message(message);
  }
  return &lt_env;
}

void mgpuCreateSparseEnv(void) {
  (void)SP(cusparseCreate); // loads the library before the context: its absence is the error to report
  mlirrt_enter(__func__);
  pthread_mutex_lock(&env_mu);
  cusparseHandle_t h = env;
  cusparseStatus_t s = CUSPARSE_STATUS_SUCCESS;
  if (!h)
    s = SP(cusparseCreate)(&env);
  pthread_mutex_unlock(&env_mu);
  if (h)
    mlirrt_die_message("mgpuCreateSparseEnv: called twice: the program has a cuSPARSE handle already (call "
                       "mgpuDestroySparseEnv() first)");
  check(__func__, &cusparse, "cusparseCreate", s);
  mlirrt_leave(__func__);
}

void mgpuDestroySparseEnv(void) {
  pthread_mutex_lock(&env_mu);
  cusparseHandle_t h = env;
  env = NULL;
  pthread_mutex_unlock(&env_mu);
  if (!h)
    mlirrt_die_message("mgpuDestroySparseEnv: the program has no cuSPARSE handle (mgpuCreateSparseEnv() was not "
                       "called, or mgpuDestroySparseEnv() was called twice)");
  mlirrt_enter(__func__);
  SPCALL(cusparseDestroy, h);
  mlirrt_leave(__func__);
}

void *mgpuCreateDnVec(intptr_t size, void *values, int32_t dtp, CUstream stream) {
  (void)stream;
  (void)SP(cusparseCreateDnVec);
  mlirrt_enter(__func__);
  cusparseDnVecDescr_t vec = NULL;
  SPCALL(cusparseCreateDnVec, &vec, size, values, (cudaDataType)dtp);
  mlirrt_leave(__func__);
  return vec;
}

void mgpuDestroyDnVec(void *vec, CUstream stream) {
  (void)stream;
  (void)SP(cusparseDestroyDnVec);
  mlirrt_enter(__func__);
  SPCALL(cusparseDestroyDnVec, (cusparseDnVecDescr_t)vec);
  mlirrt_leave(__func__);
}

void *mgpuCreateDnMat(intptr_t rows, intptr_t cols, void *values, int32_t dtp, CUstream stream) {
  (void)stream;
  (void)SP(cusparseCreateDnMat);
  mlirrt_enter(__func__);
  cusparseDnMatDescr_t mat = NULL;
  // Row-major, as the lowering's memrefs are: the leading dimension is the number of columns.
  SPCALL(cusparseCreateDnMat, &mat, rows, cols, cols, values, (cudaDataType)dtp, CUSPARSE_ORDER_ROW);
  mlirrt_leave(__func__);
  return mat;
}

void mgpuDestroyDnMat(void *mat, CUstream stream) {
  (void)stream;
  (void)SP(cusparseDestroyDnMat);
  mlirrt_enter(__func__);
  SPCALL(cusparseDestroyDnMat, (cusparseDnMatDescr_t)mat);
  mlirrt_leave(__func__);
}

void *mgpuCreateCoo(intptr_t rows, intptr_t cols, intptr_t nnz, void *rowIdxs, void *colIdxs, void *values,
                    int32_t itp, int32_t dtp, CUstream stream) {
  (void)stream;
  (void)SP(cusparseCreateCoo);
  mlirrt_enter(__func__);
  cusparseSpMatDescr_t mat = NULL;
  SPCALL(cusparseCreateCoo, &mat, rows, cols, nnz, rowIdxs, colIdxs, values, (cusparseIndexType_t)itp,
         CUSPARSE_INDEX_BASE_ZERO, (cudaDataType)dtp);
  mlirrt_leave(__func__);
  return mat;
}

void *mgpuCreateCooAoS(intptr_t rows, intptr_t cols, intptr_t nnz, void *idxs, void *values, int32_t itp,
                       int32_t dtp, CUstream stream) {
  (void)stream;
  (void)SP(cusparseCreateCooAoS);
  mlirrt_enter(__func__);
  cusparseSpMatDescr_t mat = NULL;
  SPCALL(cusparseCreateCooAoS, &mat, rows, cols, nnz, idxs, values, (cusparseIndexType_t)itp,
         CUSPARSE_INDEX_BASE_ZERO, (cudaDataType)dtp);
  mlirrt_leave(__func__);
  return mat;
}

void *mgpuCreateCsr(intptr_t rows, intptr_t cols, intptr_t nnz, void *rowPos, void *colIdxs, void *values,
                    int32_t ptp, int32_t itp, int32_t dtp, CUstream stream) {
  (void)stream;
  (void)SP(cusparseCreateCsr);
  mlirrt_enter(__func__);
  cusparseSpMatDescr_t mat = NULL;
  SPCALL(cusparseCreateCsr, &mat, rows, cols, nnz, rowPos, colIdxs, values, (cusparseIndexType_t)ptp,
         (cusparseIndexType_t)itp, CUSPARSE_INDEX_BASE_ZERO, (cudaDataType)dtp);
  mlirrt_leave(__func__);
  return mat;
}

void *mgpuCreateCsc(intptr_t rows, intptr_t cols, intptr_t nnz, void *colPos, void *rowIdxs, void *values,
                    int32_t ptp, int32_t itp, int32_t dtp, CUstream stream) {
  (void)stream;
  (void)SP(cusparseCreateCsc);
  mlirrt_enter(__func__);
  cusparseSpMatDescr_t mat = NULL;
  SPCALL(cusparseCreateCsc, &mat, rows, cols, nnz, colPos, rowIdxs, values, (cusparseIndexType_t)ptp,
         (cusparseIndexType_t)itp, CUSPARSE_INDEX_BASE_ZERO, (cudaDataType)dtp);
  mlirrt_leave(__func__);
  return mat;
}

void *mgpuCreateBsr(intptr_t brows, intptr_t bcols, intptr_t bnnz, intptr_t rowBlockSize,
                    intptr_t colBlockSize, void *rowPos, void *colIdxs, void *values, int32_t ptp,
                    int32_t itp, int32_t dtp, CUstream stream) {
  (void)stream;
  (void)SP(cusparseCreateBsr);
  mlirrt_enter(__func__);
  cusparseSpMatDescr_t mat = NULL;
  // Blocks stored row-major, as upstream.
  SPCALL(cusparseCreateBsr, &mat, brows, bcols, bnnz, rowBlockSize, colBlockSize, rowPos, colIdxs, values,
         (cusparseIndexType_t)ptp, (cusparseIndexType_t)itp, CUSPARSE_INDEX_BASE_ZERO, (cudaDataType)dtp,
         CUSPARSE_ORDER_ROW);
  mlirrt_leave(__func__);
  return mat;
}

void mgpuDestroySpMat(void *mat, CUstream stream) {
  (void)stream;
  (void)SP(cusparseDestroySpMat);
  mlirrt_enter(__func__);
  SPCALL(cusparseDestroySpMat, (cusparseSpMatDescr_t)mat);
  mlirrt_leave(__func__);
}

void mgpuSpMatGetSize(void *mat, void *rows, void *cols, void *nnz, CUstream stream) {
  (void)stream;
  (void)SP(cusparseSpMatGetSize);
  mlirrt_enter(__func__);
  SPCALL(cusparseSpMatGetSize, (cusparseSpMatDescr_t)mat, (int64_t *)rows, (int64_t *)cols, (int64_t *)nnz);
  mlirrt_leave(__func__);
}

void mgpuSetCsrPointers(void *mat, void *pos, void *idxs, void *values, CUstream stream) {
  (void)stream;
  (void)SP(cusparseCsrSetPointers);
  mlirrt_enter(__func__);
  SPCALL(cusparseCsrSetPointers, (cusparseSpMatDescr_t)mat, pos, idxs, values);
  mlirrt_leave(__func__);
}

intptr_t mgpuSpMVBufferSize(int32_t ma, void *a, void *x, void *y, int32_t ctp, CUstream stream) {
  (void)SP(cusparseSpMV_bufferSize);
  mlirrt_enter(__func__);
  scalar alpha = one(ctp), beta = one(ctp);
  size_t size = 0;
  SPCALL(cusparseSpMV_bufferSize, handle(__func__, stream), (cusparseOperation_t)ma, alpha.bytes,
         (cusparseSpMatDescr_t)a, (cusparseDnVecDescr_t)x, beta.bytes, (cusparseDnVecDescr_t)y,
         (cudaDataType)ctp, CUSPARSE_SPMV_ALG_DEFAULT, &size);
  mlirrt_leave(__func__);
  return (intptr_t)size;
}

void mgpuSpMV(int32_t ma, void *a, void *x, void *y, int32_t ctp, void *buf, CUstream stream) {
  (void)SP(cusparseSpMV);
  mlirrt_enter(__func__);
  scalar alpha = one(ctp), beta = one(ctp);
  SPCALL(cusparseSpMV, handle(__func__, stream), (cusparseOperation_t)ma, alpha.bytes, (cusparseSpMatDescr_t)a,
         (cusparseDnVecDescr_t)x, beta.bytes, (cusparseDnVecDescr_t)y, (cudaDataType)ctp,
         CUSPARSE_SPMV_ALG_DEFAULT, buf);
  mlirrt_leave(__func__);
}

intptr_t mgpuSpMMBufferSize(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, CUstream stream) {
  (void)SP(cusparseSpMM_bufferSize);
  mlirrt_enter(__func__);
  scalar alpha = one(ctp), beta = one(ctp);
  size_t size = 0;
  SPCALL(cusparseSpMM_bufferSize, handle(__func__, stream), (cusparseOperation_t)ma, (cusparseOperation_t)mb,
         alpha.bytes, (cusparseSpMatDescr_t)a, (cusparseDnMatDescr_t)b, beta.bytes, (cusparseDnMatDescr_t)c,
         (cudaDataType)ctp, CUSPARSE_SPMM_ALG_DEFAULT, &size);
  mlirrt_leave(__func__);
  return (intptr_t)size;
}

void mgpuSpMM(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, void *buf, CUstream stream) {
  (void)SP(cusparseSpMM);
  mlirrt_enter(__func__);
  scalar alpha = one(ctp), beta = one(ctp);
  SPCALL(cusparseSpMM, handle(__func__, stream), (cusparseOperation_t)ma, (cusparseOperation_t)mb, alpha.bytes,
         (cusparseSpMatDescr_t)a, (cusparseDnMatDescr_t)b, beta.bytes, (cusparseDnMatDescr_t)c, (cudaDataType)ctp,
         CUSPARSE_SPMM_ALG_DEFAULT, buf);
  mlirrt_leave(__func__);
}

intptr_t mgpuSDDMMBufferSize(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, CUstream stream) {
  (void)SP(cusparseSDDMM_bufferSize);
  mlirrt_enter(__func__);
  scalar alpha = one(ctp), beta = one(ctp);
  size_t size = 0;
  SPCALL(cusparseSDDMM_bufferSize, handle(__func__, stream), (cusparseOperation_t)ma, (cusparseOperation_t)mb,
         alpha.bytes, (cusparseDnMatDescr_t)a, (cusparseDnMatDescr_t)b, beta.bytes, (cusparseSpMatDescr_t)c,
         (cudaDataType)ctp, CUSPARSE_SDDMM_ALG_DEFAULT, &size);
  mlirrt_leave(__func__);
  return (intptr_t)size;
}

void mgpuSDDMM(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, void *buf, CUstream stream) {
  (void)SP(cusparseSDDMM);
  mlirrt_enter(__func__);
  scalar alpha = one(ctp), beta = one(ctp);
  SPCALL(cusparseSDDMM, handle(__func__, stream), (cusparseOperation_t)ma, (cusparseOperation_t)mb, alpha.bytes,
         (cusparseDnMatDescr_t)a, (cusparseDnMatDescr_t)b, beta.bytes, (cusparseSpMatDescr_t)c, (cudaDataType)ctp,
         CUSPARSE_SDDMM_ALG_DEFAULT, buf);
  mlirrt_leave(__func__);
}

void *mgpuSpGEMMCreateDescr(CUstream stream) {
  (void)stream;
  (void)SP(cusparseSpGEMM_createDescr);
  mlirrt_enter(__func__);
  cusparseSpGEMMDescr_t descr = NULL;
  SPCALL(cusparseSpGEMM_createDescr, &descr);
  mlirrt_leave(__func__);
  return descr;
}

void mgpuSpGEMMDestroyDescr(void *descr, CUstream stream) {
  (void)stream;
  (void)SP(cusparseSpGEMM_destroyDescr);
  mlirrt_enter(__func__);
  SPCALL(cusparseSpGEMM_destroyDescr, (cusparseSpGEMMDescr_t)descr);
  mlirrt_leave(__func__);
}

intptr_t mgpuSpGEMMWorkEstimation(void *descr, int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                                  intptr_t bs, void *buf, CUstream stream) {
  (void)SP(cusparseSpGEMM_workEstimation);
  mlirrt_enter(__func__);
  scalar alpha = one(ctp), beta = one(ctp);
  size_t size = (size_t)bs;
  SPCALL(cusparseSpGEMM_workEstimation, handle(__func__, stream), (cusparseOperation_t)ma,
         (cusparseOperation_t)mb, alpha.bytes, (cusparseSpMatDescr_t)a, (cusparseSpMatDescr_t)b, beta.bytes,
         (cusparseSpMatDescr_t)c, (cudaDataType)ctp, CUSPARSE_SPGEMM_DEFAULT, (cusparseSpGEMMDescr_t)descr, &size,
         buf);
  mlirrt_leave(__func__);
  return (intptr_t)size;
}

intptr_t mgpuSpGEMMCompute(void *descr, int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                           intptr_t bs, void *buf, CUstream stream) {
  (void)SP(cusparseSpGEMM_compute);
  mlirrt_enter(__func__);
  scalar alpha = one(ctp), beta = one(ctp);
  size_t size = (size_t)bs;
  SPCALL(cusparseSpGEMM_compute, handle(__func__, stream), (cusparseOperation_t)ma, (cusparseOperation_t)mb,
         alpha.bytes, (cusparseSpMatDescr_t)a, (cusparseSpMatDescr_t)b, beta.bytes, (cusparseSpMatDescr_t)c,
         (cudaDataType)ctp, CUSPARSE_SPGEMM_DEFAULT, (cusparseSpGEMMDescr_t)descr, &size, buf);
  mlirrt_leave(__func__);
  return (intptr_t)size;
}

void mgpuSpGEMMCopy(void *descr, int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, CUstream stream) {
  (void)SP(cusparseSpGEMM_copy);
  mlirrt_enter(__func__);
  scalar alpha = one(ctp), beta = one(ctp);
  SPCALL(cusparseSpGEMM_copy, handle(__func__, stream), (cusparseOperation_t)ma, (cusparseOperation_t)mb,
         alpha.bytes, (cusparseSpMatDescr_t)a, (cusparseSpMatDescr_t)b, beta.bytes, (cusparseSpMatDescr_t)c,
         (cudaDataType)ctp, CUSPARSE_SPGEMM_DEFAULT, (cusparseSpGEMMDescr_t)descr);
  mlirrt_leave(__func__);
}

void mgpuCreateSparseLtEnv(void) {
  (void)LT(cusparseLtInit);
  mlirrt_enter(__func__);
  pthread_mutex_lock(&env_mu);
  int ready = lt_ready;
  cusparseStatus_t s = CUSPARSE_STATUS_SUCCESS;
  if (!ready) {
    memset(&lt_env, 0, sizeof lt_env);
    s = LT(cusparseLtInit)(&lt_env);
    lt_ready = s == CUSPARSE_STATUS_SUCCESS;
  }
  pthread_mutex_unlock(&env_mu);
  if (ready)
    mlirrt_die_message("mgpuCreateSparseLtEnv: called twice: the program has a cuSPARSELt handle already (call "
                       "mgpuDestroySparseLtEnv() first)");
  check(__func__, &cusparselt, "cusparseLtInit", s);
  mlirrt_leave(__func__);
}

void mgpuDestroySparseLtEnv(void) {
  pthread_mutex_lock(&env_mu);
  int ready = lt_ready;
  lt_ready = 0;
  pthread_mutex_unlock(&env_mu);
  if (!ready)
    mlirrt_die_message("mgpuDestroySparseLtEnv: the program has no cuSPARSELt handle (mgpuCreateSparseLtEnv() "
                       "was not called, or mgpuDestroySparseLtEnv() was called twice)");
  mlirrt_enter(__func__);
  LTCALL(cusparseLtDestroy, &lt_env);
  mlirrt_leave(__func__);
}

void mgpuCreateCuSparseLtDnMat(void *dh, intptr_t rows, intptr_t cols, void *values, int32_t dtp,
                               CUstream stream) {
  (void)stream;
  (void)LT(cusparseLtDenseDescriptorInit);
  mlirrt_enter(__func__);
  lt_dnmat *m = dh;
  memset(m, 0, sizeof *m); // cuSPARSELt 0.4 expects zeroed descriptors
  m->values = values;
  // Row-major, 16-byte aligned, as upstream.
  LTCALL(cusparseLtDenseDescriptorInit, lt_handle(__func__), &m->mat, rows, cols, cols, 16, (cudaDataType)dtp,
         CUSPARSE_ORDER_ROW);
  mlirrt_leave(__func__);
}

void mgpuCusparseLtCreate2To4SpMat(void *sh, intptr_t rows, intptr_t cols, void *values, int32_t dtp,
                                   CUstream stream) {
  (void)stream;
  (void)LT(cusparseLtStructuredDescriptorInit);
  mlirrt_enter(__func__);
  lt_spmat *m = sh;
  memset(m, 0, sizeof *m);
  m->values = values;
  LTCALL(cusparseLtStructuredDescriptorInit, lt_handle(__func__), &m->mat, rows, cols, cols, 16,
         (cudaDataType)dtp, CUSPARSE_ORDER_ROW, lt_sparsity_50);
  mlirrt_leave(__func__);
}

// lt_compute is the loaded cuSPARSELt's cusparseComputeType for MLIR's code ctp (0 f16, 1 i32: the
// numbering of cuSPARSELt 0.5 and older, which the lowering was written for). cuSPARSELt 0.6
// renumbered the enum (CUSPARSE_COMPUTE_32I 0, _16F 1, _32F 2) and documents FP16 products with
// CUSPARSE_COMPUTE_32F, which f16 gets there.
static int lt_compute(const char *wrapper, int32_t ctp) {
  (void)wrapper;
  int major = 0, minor = 0;
  void *property = cusparselt.fn[fn_cusparseLtGetProperty];
  if (property) {
    ((__typeof__(&cusparseLtGetProperty))property)(lt_major_version, &major);
    ((__typeof__(&cusparseLtGetProperty))property)(lt_minor_version, &minor);
  }
  if (major == 0 && minor < 6)
    return ctp;
  switch (ctp) {
  case 0:
    return 2; // f16: CUSPARSE_COMPUTE_32F
  case 1:
    return 0; // i32: CUSPARSE_COMPUTE_32I
  default:
    return ctp;
  }
}

void mgpuCuSparseLtSpMMBufferSize(void *bs, int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                                  int32_t pruneFlag, CUstream stream) {
  (void)LT(cusparseLtMatmulDescriptorInit);
  mlirrt_enter(__func__);
  const lt_blob *h = lt_handle(__func__);
  lt_spmat *sa = a;
  lt_dnmat *db = b, *dc = c;
  // D = C: the product accumulates into C.
  LTCALL(cusparseLtMatmulDescriptorInit, h, &sa->matmul, ma, mb, &sa->mat, &db->mat, &dc->mat, &dc->mat,
         lt_compute(__func__, ctp));
  LTCALL(cusparseLtMatmulAlgSelectionInit, h, &sa->alg, &sa->matmul, lt_alg_default);
  LTCALL(cusparseLtMatmulPlanInit, h, &sa->plan, &sa->matmul, &sa->alg);
  if (pruneFlag > 0) // in place
    LTCALL(cusparseLtSpMMAPrune, h, &sa->matmul, sa->values, sa->values, lt_prune_strip, (cudaStream_t)stream);
  if (pruneFlag == 2) {
    CUresult r;
    int *valid = mlirrt_mem_alloc(sizeof(int), 0, &r);
    if (r != CUDA_SUCCESS)
      mlirrt_die("mgpuCuSparseLtSpMMBufferSize: cuMemAlloc (the prune check's result)", r);
    LTCALL(cusparseLtSpMMAPruneCheck, h, &sa->matmul, sa->values, valid, (cudaStream_t)stream);
    int invalid = 0;
    r = cuMemcpyDtoHAsync(&invalid, (CUdeviceptr)(uintptr_t)valid, sizeof invalid, stream);
    if (r == CUDA_SUCCESS)
      r = cuStreamSynchronize(stream);
    if (r != CUDA_SUCCESS)
      mlirrt_die("mgpuCuSparseLtSpMMBufferSize: reading the prune check's result", r);
    cuMemFree((CUdeviceptr)(uintptr_t)valid);
    if (invalid)
      mlirrt_die_message("mgpuCuSparseLtSpMMBufferSize: cusparseLtSpMMAPruneCheck: the pruned matrix is not 2:4 "
                         "sparse (PRUNE_AND_CHECK)");
  }
  size_t workspace = 0, compressed = 0, buffer = 0;
  LTCALL(cusparseLtMatmulGetWorkspace, h, &sa->plan, &workspace);
  LTCALL(cusparseLtSpMMACompressedSize, h, &sa->plan, &compressed, &buffer);
  int64_t sizes[3] = {(int64_t)workspace, (int64_t)compressed, (int64_t)buffer};
  memcpy(bs, sizes, sizeof sizes);
  mlirrt_leave(__func__);
}

void mgpuCuSparseLtSpMM(void *a, void *b, void *c, void *workspace, void *compressed, void *compressBuffer,
                        CUstream stream) {
  (void)LT(cusparseLtMatmul);
  mlirrt_enter(__func__);
  const lt_blob *h = lt_handle(__func__);
  lt_spmat *ma = a;
  lt_dnmat *mb = b, *mc = c;
  cudaStream_t s = (cudaStream_t)stream;
  LTCALL(cusparseLtSpMMACompress, h, &ma->plan, ma->values, compressed, compressBuffer, s);
  // alpha and beta are floats for every compute type; D = C.
  float alpha = 1, beta = 1;
  LTCALL(cusparseLtMatmul, h, &ma->plan, &alpha, compressed, mb->values, &beta, mc->values, mc->values, workspace,
         &s, 1);
  // The plan (and its algorithm selection) belong to this product, as upstream's.
  LTCALL(cusparseLtMatmulPlanDestroy, &ma->plan);
  void *destroy = cusparselt.fn[fn_cusparseLtMatmulAlgSelectionDestroy];
  if (destroy)
    check(__func__, &cusparselt, "cusparseLtMatmulAlgSelectionDestroy",
          ((__typeof__(&cusparseLtMatmulAlgSelectionDestroy))destroy)(&ma->alg));
  mlirrt_leave(__func__);
}

void mgpuDestroyCuSparseLtSpMat(void *sh, CUstream stream) {
  (void)stream;
  (void)LT(cusparseLtMatDescriptorDestroy);
  mlirrt_enter(__func__);
  LTCALL(cusparseLtMatDescriptorDestroy, &((lt_spmat *)sh)->mat);
  mlirrt_leave(__func__);
}

void mgpuDestroyCuSparseLtDnMat(void *dh, CUstream stream) {
  (void)stream;
  (void)LT(cusparseLtMatDescriptorDestroy);
  mlirrt_enter(__func__);
  LTCALL(cusparseLtMatDescriptorDestroy, &((lt_dnmat *)dh)->mat);
  mlirrt_leave(__func__);
}

int mlirrt_sparse_check_library(const char *lib, const char *sonames, const char *wrapper, char *missing,
                                size_t n) {
  const library *known = strcmp(lib, "cusparselt") == 0 ? &cusparselt : &cusparse;
  library l = *known;
  l.fn = calloc((size_t)l.count, sizeof *l.fn);
  l.dl = NULL;
  open_library(&l, sonames ? sonames : known->sonames);
  if (!l.dl)
    die_unloaded(wrapper, &l);
  int found = 0;
  size_t used = 0;
  if (n)
    missing[0] = 0;
  for (int i = 0; i < l.count; i++) {
    if (l.fn[i]) {
      found++;
    } else if (used < n) {
      used += snprintf(missing + used, n - used, "%s%s", used ? " " : "", l.functions[i]);
    }
  }
  free(l.fn);
  return found;
}
