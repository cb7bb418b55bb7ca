#include <cublas_v2.h>
#include <curand_kernel.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

void sort_and_scale(thrust::device_vector<float> &v, cublasHandle_t h) {
  thrust::sort(v.begin(), v.end());
  float a = 2.0f;
  cublasSscal(h, int(v.size()), &a, thrust::raw_pointer_cast(v.data()), 1);
}
