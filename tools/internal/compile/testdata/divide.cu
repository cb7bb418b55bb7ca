// divide in CUDA C++: y[i] = x[i] / y[i], to see fast math reach the code (div.rn.f32 or div.approx).
extern "C" __global__ void divide(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] / y[i];
}
