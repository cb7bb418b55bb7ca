#ifndef EXAMPLES_CUDA_SEED_SEED_H_
#define EXAMPLES_CUDA_SEED_SEED_H_

#include <cuda_runtime.h>

// Fills out[0..n) with 42 on the GPU; returns the launch's error.
cudaError_t seed_run(int *out, int n);

#endif  // EXAMPLES_CUDA_SEED_SEED_H_
