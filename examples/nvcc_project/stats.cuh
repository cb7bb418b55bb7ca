// stats.cuh: a small statistics library written for nvcc (see BUILD.bazel).
#pragma once

// How many of x[0..n) are finite (neither NaN nor infinite).
int finite_count(const float *x, int n);

// The smallest and largest finite values of x[0..n).
void finite_range(const float *x, int n, float *lo, float *hi);

// out[i] = x[i] clamped to [lo, hi] (NaN to lo), for device pointers, on the GPU.
void clamp_on_gpu(const float *x, float *out, int n, float lo, float hi);
