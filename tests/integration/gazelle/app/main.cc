#include <cstdio>

#include <cuda_runtime.h>

#include "kernels/api.h"

int main() {
  const int n = 4;
  float *x = nullptr, *y = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess || cudaMalloc(&y, n * sizeof(float)) != cudaSuccess) {
    std::printf("no GPU\n");
    return 1;
  }
  scale(n, x);
  saxpy(n, 2.0f, x, y);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
