#pragma once
__device__ inline int global_index() { return blockIdx.x * blockDim.x + threadIdx.x; }
