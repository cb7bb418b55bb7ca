#include "cuda_runtime.h"
#include "common.cuh"
#include "util.h"

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = index1d();
  if (i < n) y[i] = scale(a, x[i]) + y[i];
}
