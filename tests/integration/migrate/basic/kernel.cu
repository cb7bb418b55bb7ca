#include "basic/kernel.h"

__global__ void squares(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * i;
}

int gpu_squares(int *out, int n) {
  int *d = nullptr;
  cudaError_t err = cudaMalloc(&d, n * sizeof(int));
  if (err != cudaSuccess) return err;
  squares<<<(n + 127) / 128, 128>>>(d, n);
  err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaMemcpy(out, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return err;
}
