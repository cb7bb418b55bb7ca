// nvcc/rdc_test.cu: the poly library's relocatable device code, checked against the CPU: apply.cu's
// kernel calls coeffs.cu's __device__ function, which reads coeffs.cu's __device__ variable. Built
// against poly_nvcc (both sources in one library, nvcc, linked for each chip by nvlink) and, with
// RDC_BUILD naming the build, against poly_split and poly_split_nvcc (coeffs.cu a cuda_objects that
// the library of apply.cu device-links). Exit status 0 only when every check agrees.
#include <cmath>
#include <cstdio>
#include <vector>

#include "examples/cuda/poly/poly.cuh"
#include "examples/cuda/poly/poly.h"
#include "kit/kit.h"

#ifdef RDC_BUILD
#define RDC_STR2(x) #x
#define RDC_STR(x) RDC_STR2(x)
#define HOW RDC_STR(RDC_BUILD)
#else
#define HOW "nvcc rdc, nvlink"
#endif

static int failures = 0;

static bool ok(cudaError_t err, const char *what) {
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    std::printf("FAIL %s: %s (%s)\n", what, cudaGetErrorString(err), cudaGetErrorName(err));
    failures++;
  }
  return err == cudaSuccess;
}

static void expect(const char *what, const std::vector<float> &got, const std::vector<float> &want) {
  for (size_t i = 0; i < want.size(); i++) {
    if (std::fabs(got[i] - want[i]) > 1e-5f * (1 + std::fabs(want[i]))) {
      std::printf("FAIL %s: [%zu] = %.9g, the CPU says %.9g\n", what, i, got[i], want[i]);
      failures++;
      return;
    }
  }
  std::printf("ok   %s (%zu values agree with the CPU)\n", what, want.size());
}

int main() {
  const int n = 1000;
  std::vector<float> hx(n), hy(n), want(n);
  const float c[4] = {0.5f, -1.0f, 0.25f, 0.125f};
  for (int i = 0; i < n; i++) {
    float x = (i - n / 2) / 64.0f;
    hx[i] = x;
    want[i] = kit_clamp(c[0] + x * (c[1] + x * (c[2] + x * c[3])));
  }
  float *x = nullptr, *y = nullptr;
  if (!ok(cudaMalloc(&x, n * sizeof(float)), "cudaMalloc") || !ok(cudaMalloc(&y, n * sizeof(float)), "cudaMalloc")) return 1;
  if (!ok(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy")) return 1;
  if (ok(poly_set(c), "poly_set (cudaMemcpyToSymbol of coeffs.cu's __device__ variable)") &&
      ok(poly_run(y, x, n), "poly_run") &&
      ok(cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy")) {
    expect("poly_run: apply.cu calls coeffs.cu's poly_eval (" HOW ")", hy, want);
  }
  // The kernel launched here, through its host stub in apply.cu's object.
  poly_apply<<<(n + 127) / 128, 128>>>(y, x, n);
  if (ok(cudaGetLastError(), "poly_apply<<<>>>") &&
      ok(cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy")) {
    expect("poly_apply<<<>>>: one copy of poly_coeffs", hy, want);
  }
  cudaFree(x);
  cudaFree(y);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
