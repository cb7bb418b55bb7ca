#include <cstring>

#include "saxpy_cc.h"

int main() {
  const unsigned char magic[] = {0x50, 0xed, 0x55, 0xba};
  return saxpy_cc_size > 4 && std::memcmp(saxpy_cc, magic, 4) == 0 &&
                 std::strcmp(saxpy_cc_kernels[0], "saxpy") == 0
             ? 0
             : 1;
}
