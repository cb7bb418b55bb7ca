#pragma once
// The kernels' host API: each launches its kernel on device memory.
void saxpy(int n, float a, const float *x, float *y);
void scale(int n, float *x);
