// A host entry point that returns a float: not an exit status.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() -> f32 {
    %f = arith.constant 1.0 : f32
    return %f : f32
  }
}
