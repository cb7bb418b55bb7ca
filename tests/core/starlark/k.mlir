// A gpu.module for the analysis tests; never compiled (analysis only).
