// libraries_test.cu: the CUDA toolkit's libraries as targets (@rules_gpu//cuda:cublas, :curand,
// :cccl): cuRAND's generator and a Thrust sort on the GPU and, built with WITH_CUBLAS defined, a
// cuBLAS matrix product, each checked against the CPU. Exit status 0 only when all agree.
#ifdef WITH_CUBLAS
#include <cublas_v2.h>
#endif
#include <curand.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

static int failures = 0;

static void fail(const char *what, const char *why) {
  std::printf("FAIL %s: %s\n", what, why);
  failures++;
}

#ifdef WITH_CUBLAS
// C = A * B for n x n matrices in column-major order, by cuBLAS and by the CPU.
static void gemm(int n) {
  std::vector<float> a(n * n), b(n * n), c(n * n), want(n * n, 0.0f);
  for (int i = 0; i < n * n; i++) {
    a[i] = float(i % 7) - 3.0f;
    b[i] = float(i % 5) * 0.5f;
  }
  for (int j = 0; j < n; j++)
    for (int k = 0; k < n; k++)
      for (int i = 0; i < n; i++) want[i + j * n] += a[i + k * n] * b[k + j * n];
  float *da, *db, *dc;
  size_t bytes = sizeof(float) * n * n;
  if (cudaMalloc(&da, bytes) != cudaSuccess || cudaMalloc(&db, bytes) != cudaSuccess || cudaMalloc(&dc, bytes) != cudaSuccess) {
    fail("cublas", "cudaMalloc failed");
    return;
  }
  cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice);
  cublasHandle_t h;
  const float one = 1.0f, zero = 0.0f;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
    fail("cublas", "cublasCreate failed");
    return;
  }
  cublasStatus_t st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, da, n, db, n, &zero, dc, n);
  cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost);
  cublasDestroy(h);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  if (st != CUBLAS_STATUS_SUCCESS) {
    fail("cublas", "cublasSgemm failed");
    return;
  }
  for (int i = 0; i < n * n; i++) {
    if (std::fabs(c[i] - want[i]) > 1e-3f * (1 + std::fabs(want[i]))) {
      std::printf("FAIL cublas: C[%d] = %g, the CPU says %g\n", i, c[i], want[i]);
      failures++;
      return;
    }
  }
  std::printf("ok   cublas (%dx%d Sgemm agrees with the CPU)\n", n, n);
}
#endif

// cuRAND's default generator: uniform numbers in (0, 1] with a mean near 1/2.
static void uniform(int n) {
  float *d;
  std::vector<float> got(n);
  curandGenerator_t g;
  if (cudaMalloc(&d, sizeof(float) * n) != cudaSuccess || curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS) {
    fail("curand", "cudaMalloc or curandCreateGenerator failed");
    return;
  }
  curandSetPseudoRandomGeneratorSeed(g, 1234);
  curandStatus_t st = curandGenerateUniform(g, d, n);
  cudaMemcpy(got.data(), d, sizeof(float) * n, cudaMemcpyDeviceToHost);
  curandDestroyGenerator(g);
  cudaFree(d);
  if (st != CURAND_STATUS_SUCCESS) {
    fail("curand", "curandGenerateUniform failed");
    return;
  }
  double sum = 0;
  for (float x : got) {
    if (!(x > 0.0f && x <= 1.0f)) {
      std::printf("FAIL curand: %g is outside (0, 1]\n", x);
      failures++;
      return;
    }
    sum += x;
  }
  if (std::fabs(sum / n - 0.5) > 0.01) {
    std::printf("FAIL curand: mean %g, want 0.5 +- 0.01\n", sum / n);
    failures++;
    return;
  }
  std::printf("ok   curand (%d uniform numbers in (0, 1], mean %.4f)\n", n, sum / n);
}

// Thrust's sort on the GPU against std::sort.
static void sort(int n) {
  std::vector<int> host(n);
  for (int i = 0; i < n; i++) host[i] = (i * 7919) % 10007 - 5000;
  thrust::device_vector<int> dev(host.begin(), host.end());
  thrust::sort(dev.begin(), dev.end());
  std::vector<int> got(n);
  thrust::copy(dev.begin(), dev.end(), got.begin());
  std::sort(host.begin(), host.end());
  if (got != host) {
    fail("thrust", "the GPU's order differs from std::sort's");
    return;
  }
  std::printf("ok   thrust (%d integers sorted on the GPU, as std::sort sorts them)\n", n);
}

int main() {
#ifdef WITH_CUBLAS
  gemm(64);
#endif
  uniform(1 << 16);
  sort(100000);
  if (failures) {
    std::printf("%d failed\n", failures);
    return 1;
  }
  std::printf("all passed\n");
  return 0;
}
