// Includes a header that no dependency of its target provides.
#include "vec/vec.h"

extern "C" __global__ void scale(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = vec::axpby(2.0f, x[i], 0.0f, 0.0f);
}
