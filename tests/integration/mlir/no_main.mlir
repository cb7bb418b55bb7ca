// Kernels and no host entry point: a gpu_module, not a program.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
