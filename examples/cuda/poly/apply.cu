// apply.cu: a kernel that calls coeffs.cu's __device__ function, and so reads its __device__ variable.
#include "kit/kit.h"
#include "examples/cuda/poly/poly.cuh"
#include "examples/cuda/poly/poly.h"

__global__ void poly_apply(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = kit_clamp(poly_eval(x[i]));
}

cudaError_t poly_run(float *y, const float *x, int n) {
  poly_apply<<<(n + 127) / 128, 128>>>(y, x, n);
  return cudaGetLastError();
}
