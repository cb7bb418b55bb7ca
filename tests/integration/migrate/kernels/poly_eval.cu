#include "kernels/poly.cuh"
#include "common.h"

__device__ float poly_eval(float x) { return common_scale(x) * x + 1.0f; }
