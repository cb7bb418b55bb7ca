#pragma once
__device__ inline float scale(float a, float x) { return a * x; }
