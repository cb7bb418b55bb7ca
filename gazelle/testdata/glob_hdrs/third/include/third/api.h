#pragma once
inline __host__ __device__ float third_scale() { return 2.0f; }
