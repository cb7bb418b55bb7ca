#include "../common/vec.h"
__global__ void k2() {}
