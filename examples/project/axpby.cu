// axpby in CUDA C++ that includes a project's headers: y[i] = 2 x[i] + beta y[i], each thread doing
// VEC_UNROLL elements. vec/vec.h comes from a cc_library (deps), axpby_params.cuh from hdrs.
#include "examples/project/axpby_params.cuh"
#include "vec/vec.h"

extern "C" __global__ void axpby(int n, const float *x, float *y) {
  int first = (blockIdx.x * blockDim.x + threadIdx.x) * VEC_UNROLL;
#pragma unroll
  for (int k = 0; k < VEC_UNROLL; k++) {
    int i = first + k;
    if (i < n) y[i] = vec::axpby(kAlpha, x[i], kBeta, y[i]);
  }
}
