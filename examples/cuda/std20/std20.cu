// C++20 on both sides of one source: a constrained template that device code instantiates and
// host code calls, and a consteval block size. Built with copts = ["-std=c++20"]; under clang's
// default standard (C++17) both the device and the host compile reject `requires` and `consteval`.
#include <cstdio>

#include <cuda_runtime.h>

template <typename T>
  requires(sizeof(T) == 4)
__host__ __device__ T twice(T x) { return x + x; }

consteval int block() { return 64; }

__global__ void twice_all(float* p) { p[threadIdx.x] = twice(p[threadIdx.x]); }

int main() {
  float host[block()];
  for (int i = 0; i < block(); i++) host[i] = float(i);
  float* dev = nullptr;
  if (cudaMalloc(&dev, sizeof host) != cudaSuccess) return 2;
  cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice);
  twice_all<<<1, block()>>>(dev);
  cudaError_t err = cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(dev);
  if (err != cudaSuccess) {
    std::printf("std20: %s\n", cudaGetErrorString(err));
    return 1;
  }
  for (int i = 0; i < block(); i++) {
    if (host[i] != twice(float(i))) {
      std::printf("std20: element %d is %g, want %g\n", i, host[i], twice(float(i)));
      return 1;
    }
  }
  std::printf("std20: %d elements doubled by a C++20 kernel: OK\n", block());
  return 0;
}
