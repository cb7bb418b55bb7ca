// main.cc: runs the out-of-bounds kernel once (examples/cuda/oob). Without a sanitizer the stray
// write usually lands in the allocation's padding and nothing is seen; under compute-sanitizer it is
// reported, with the file and line when the device code carries debug information.
#include <cstdio>

#include "examples/cuda/oob/oob.h"

int main() {
  const int n = 1000;
  float *x = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) {
    std::printf("cudaMalloc failed\n");
    return 1;
  }
  cudaError_t err = fill_one_too_many(x, n);
  cudaFree(x);
  std::printf("fill_one_too_many: %s\n", cudaGetErrorString(err));
  return err == cudaSuccess ? 0 : 1;
}
