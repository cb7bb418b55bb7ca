#include <cuda_runtime.h>
#include "common/common.h"
#include "index.cuh"
#include "kernels/api.h"

__global__ void saxpy_kernel(int n, float a, const float *x, float *y) {
  int i = global_index();
  if (i < n) y[i] = a * common_scale(x[i]) + y[i];
}

void saxpy(int n, float a, const float *x, float *y) {
  saxpy_kernel<<<(n + 255) / 256, 256>>>(n, a, x, y);
}
