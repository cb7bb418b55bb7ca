// coeffs.cu: only a __device__ variable and a __device__ function, for apply.cu: no kernel here.
#include "examples/cuda/poly/poly.cuh"
#include "examples/cuda/poly/poly.h"

__device__ float poly_coeffs[4];

__device__ float poly_eval(float x) {
  return poly_coeffs[0] + x * (poly_coeffs[1] + x * (poly_coeffs[2] + x * poly_coeffs[3]));
}

cudaError_t poly_set(const float c[4]) {
  return cudaMemcpyToSymbol(poly_coeffs, c, 4 * sizeof(float));
}
