#pragma once
__device__ float poly_eval(float x);
