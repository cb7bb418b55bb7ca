#include <cstdio>

#include "shared.h"

int main() {
  std::printf("%d\n", N);
  return 0;
}
