#include "b.cuh"

__device__ int rdc_table[RDC_N];

__device__ int rdc_weight(int i) { return 3 * i + 1; }
