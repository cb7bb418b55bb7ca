// Code written for nvcc that clang rejects: __stcs (a streaming store) on a float*, and isfinite
// without <cmath> (nvcc's headers declare both). compiler = "nvcc" builds it, one action per chip.
extern "C" __global__ void scale_finite(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && isfinite(x[i])) __stcs(&x[i], x[i] * 2.0f);
}
