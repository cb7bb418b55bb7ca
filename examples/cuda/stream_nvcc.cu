// stream_nvcc.cu: device code written for nvcc, which clang rejects (__stcs, a streaming store, on a
// float*): cuda_library compiles it with nvcc (compiler = "nvcc"), its device side one action per
// chip, its host side as nvcc -c does; cuda_test (compiled by clang) launches the kernel through
// stream_scale_run and checks the result.
#include "examples/cuda/kernels.h"

template <typename T>
__global__ void stream_scale(int n, T *x, T a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && isfinite(x[i])) __stcs(&x[i], x[i] * a);
}

cudaError_t stream_scale_run(int n, float *x, float a) {
  stream_scale<float><<<(n + 255) / 256, 256>>>(n, x, a);
  return cudaGetLastError();
}
