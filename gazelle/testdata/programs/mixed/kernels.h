#pragma once
void run_scale(float *x, int n);
