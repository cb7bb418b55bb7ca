// A second gpu.module source for the analysis tests (two MLIR sources in one gpu_module); never compiled.
