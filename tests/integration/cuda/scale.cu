// scale.cu: a kernel that calls twice.cu's __device__ function.
#include "scale.h"

__device__ float twice(float x);

__global__ void scale(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = twice(y[i]);
}

cudaError_t scale_run(float *y, int n) {
  scale<<<(n + 255) / 256, 256>>>(y, n);
  return cudaGetLastError();
}
