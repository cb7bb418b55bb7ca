#include "a.cuh"
__global__ void a() {}
