/* A stand-in for a toolkit's include/cuda.h in the analysis tests. */
