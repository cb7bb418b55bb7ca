#include "kernels.cuh"
#include "kernels.h"

__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }

void run_scale(float *x, int n) { scale<<<1, n>>>(x, 2.0f); }
