// poly.h: the host API of the poly library.
#ifndef POLY_POLY_H_
#define POLY_POLY_H_

#include <cuda_runtime.h>

// Sets the cubic's coefficients on the device.
cudaError_t poly_set(const float c[4]);

// Launches poly_apply over n elements of device memory.
cudaError_t poly_run(float *y, const float *x, int n);

#endif  // POLY_POLY_H_
