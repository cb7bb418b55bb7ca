#include "x.cuh"
#include "detail.h"
__global__ void y() { xhelper(); }
