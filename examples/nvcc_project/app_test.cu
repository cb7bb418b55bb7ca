// app_test.cu: a program written for nvcc. Its data has NaNs and infinities; the CPU reference is
// computed by OpenMP loops, the GPU clamps the data (stats.cu's kernel), cuBLAS sums the squares
// (cublasSdot) and Thrust sorts the result. Exit status 0 only when every GPU result agrees with
// the CPU's.
#include <cublas_v2.h>
#include <omp.h>
#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "stats.cuh"

static int failures = 0;

static void report(bool ok, const char *what, const char *detail) {
  std::printf("%s %s: %s\n", ok ? "ok  " : "FAIL", what, detail);
  failures += ok ? 0 : 1;
}

int main() {
  const int n = 1 << 20;
  std::vector<float> x(n);
  for (int i = 0; i < n; i++) x[i] = float(int(static_cast<long long>(i) * 7919 % 2001) - 1000) / 100.0f;
  x[3] = 0.0f / 0.0f;
  x[n / 2] = 1.0f / 0.0f;
  x[n - 1] = -1.0f / 0.0f;

  int finite = finite_count(x.data(), n);
  float lo, hi;
  finite_range(x.data(), n, &lo, &hi);
  char buf[200];
  std::snprintf(buf, sizeof buf, "%d of %d values finite, in [%.2f, %.2f]", finite, n, lo, hi);
  report(finite == n - 3 && lo == -10.0f && hi == 10.0f, "host max/min and isfinite", buf);

  // The CPU's clamp and sum of squares, by OpenMP.
  const float cl = -5.0f, ch = 5.0f;
  std::vector<float> want(n);
  double squares = 0;
  int threads = 0;
#pragma omp parallel for reduction(+ : squares) reduction(max : threads)
  for (int i = 0; i < n; i++) {
    float v = x[i];
    want[i] = v != v ? cl : std::min(std::max(v, cl), ch);
    squares += double(want[i]) * want[i];
    threads = std::max(threads, omp_get_num_threads());
  }

  float *dx = nullptr, *dy = nullptr;
  if (cudaMalloc(&dx, n * sizeof(float)) != cudaSuccess || cudaMalloc(&dy, n * sizeof(float)) != cudaSuccess) {
    report(false, "cudaMalloc", "no GPU?");
    return 1;
  }
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  clamp_on_gpu(dx, dy, n, cl, ch);
  cudaError_t err = cudaGetLastError();
  std::vector<float> got(n);
  if (err == cudaSuccess) err = cudaMemcpy(got.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
#pragma omp parallel for reduction(+ : wrong)
  for (int i = 0; i < n; i++) wrong += got[i] != want[i];
  std::snprintf(buf, sizeof buf, "%d values clamped to [%.0f, %.0f] on the GPU (__stcs), %d differ from %d OpenMP threads' (%s)", n, cl, ch,
                wrong, threads, cudaGetErrorString(err));
  report(err == cudaSuccess && wrong == 0, "clamp", buf);

  cublasHandle_t h;
  float dot = 0;
  cublasStatus_t st = cublasCreate(&h);
  if (st == CUBLAS_STATUS_SUCCESS) {
    st = cublasSdot(h, n, dy, 1, dy, 1, &dot);
    cublasDestroy(h);
  }
  std::snprintf(buf, sizeof buf, "sum of squares %.1f (OpenMP: %.1f), status %d", dot, squares, int(st));
  report(st == CUBLAS_STATUS_SUCCESS && std::abs(dot - squares) <= 1e-4 * squares, "cublasSdot", buf);

  thrust::device_ptr<float> p(dy);
  thrust::sort(p, p + n);
  std::vector<float> sorted(n);
  thrust::copy(p, p + n, sorted.begin());
  std::sort(want.begin(), want.end());
  std::snprintf(buf, sizeof buf, "%d values sorted on the GPU, as std::sort sorts them: %s", n, sorted == want ? "yes" : "no");
  report(sorted == want, "thrust::sort", buf);

  cudaFree(dx);
  cudaFree(dy);
  return failures == 0 ? 0 : 1;
}
