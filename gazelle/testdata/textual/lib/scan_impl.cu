__global__ void scan_kernel(const int *in, int *out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = in[i];
}
