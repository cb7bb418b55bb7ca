// oob.h: a launch that writes one element past the end of its buffer (examples/cuda/oob).
#pragma once

#include <cuda_runtime.h>

// Fills x[0..n] with 1: one element too many. Returns the launch's and the synchronisation's error.
cudaError_t fill_one_too_many(float *x, int n);
