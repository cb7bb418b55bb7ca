#include <cstdio>

#include "shared.h"

__global__ void b_kernel() {}

int main(int argc, char **argv) {
  b_kernel<<<1, N>>>();
  std::printf("%d\n", argc);
  return 0;
}
