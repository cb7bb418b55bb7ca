// main.cc: runs seed_fill and says what happened. Without checking cudaGetLastError after the
// launch, a kernel that cannot load leaves the output unwritten and the program carries on.
#include <cstdio>
#include <vector>

#include "examples/cuda/seed/seed.h"

int main() {
  const int n = 256;
  int *d = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemset(d, 0, n * sizeof(int));
  cudaError_t launch = seed_run(d, n);
  cudaError_t sync = cudaDeviceSynchronize();
  std::vector<int> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  int right = 0;
  for (int v : h) right += v == 42;
  std::printf("launch: %s (%s); synchronize: %s; %d of %d values written\n", cudaGetErrorName(launch),
              cudaGetErrorString(launch), cudaGetErrorName(sync), right, n);
  return launch == cudaSuccess && right == n ? 0 : 1;
}
