#include "helpers.h"
__global__ void b() {}
