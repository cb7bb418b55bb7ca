#pragma once
void scan(const int *in, int *out, int n);
