#pragma once
__device__ inline int index1d() { return blockIdx.x * blockDim.x + threadIdx.x; }
