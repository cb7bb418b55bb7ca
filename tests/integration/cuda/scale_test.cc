// scale_test.cc: a GPU test (gpu_cc_test) over the scale library: it needs a GPU to pass.
#include <cstdio>

#include "scale.h"

int main() {
  float h[4] = {1, 2, 3, 4}, *d = nullptr;
  if (cudaMalloc(&d, sizeof h) != cudaSuccess) {
    std::printf("no GPU\n");
    return 1;
  }
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaError_t err = scale_run(d, 4);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%s: %g %g %g %g\n", cudaGetErrorName(err), h[0], h[1], h[2], h[3]);
  return err == cudaSuccess && h[3] == 8 ? 0 : 1;
}
