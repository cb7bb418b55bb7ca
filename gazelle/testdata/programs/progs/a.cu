#include "shared.h"
#include "a_only.cuh"

int main() {
  a_kernel<<<1, N>>>(nullptr);
  return 0;
}
