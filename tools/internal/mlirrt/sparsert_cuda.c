//go:build cuda

// The typed entry points of MLIR's sparse tensor runtime library (upstream SparseTensorRuntime.h,
// LLVM 21), one per value type or overhead width as upstream names them, each calling the Go
// function (sparsert_cuda.go) that serves every type, with the type and its own name for messages.

#include "_cgo_export.h"
#include "sparsert_cuda.h"

// Value types: upstream's PrimaryType numbers (sparsert.go's Primary).
#define MLIRRT_SPARSE_VALUE(V, CODE)                                                               \
  void _mlir_ciface_sparseValues##V(mlirrt_memref1 *out, void *tensor) {                           \
    mlirrtSparseValues(out, tensor, CODE, "sparseValues" #V);                                      \
  }                                                                                                \
  void _mlir_ciface_lexInsert##V(void *tensor, mlirrt_memref1 *lvlCoords, mlirrt_memref0 *value) { \
    mlirrtLexInsert(tensor, lvlCoords, value, CODE, "lexInsert" #V);                               \
  }                                                                                                \
  void _mlir_ciface_expInsert##V(void *tensor, mlirrt_memref1 *lvlCoords, mlirrt_memref1 *values,  \
                                 mlirrt_memref1 *filled, mlirrt_memref1 *added, uint64_t count) {  \
    mlirrtExpInsert(tensor, lvlCoords, values, filled, added, count, CODE, "expInsert" #V);        \
  }

MLIRRT_SPARSE_VALUE(F64, 1)
MLIRRT_SPARSE_VALUE(F32, 2)
MLIRRT_SPARSE_VALUE(F16, 3)
MLIRRT_SPARSE_VALUE(BF16, 4)
MLIRRT_SPARSE_VALUE(I64, 5)
MLIRRT_SPARSE_VALUE(I32, 6)
MLIRRT_SPARSE_VALUE(I16, 7)
MLIRRT_SPARSE_VALUE(I8, 8)
MLIRRT_SPARSE_VALUE(C64, 9)
MLIRRT_SPARSE_VALUE(C32, 10)

// Overhead widths: the bits in the name, 0 for index.
#define MLIRRT_SPARSE_OVERHEAD(BITS)                                                                \
  void _mlir_ciface_sparsePositions##BITS(mlirrt_memref1 *out, void *tensor, uint64_t lvl) {        \
    mlirrtSparseOverhead(out, tensor, lvl, BITS, 0, "sparsePositions" #BITS);                       \
  }                                                                                                 \
  void _mlir_ciface_sparseCoordinates##BITS(mlirrt_memref1 *out, void *tensor, uint64_t lvl) {      \
    mlirrtSparseOverhead(out, tensor, lvl, BITS, 1, "sparseCoordinates" #BITS);                     \
  }                                                                                                 \
  void _mlir_ciface_sparseCoordinatesBuffer##BITS(mlirrt_memref1 *out, void *tensor, uint64_t lvl) { \
    mlirrtSparseOverhead(out, tensor, lvl, BITS, 2, "sparseCoordinatesBuffer" #BITS);               \
  }

MLIRRT_SPARSE_OVERHEAD(0)
MLIRRT_SPARSE_OVERHEAD(64)
MLIRRT_SPARSE_OVERHEAD(32)
MLIRRT_SPARSE_OVERHEAD(16)
MLIRRT_SPARSE_OVERHEAD(8)
