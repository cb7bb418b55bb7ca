// CUDA C++ for the analysis tests; never compiled (analysis only).
