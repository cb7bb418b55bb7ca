#include "vec/vec.h"
#include "nowhere.h"
#include <nowhere_either.h>
__global__ void k() {}
