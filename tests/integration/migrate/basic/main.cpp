// A C++ program over a cuda_library (rules_cuda's basic example's shape).
#include <cstdio>

#include "basic/kernel.h"

int main() {
  int v[8];
  if (int err = gpu_squares(v, 8)) {
    std::printf("basic: CUDA error %d\n", err);
    return 1;
  }
  std::printf("basic: squares");
  for (int x : v) std::printf(" %d", x);
  std::printf("\n");
  return v[7] == 49 ? 0 : 1;
}
