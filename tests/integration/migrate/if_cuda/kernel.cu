#include "if_cuda/kernel.h"

__global__ void sum_to(int n, int *out) {
  atomicAdd(out, threadIdx.x + 1 <= n ? threadIdx.x + 1 : 0);
}

int gpu_sum_to(int n) {
  int *d = nullptr, h = -1;
  if (cudaMalloc(&d, sizeof h) != cudaSuccess) return -1;
  cudaMemset(d, 0, sizeof h);
  sum_to<<<1, 128>>>(n, d);
  if (cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) h = -1;
  cudaFree(d);
  return h;
}
