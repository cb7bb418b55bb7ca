// twice.cu: a __device__ function and a __device__ variable for scale.cu (rdc), and no kernel.
__device__ float factor = 2.0f;

__device__ float twice(float x) { return factor * x; }
