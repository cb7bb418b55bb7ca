// fill.cu: a kernel in a .cu that another source includes (launch.cu), as projects written for nvcc
// often have: not compiled on its own, it is the cuda_library's textual_hdrs.
__global__ void fill_kernel(float *x, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v + i;
}
