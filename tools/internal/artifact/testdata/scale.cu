// A small kernel for the toolkit oracle tests: nvcc and ptxas build it, cuobjdump reads our fatbins.
extern "C" __global__ void scale(int n, float a, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
