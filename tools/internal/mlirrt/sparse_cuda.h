// sparse_cuda.h declares the sparse wrappers of package mlirrt (sparse_cuda.c): the mgpu* functions
// that LLVM 21's gpu-to-llvm lowering calls for the gpu dialect's sparse ops, over cuSPARSE and
// cuSPARSELt, which the runtime loads at run time (dlopen) on first use. The signatures are the
// lowering's, as mlir-opt-21 declares them (i64 is intptr_t, i32 int32_t, ptr a pointer); every
// wrapper takes the op's stream last.
//
// Type codes the lowering computes: dtp and ctp are cudaDataType values (CUDA_R_32F 0, CUDA_R_64F 1,
// CUDA_R_16F 2, CUDA_C_32F 4, CUDA_R_16BF 14, ...), ptp and itp cusparseIndexType_t values
// (CUSPARSE_INDEX_16U 1, CUSPARSE_INDEX_32I 2, CUSPARSE_INDEX_64I 3: index is 64-bit), ma and mb
// cusparseOperation_t values (0 non-transposed). The cuSPARSELt compute type of
// mgpuCuSparseLtSpMMBufferSize is MLIR's own: 0 for f16, 1 for i32 (cuSPARSELt 0.5 and older
// numbered its enum so; sparse_cuda.c translates for newer versions).
#ifndef MLIRRT_SPARSE_CUDA_H
#define MLIRRT_SPARSE_CUDA_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

// The cuSPARSE handle: programs call mgpuCreateSparseEnv before their first SpMV, SpMM, SDDMM or
// SpGEMM and mgpuDestroySparseEnv after the last (MLIR's sparse GPU tests declare both and call them
// from main); cuSPARSELt likewise has mgpuCreateSparseLtEnv and mgpuDestroySparseLtEnv.
void mgpuCreateSparseEnv(void);
void mgpuDestroySparseEnv(void);
void mgpuCreateSparseLtEnv(void);
void mgpuDestroySparseLtEnv(void);

// Dense vectors and row-major dense matrices (gpu.create_dn_tensor, gpu.destroy_dn_tensor).
void *mgpuCreateDnVec(intptr_t size, void *values, int32_t dtp, CUstream stream);
void mgpuDestroyDnVec(void *vec, CUstream stream);
void *mgpuCreateDnMat(intptr_t rows, intptr_t cols, void *values, int32_t dtp, CUstream stream);
void mgpuDestroyDnMat(void *mat, CUstream stream);

// Sparse matrices, with zero-based indices (gpu.create_coo, create_coo_aos, create_csr, create_csc,
// create_bsr, destroy_sp_mat, spmat_get_size, set_csr_pointers). cuSPARSE 12 has no COO AoS.
void *mgpuCreateCoo(intptr_t rows, intptr_t cols, intptr_t nnz, void *rowIdxs, void *colIdxs, void *values,
                    int32_t itp, int32_t dtp, CUstream stream);
void *mgpuCreateCooAoS(intptr_t rows, intptr_t cols, intptr_t nnz, void *idxs, void *values, int32_t itp,
                       int32_t dtp, CUstream stream);
void *mgpuCreateCsr(intptr_t rows, intptr_t cols, intptr_t nnz, void *rowPos, void *colIdxs, void *values,
                    int32_t ptp, int32_t itp, int32_t dtp, CUstream stream);
void *mgpuCreateCsc(intptr_t rows, intptr_t cols, intptr_t nnz, void *colPos, void *rowIdxs, void *values,
                    int32_t ptp, int32_t itp, int32_t dtp, CUstream stream);
void *mgpuCreateBsr(intptr_t brows, intptr_t bcols, intptr_t bnnz, intptr_t rowBlockSize,
                    intptr_t colBlockSize, void *rowPos, void *colIdxs, void *values, int32_t ptp,
                    int32_t itp, int32_t dtp, CUstream stream);
void mgpuDestroySpMat(void *mat, CUstream stream);
void mgpuSpMatGetSize(void *mat, void *rows, void *cols, void *nnz, CUstream stream);
void mgpuSetCsrPointers(void *mat, void *pos, void *idxs, void *values, CUstream stream);

// The products, with alpha and beta 1 in the compute type ctp, as upstream: y = A x + y,
// C = op(A) op(B) + C, and for SDDMM (C sparse) C = op(A) op(B) + C at C's nonzeros only. A buffer size is in bytes.
intptr_t mgpuSpMVBufferSize(int32_t ma, void *a, void *x, void *y, int32_t ctp, CUstream stream);
void mgpuSpMV(int32_t ma, void *a, void *x, void *y, int32_t ctp, void *buf, CUstream stream);
intptr_t mgpuSpMMBufferSize(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, CUstream stream);
void mgpuSpMM(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, void *buf, CUstream stream);
intptr_t mgpuSDDMMBufferSize(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, CUstream stream);
void mgpuSDDMM(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, void *buf, CUstream stream);

// SpGEMM, C = op(A) op(B) with A, B and C CSR (gpu.spgemm_*): the work estimation and compute steps
// return the buffer size they need, given bs and buf (null and 0 to ask).
void *mgpuSpGEMMCreateDescr(CUstream stream);
void mgpuSpGEMMDestroyDescr(void *descr, CUstream stream);
intptr_t mgpuSpGEMMWorkEstimation(void *descr, int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                                  intptr_t bs, void *buf, CUstream stream);
intptr_t mgpuSpGEMMCompute(void *descr, int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                           intptr_t bs, void *buf, CUstream stream);
void mgpuSpGEMMCopy(void *descr, int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, CUstream stream);

// 2:4 structured sparsity over cuSPARSELt (gpu.create_2to4_spmat and the spmm ops on it). The
// lowering allocates the handles on the stack, mlirrt_sparselt_spmat_size and
// mlirrt_sparselt_dnmat_size bytes (sparse_cuda.c checks its layouts against them), and
// mgpuCuSparseLtSpMMBufferSize writes three int64 sizes into bs: the workspace, the compressed
// matrix and the compression's buffer, which the program allocates and passes to mgpuCuSparseLtSpMM.
// pruneFlag is 0 (the matrix is 2:4 already), 1 (prune it in place) or 2 (prune and check).
enum { mlirrt_sparselt_spmat_size = 44104, mlirrt_sparselt_dnmat_size = 11032 };
void mgpuCusparseLtCreate2To4SpMat(void *sh, intptr_t rows, intptr_t cols, void *values, int32_t dtp,
                                   CUstream stream);
void mgpuCreateCuSparseLtDnMat(void *dh, intptr_t rows, intptr_t cols, void *values, int32_t dtp,
                               CUstream stream);
void mgpuCuSparseLtSpMMBufferSize(void *bs, int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                                  int32_t pruneFlag, CUstream stream);
void mgpuCuSparseLtSpMM(void *a, void *b, void *c, void *workspace, void *compressed, void *compressBuffer,
                        CUstream stream);
void mgpuDestroyCuSparseLtSpMat(void *sh, CUstream stream);
void mgpuDestroyCuSparseLtDnMat(void *dh, CUstream stream);

// For the tests (sparse_testhooks_cuda.go): mlirrt_sparse_check_library loads library "cusparse" or
// "cusparselt" as the wrappers do, but afresh and from sonames (colon-separated; NULL for the
// runtime's own list), and on failure reports and exits as a wrapper named wrapper would. It
// returns the number of the wrappers' symbols that resolved and writes the names of the others,
// space-separated, into missing (n bytes).
int mlirrt_sparse_check_library(const char *lib, const char *sonames, const char *wrapper, char *missing,
                                size_t n);

#endif // MLIRRT_SPARSE_CUDA_H
