// main() lives here, in a cuda_objects target; the program is a cc_binary with no sources
// (rules_cuda's rdc example's shape).
#include <cstdio>

#include "b.cuh"

__global__ void fill() { rdc_table[threadIdx.x] = rdc_weight(threadIdx.x); }

int main() {
  int host[RDC_N], *dev = nullptr, sum = 0;
  fill<<<1, RDC_N>>>();
  if (cudaGetSymbolAddress((void **)&dev, rdc_table) != cudaSuccess ||
      cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("rdc: CUDA error %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  for (int v : host) sum += v;
  std::printf("rdc: %s (sum %d)\n", sum == 92 ? "PASSED" : "FAILED", sum);
  return sum == 92 ? 0 : 1;
}
