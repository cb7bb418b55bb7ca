// oob.cu: a kernel with an out-of-bounds write, for compute-sanitizer. Built with -c dbg, the
// sanitizer's report names this file and the line of the bad store (docs/gpu-results.md).
#include "examples/cuda/oob/oob.h"

__global__ void fill(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) {  // the bug: <= where < was meant
    x[i] = 1.0f;
  }
}

cudaError_t fill_one_too_many(float *x, int n) {
  fill<<<(n + 1 + 127) / 128, 128>>>(x, n);
  cudaError_t err = cudaGetLastError();
  return err != cudaSuccess ? err : cudaDeviceSynchronize();
}
