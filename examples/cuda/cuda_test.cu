// cuda_test.cu: launches the libraries' kernels with <<<...>>> (and through their host APIs) on the
// GPU, and checks every result against the CPU. Exit status 0 only when all agree.
#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "examples/cuda/included/fill.h"
#include "examples/cuda/kernels.h"
#include "kit/kit.h"
#include "examples/cuda/poly/poly.cuh"
#include "examples/cuda/poly/poly.h"

static int failures = 0;

// A launch error shows in cudaGetLastError, not in the launch: check it after every launch, or a
// kernel that cannot load on this GPU leaves the results unwritten and nothing says so.
static bool ok(cudaError_t err, const char *what) {
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    std::printf("FAIL %s: %s (%s)\n", what, cudaGetErrorString(err), cudaGetErrorName(err));
    failures++;
    return false;
  }
  return true;
}

template <typename T>
static void expect_near(const char *what, const std::vector<T> &got, const std::vector<T> &want, double tol) {
  for (size_t i = 0; i < want.size(); i++) {
    if (std::fabs(double(got[i]) - double(want[i])) > tol * (1 + std::fabs(double(want[i])))) {
      std::printf("FAIL %s: [%zu] = %.9g, the CPU says %.9g\n", what, i, double(got[i]), double(want[i]));
      failures++;
      return;
    }
  }
  std::printf("ok   %s (%zu values agree with the CPU)\n", what, want.size());
}

// This file's own kernel: x[i] = (i - n/2) / 64.
__global__ void ramp(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = (i - n / 2) / 64.0f;
}

static void test_poly() {
  const int n = 1000;
  const float c[4] = {0.5f, -1.0f, 0.25f, 0.125f};
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  ramp<<<(n + 255) / 256, 256>>>(x, n);
  if (!ok(cudaGetLastError(), "ramp")) return;
  if (!ok(poly_set(c), "poly_set (cudaMemcpyToSymbol of coeffs.cu's __device__ variable)")) return;
  // A kernel of the poly library, launched here: its host stub is in apply.cu's object.
  poly_apply<<<(n + 127) / 128, 128>>>(y, x, n);
  if (!ok(cudaGetLastError(), "poly_apply<<<>>>")) return;
  std::vector<float> hx(n), hy(n), want(n);
  cudaMemcpy(hx.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) {
    float v = hx[i];
    want[i] = kit_clamp(c[0] + v * (c[1] + v * (c[2] + v * c[3])));
  }
  expect_near("poly_apply: apply.cu calls coeffs.cu's poly_eval (rdc)", hy, want, 1e-5);
  // The other way in, through the host API: the same one copy of poly_coeffs.
  const float c2[4] = {1.0f, 0.0f, 0.0f, 0.0f};
  if (!ok(poly_set(c2), "poly_set") || !ok(poly_run(y, x, n), "poly_run")) return;
  cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  expect_near("poly_run after poly_set: one copy of the __device__ variable", hy, std::vector<float>(n, kit_clamp(1.0f)), 0);
  cudaFree(x);
  cudaFree(y);
}

static void test_half_dot() {
  const int n = 4096;
  std::vector<__half> a(n), b(n);
  double want = 0;
  for (int i = 0; i < n; i++) {
    a[i] = __float2half((i % 17) / 8.0f);
    b[i] = __float2half(((i * 7) % 13) / 16.0f - 0.25f);
    want += double(__half2float(a[i])) * double(__half2float(b[i]));
  }
  __half *da, *db;
  float *dout;
  cudaMalloc(&da, n * sizeof(__half));
  cudaMalloc(&db, n * sizeof(__half));
  cudaMalloc(&dout, sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(__half), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(__half), cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, sizeof(float));
  if (!ok(half_dot_run(da, db, dout, n), "half_dot")) return;
  float got = 0;
  cudaMemcpy(&got, dout, sizeof(float), cudaMemcpyDeviceToHost);
  expect_near("half_dot: cuda_fp16, cooperative groups, warp shuffles", std::vector<double>{got}, std::vector<double>{want}, 1e-3);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
}

template <typename T>
static void test_axpy(const char *what) {
  const int n = 777;
  std::vector<T> x(n), y(n), want(n);
  for (int i = 0; i < n; i++) {
    x[i] = T(i) / T(3);
    y[i] = T(n - i);
    want[i] = T(2.5) * x[i] + y[i];
  }
  T *dx, *dy;
  cudaMalloc(&dx, n * sizeof(T));
  cudaMalloc(&dy, n * sizeof(T));
  cudaMemcpy(dx, x.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  if (!ok(axpy_run(T(2.5), dx, dy, n), what)) return;
  cudaMemcpy(y.data(), dy, n * sizeof(T), cudaMemcpyDeviceToHost);
  expect_near(what, y, want, sizeof(T) == 4 ? 1e-6 : 1e-14);
  cudaFree(dx);
  cudaFree(dy);
}

static void test_stream_nvcc() {
  const int n = 300;
  std::vector<float> x(n), want(n);
  for (int i = 0; i < n; i++) {
    x[i] = i % 7 == 0 ? INFINITY : float(i) / 4;
    want[i] = std::isfinite(x[i]) ? x[i] * 3.0f : x[i];
  }
  float *dx;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  if (!ok(stream_scale_run(n, dx, 3.0f), "stream_scale<float> (device side by nvcc)")) return;
  cudaMemcpy(x.data(), dx, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) {
    if (!(x[i] == want[i])) {
      std::printf("FAIL stream_scale<float>: [%d] = %g, the CPU says %g\n", i, x[i], want[i]);
      failures++;
      cudaFree(dx);
      return;
    }
  }
  std::printf("ok   stream_scale<float>: nvcc's device and host code, called from clang's (%d values agree with the CPU)\n", n);
  cudaFree(dx);
}

// A kernel from a .cu that its library's source includes (textual_hdrs).
static void test_included() {
  const int n = 1000;
  std::vector<float> got(n), want(n);
  for (int i = 0; i < n; i++) want[i] = 0.5f + float(i);
  if (!ok(cudaError_t(fill_on_gpu(got.data(), 0.5f, n)), "fill_on_gpu (a kernel of an included .cu)")) return;
  expect_near("fill_kernel (defined in included/fill.cu, textual_hdrs)", got, want, 0);
}

int main() {
  int device = 0;
  cudaDeviceProp prop;
  if (!ok(cudaGetDevice(&device), "cudaGetDevice") || !ok(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties")) return 1;
  std::printf("GPU: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  test_poly();
  test_half_dot();
  test_axpy<float>("axpy<float> (a kernel template)");
  test_axpy<double>("axpy<double> (the same template)");
  test_stream_nvcc();
  test_included();
  std::printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
