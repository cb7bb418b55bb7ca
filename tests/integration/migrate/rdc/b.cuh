#pragma once
#define RDC_N 8
// Defined in b.cu, used by a.cu's kernel: device code linked across files.
extern __device__ int rdc_table[RDC_N];
__device__ int rdc_weight(int i);
