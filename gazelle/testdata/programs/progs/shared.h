#pragma once
#define N 256
