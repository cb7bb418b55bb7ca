// CUDA C++ as it is written for nvcc, host side included, which clang's CUDA mode rejects:
//   - host code calls max and min on ints and floats (nvcc's headers declare them for the host; clang's
//     do not), and isfinite without <cmath>;
//   - clock() and CLOCKS_PER_SEC without <ctime> (nvcc's cuda_runtime.h brings <time.h>);
//   - kernels of internal linkage (an anonymous namespace, static), whose names nvcc derives from the
//     source's path: the per-chip device compiles and the host compile must agree on them;
//   - a streaming store (__stcs) on a float*.
// Built with compiler = "nvcc": nvcc compiles every chip's device side and the host side, which
// carries the fatbin of rules_gpu's per-chip actions. Prints "nvcc_style: OK" when every kernel ran.
#include <cstdio>

namespace {
__global__ void clamp_all(int n, float *x, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = min(max(x[i], lo), hi);
}
}  // namespace

static __global__ void count_finite(int n, const float *x, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && isfinite(x[i])) atomicAdd(count, 1);
}

__global__ void stream_copy(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __stcs(&y[i], x[i]);
}

int main() {
  const int n = 1000;
  clock_t start = clock();
  int threads = min(256, max(32, n / 4));  // host max/min on ints
  int blocks = (n + threads - 1) / threads;
  float host[n];
  for (int i = 0; i < n; i++) host[i] = i % 7 == 0 ? 1.0f / 0.0f : float(i) - 500.0f;
  float *x = nullptr, *y = nullptr;
  int *count = nullptr;
  if (cudaMalloc(&x, sizeof host) != cudaSuccess || cudaMalloc(&y, sizeof host) != cudaSuccess ||
      cudaMalloc(&count, sizeof(int)) != cudaSuccess) {
    std::printf("nvcc_style: no device memory\n");
    return 2;
  }
  cudaMemcpy(x, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemset(count, 0, sizeof(int));
  count_finite<<<blocks, threads>>>(n, x, count);
  clamp_all<<<blocks, threads>>>(n, x, -100.0f, 100.0f);
  stream_copy<<<blocks, threads>>>(n, x, y);
  int finite = 0;
  cudaMemcpy(&finite, count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaError_t err = cudaMemcpy(host, y, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(x);
  cudaFree(y);
  cudaFree(count);
  if (err != cudaSuccess) {
    std::printf("nvcc_style: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int want_finite = n - (n + 6) / 7;
  if (finite != want_finite) {
    std::printf("nvcc_style: %d finite values counted, want %d\n", finite, want_finite);
    return 1;
  }
  for (int i = 0; i < n; i++) {
    float want = i % 7 == 0 ? 100.0f : min(max(float(i) - 500.0f, -100.0f), 100.0f);  // host max/min on floats
    if (host[i] != want || !isfinite(host[i])) {
      std::printf("nvcc_style: element %d is %g, want %g\n", i, host[i], want);
      return 1;
    }
  }
  double seconds = double(clock() - start) / CLOCKS_PER_SEC;
  std::printf("nvcc_style: %d elements through 3 kernels (%d blocks of %d) in %.3f s of CPU: OK\n", n, blocks, threads, seconds);
  return 0;
}
