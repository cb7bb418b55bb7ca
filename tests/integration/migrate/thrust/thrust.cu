// Thrust's algorithms launch kernels, so the source is a cuda_library's (rules_cuda's thrust example's shape).
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <cstdio>

int main() {
  int init[8] = {42, 7, 19, 3, 88, 61, 25, 10};
  thrust::device_vector<int> v(init, init + 8);
  thrust::sort(v.begin(), v.end());
  int total = thrust::reduce(v.begin(), v.end());
  std::printf("thrust: sorted");
  for (int i = 0; i < 8; i++) std::printf(" %d", int(v[i]));
  std::printf(", sum %d\n", total);
  return v[0] == 3 && v[7] == 88 && total == 255 ? 0 : 1;
}
