// A CUDA C++ program, as a binary and as a test (rules_cuda's basic_macros example's shape).
#include <cstdio>

__global__ void triangle(int *out) { out[threadIdx.x] = threadIdx.x * (threadIdx.x + 1) / 2; }

int main() {
  int *d = nullptr, v[6];
  if (cudaMalloc(&d, sizeof v) != cudaSuccess) {
    std::printf("basic_macros: no GPU\n");
    return 1;
  }
  triangle<<<1, 6>>>(d);
  cudaError_t err = cudaMemcpy(v, d, sizeof v, cudaMemcpyDeviceToHost);
  std::printf("basic_macros: triangle numbers %d %d %d %d %d %d (%s)\n", v[0], v[1], v[2], v[3], v[4], v[5], cudaGetErrorString(err));
  return err == cudaSuccess && v[5] == 15 ? 0 : 1;
}
