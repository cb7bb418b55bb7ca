// clamp_kernel.cu: included by stats.cu, not compiled on its own (a textual header of the library).
// __stcs stores with the streaming cache hint: each value is written once and not read again here.
__global__ void clamp_kernel(const float *x, float *out, int n, float lo, float hi) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float v = x[i];
    __stcs(out + i, v != v ? lo : fminf(fmaxf(v, lo), hi));
  }
}
