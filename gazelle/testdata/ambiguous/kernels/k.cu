#include "b/shared.h"
__global__ void k() {}
