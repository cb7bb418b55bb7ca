#pragma once
// y = a * common_scale(x) + y on the GPU, n elements (device pointers).
void saxpy(int n, float a, const float *x, float *y);
