// poly.cuh: the device side of the poly library, shared by its two sources (rdc = True).
#ifndef POLY_POLY_CUH_
#define POLY_POLY_CUH_

// The cubic's coefficients, c[0] + c[1] x + c[2] x^2 + c[3] x^3: defined once, in coeffs.cu.
extern __device__ float poly_coeffs[4];

// Evaluates the cubic at x (defined in coeffs.cu, called from apply.cu).
__device__ float poly_eval(float x);

// y[i] = kit_clamp(poly(x[i])) (defined in apply.cu).
__global__ void poly_apply(float *y, const float *x, int n);

#endif  // POLY_POLY_CUH_
