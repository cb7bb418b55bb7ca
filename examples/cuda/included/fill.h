// fill.h: the host API of launch.cu.
#pragma once

// fill_on_gpu sets x[i] = v + i for i < n on the GPU; it returns the CUDA error (0: none).
int fill_on_gpu(float *x, float v, int n);
