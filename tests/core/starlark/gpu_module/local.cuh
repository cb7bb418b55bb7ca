// A header of the analysis tests' CUDA target; never compiled.
