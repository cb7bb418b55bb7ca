// stats.cu: host code as nvcc accepts it and clang does not: max and min on the host (nvcc's
// headers declare them for host code too) and isfinite without <cmath> (nvcc's runtime headers
// bring it). The kernel is in clamp_kernel.cu, which this file includes (it is compiled here,
// not on its own).
#include "stats.cuh"

#include "clamp_kernel.cu"

int finite_count(const float *x, int n) {
  int count = 0;
  for (int i = 0; i < n; i++) count += isfinite(x[i]) ? 1 : 0;
  return count;
}

void finite_range(const float *x, int n, float *lo, float *hi) {
  float a = 3.0e38f, b = -3.0e38f;
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) continue;
    a = min(a, x[i]);
    b = max(b, x[i]);
  }
  *lo = a;
  *hi = b;
}

void clamp_on_gpu(const float *x, float *out, int n, float lo, float hi) {
  int block = 256, grid = max(1, min((n + block - 1) / block, 4096));
  clamp_kernel<<<grid, block>>>(x, out, n, lo, hi);
}
