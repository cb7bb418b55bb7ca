// The C library that gpu_cc_library generates carries the fatbin that gpu_module built, byte for
// byte, aligned, NUL-terminated, with its kernels. Usage: embed_test ARTIFACT
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "examples/saxpy/saxpy_cc.h"

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  std::FILE *f = std::fopen(argv[1], "rb");
  if (!f) { std::perror(argv[1]); return 1; }
  std::vector<unsigned char> want;
  for (int c; (c = std::fgetc(f)) != EOF;) want.push_back(static_cast<unsigned char>(c));
  std::fclose(f);
  int bad = 0;
  if (saxpy_cc_size != want.size() || std::memcmp(saxpy_cc, want.data(), want.size()) != 0) {
    std::printf("FAIL: the embedded %zu bytes are not %s (%zu bytes)\n", saxpy_cc_size, argv[1], want.size());
    bad = 1;
  }
  if (saxpy_cc[saxpy_cc_size] != 0) { std::puts("FAIL: no NUL after the bytes"); bad = 1; }
  if (reinterpret_cast<std::uintptr_t>(saxpy_cc) % 16 != 0) { std::puts("FAIL: not 16-byte aligned"); bad = 1; }
  if (!saxpy_cc_kernels[0] || std::strcmp(saxpy_cc_kernels[0], "saxpy") != 0 || saxpy_cc_kernels[1]) {
    std::puts("FAIL: kernels are not {\"saxpy\"}");
    bad = 1;
  }
  if (!bad) std::printf("ok: %zu bytes of %s embedded, kernel saxpy\n", saxpy_cc_size, argv[1]);
  return bad;
}
