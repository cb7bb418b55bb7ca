#pragma once
__global__ void a_kernel(float *x) { x[threadIdx.x] = 1.0f; }
