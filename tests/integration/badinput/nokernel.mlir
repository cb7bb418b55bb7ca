// A gpu.module with a function but no kernel (the gpu.func lacks the kernel attribute).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @helper(%n: i32) -> i32 {
      gpu.return %n : i32
    }
  }
}
