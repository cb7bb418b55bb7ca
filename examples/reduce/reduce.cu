// reduce_sum in CUDA C++: *out += sum(x[0..n)), one 256-thread block per 256 elements: a tree
// reduction in shared memory, then one atomic add per block.
extern "C" __global__ void reduce_sum(int n, const float *x, float *out) {
  __shared__ float sh[256];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  sh[tid] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (tid < s) sh[tid] += sh[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, sh[0]);
}
