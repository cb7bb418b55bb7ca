// A gpu.module whose name is not a bare identifier: a program's modules become files NAME.*.
module attributes {gpu.container_module} {
  gpu.module @"my kernels" {
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}
