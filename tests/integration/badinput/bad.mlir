// A malformed MLIR file: %undefined is used but never defined.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%n: i32) kernel {
      %x = arith.addi %n, %undefined : i32
      gpu.return
    }
  }
}
