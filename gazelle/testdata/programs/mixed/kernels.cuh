#pragma once
__global__ void scale(float *x, float a);
