// openmp/openmp.cu: host code with OpenMP (-fopenmp) beside a kernel: the CPU reference is computed
// by an OpenMP parallel loop with a reduction, on every core, and checked against the GPU's.
// Exit status 0 only when they agree and OpenMP ran with more than one thread where there are
// several cores.
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <vector>

__global__ void square(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}

int main() {
  const int n = 1 << 20;
  std::vector<float> hx(n), hy(n), want(n);
  double sum = 0;
  int threads = 0;
#pragma omp parallel for reduction(+ : sum) reduction(max : threads)
  for (int i = 0; i < n; i++) {
    hx[i] = (i % 1000) / 1000.0f;
    want[i] = hx[i] * hx[i];
    sum += want[i];
    threads = omp_get_num_threads() > threads ? omp_get_num_threads() : threads;
  }
  float *x = nullptr, *y = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess || cudaMalloc(&y, n * sizeof(float)) != cudaSuccess) {
    std::printf("FAIL cudaMalloc: no GPU?\n");
    return 1;
  }
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  square<<<(n + 255) / 256, 256>>>(x, y, n);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("FAIL square: %s\n", cudaGetErrorString(err));
    return 1;
  }
  double got = 0;
#pragma omp parallel for reduction(+ : got)
  for (int i = 0; i < n; i++) got += hy[i];
  bool ok = std::fabs(got - sum) <= 1e-6 * sum;
  bool parallel = omp_get_num_procs() == 1 || threads > 1;
  std::printf("%s openmp: %d elements squared on the GPU, summed by %d OpenMP threads on %d cores: %.6f (the CPU's %.6f)\n",
              ok && parallel ? "ok  " : "FAIL", n, threads, omp_get_num_procs(), got, sum);
  cudaFree(x);
  cudaFree(y);
  return ok && parallel ? 0 : 1;
}
