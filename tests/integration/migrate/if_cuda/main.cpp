#include <cstdio>

#ifdef CUDA_ENABLED
#include "if_cuda/kernel.h"
#endif

int main() {
#ifdef CUDA_ENABLED
  int s = gpu_sum_to(100);
  std::printf("if_cuda: CUDA enabled, 1 + ... + 100 = %d\n", s);
  return s == 5050 ? 0 : 1;
#else
  std::printf("if_cuda: CUDA not enabled\n");
  return 0;
#endif
}
