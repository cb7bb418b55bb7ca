// launch.cu: includes fill.cu, the kernel it launches.
#include "examples/cuda/included/fill.cu"
#include "examples/cuda/included/fill.h"

int fill_on_gpu(float *x, float v, int n) {
  float *d = nullptr;
  cudaError_t err = cudaMalloc(&d, sizeof(float) * n);
  if (err != cudaSuccess) return err;
  fill_kernel<<<(n + 127) / 128, 128>>>(d, v, n);
  err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaMemcpy(x, d, sizeof(float) * n, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return err;
}
