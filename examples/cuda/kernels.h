// kernels.h: the host API of the kernels library (each source its own module).
#ifndef EXAMPLES_CUDA_KERNELS_H_
#define EXAMPLES_CUDA_KERNELS_H_

#include <cuda_runtime.h>

// out += sum(a[i] * b[i]) over n half-precision elements (a and b are __half *).
cudaError_t half_dot_run(const void *a, const void *b, float *out, int n);

// y = a x + y, for float and double.
cudaError_t axpy_run(float a, const float *x, float *y, int n);
cudaError_t axpy_run(double a, const double *x, double *y, int n);

// x[i] *= a where x[i] is finite, with streaming stores (compiled by nvcc: stream_nvcc.cu).
cudaError_t stream_scale_run(int n, float *x, float a);

#endif  // EXAMPLES_CUDA_KERNELS_H_
