#include "common/vec.h"
#include "local.cuh"
__global__ void k() {}
