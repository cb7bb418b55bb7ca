// half_dot.cu: CUDA's header libraries in a kernel: half types (cuda_fp16.h), cooperative groups
// and warp shuffles.
#include <cooperative_groups.h>
#include <cuda_fp16.h>

#include "examples/cuda/kernels.h"

namespace cg = cooperative_groups;

__global__ void half_dot(const __half *a, const __half *b, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    sum += __half2float(__hmul(a[i], b[i]));
  }
  for (int offset = warp.size() / 2; offset > 0; offset /= 2) {
    sum += warp.shfl_down(sum, offset);
  }
  if (warp.thread_rank() == 0) atomicAdd(out, sum);
}

cudaError_t half_dot_run(const void *a, const void *b, float *out, int n) {
  half_dot<<<8, 256>>>(static_cast<const __half *>(a), static_cast<const __half *>(b), out, n);
  return cudaGetLastError();
}
