#pragma once
#define CHECK_CUDA(x) (x)
