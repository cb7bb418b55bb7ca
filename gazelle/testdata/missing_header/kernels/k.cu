#include "vec/vec.h"
#include "nowhere.h"
#include <nowhere_either.h>
#include <helper_cuda.h>
__global__ void k() {}
