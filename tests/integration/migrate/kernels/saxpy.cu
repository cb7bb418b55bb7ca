#include "kernels/saxpy.h"
#include "common.h"

__global__ void saxpy_kernel(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * common_scale(x[i]) + y[i];
}

void saxpy(int n, float a, const float *x, float *y) {
  saxpy_kernel<<<(n + 255) / 256, 256>>>(n, a, x, y);
}
