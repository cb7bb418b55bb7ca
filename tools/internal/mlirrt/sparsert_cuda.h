// sparsert_cuda.h declares the memref descriptors that the sparse tensor runtime's entry points
// (sparsert_cuda.c, sparsert_cuda.go) take, as upstream's StridedMemRefType<T, 1> and
// StridedMemRefType<T, 0> (mlir/ExecutionEngine/CRunnerUtils.h) lay them out.
#ifndef MLIRRT_SPARSERT_CUDA_H
#define MLIRRT_SPARSERT_CUDA_H

#include <stdint.h>

typedef struct {
  void *base, *data;
  int64_t offset, size, stride;
} mlirrt_memref1;

typedef struct {
  void *base, *data;
  int64_t offset;
} mlirrt_memref0;

#endif // MLIRRT_SPARSERT_CUDA_H
