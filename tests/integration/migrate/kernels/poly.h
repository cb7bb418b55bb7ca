#pragma once
// y[i] = poly_eval(y[i]) on the GPU (device pointer).
void poly_apply(int n, float *y);
