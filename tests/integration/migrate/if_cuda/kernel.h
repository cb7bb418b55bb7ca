#pragma once
// The sum 1 + 2 + ... + n, computed on the GPU; -1 on a CUDA error.
int gpu_sum_to(int n);
