// seed.cu: the seed failure in runtime-API form. The library is built for sm_80 only, as cubins
// (format = "bin": no PTX to JIT), so on an sm_90 GPU its kernel cannot load.
#include "examples/cuda/seed/seed.h"

__global__ void seed_fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 42;
}

cudaError_t seed_run(int *out, int n) {
  seed_fill<<<(n + 255) / 256, 256>>>(out, n);
  return cudaGetLastError();
}
