// Host code written for nvcc (host max/min, isfinite without <cmath>) and a kernel of internal
// linkage: compiler = "nvcc" compiles both sides (tests/integration/cuda_test.sh, cuda/nvcc).
namespace {
__global__ void clamp(float *x, float lo, float hi) { x[threadIdx.x] = min(max(x[threadIdx.x], lo), hi); }
}  // namespace

int clamp_all(float *x, int n) {
  clamp<<<1, max(1, min(n, 1024))>>>(x, -1.0f, 1.0f);
  return isfinite(float(n)) ? 0 : 1;
}
