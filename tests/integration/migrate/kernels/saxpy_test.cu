#include <cstdio>
#include <cuda_runtime.h>

#include "kernels/poly.h"
#include "kernels/saxpy.h"

// y = 3 * (2 * 1) + 1 = 7, then poly: 2 * 7 * 7 + 1 = 99.
int main() {
  const int n = 1000;
  float *x, *y;
  if (cudaMallocManaged(&x, n * sizeof(float)) != cudaSuccess || cudaMallocManaged(&y, n * sizeof(float)) != cudaSuccess) {
    std::fprintf(stderr, "cudaMallocManaged failed\n");
    return 1;
  }
  for (int i = 0; i < n; i++) x[i] = 1.0f, y[i] = 1.0f;
  cudaError_t err;
  saxpy(n, 3.0f, x, y);
  if ((err = cudaGetLastError()) != cudaSuccess || (err = cudaDeviceSynchronize()) != cudaSuccess) {
    std::fprintf(stderr, "saxpy: CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  poly_apply(n, y);
  if ((err = cudaGetLastError()) != cudaSuccess || (err = cudaDeviceSynchronize()) != cudaSuccess) {
    std::fprintf(stderr, "poly_apply: CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  for (int i = 0; i < n; i++) {
    if (y[i] != 99.0f) {
      std::fprintf(stderr, "y[%d] = %f, want 99\n", i, y[i]);
      return 1;
    }
  }
  std::printf("PASS saxpy_test: 1000 elements\n");
  return 0;
}
