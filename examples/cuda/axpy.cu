// axpy.cu: one kernel template, instantiated for float and double by its two launchers.
#include "examples/cuda/kernels.h"

template <typename T>
__global__ void axpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

template <typename T>
static cudaError_t run(T a, const T *x, T *y, int n) {
  axpy<T><<<(n + 255) / 256, 256>>>(a, x, y, n);
  return cudaGetLastError();
}

cudaError_t axpy_run(float a, const float *x, float *y, int n) { return run(a, x, y, n); }
cudaError_t axpy_run(double a, const double *x, double *y, int n) { return run(a, x, y, n); }
