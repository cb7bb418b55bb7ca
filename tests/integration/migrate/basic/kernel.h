#pragma once
// Fills out[0..n) with i * i on the GPU; returns 0, or the CUDA error.
int gpu_squares(int *out, int n);
