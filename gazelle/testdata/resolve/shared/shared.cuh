#pragma once
#include "common/vec.h"
__device__ float twice(float x);
