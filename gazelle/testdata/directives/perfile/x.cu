#include "x.cuh"
__global__ void x() { xhelper(); }
