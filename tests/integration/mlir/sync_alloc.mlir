// A synchronous gpu.alloc in host code: MLIR's host lowering handles only the async form.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc () : memref<4xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
}
