// A whole program: a host @main launches a kernel and prints the result, which its CHECK lines check.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%x: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %x[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %x = memref.alloc() : memref<4xf32>
    %xu = memref.cast %x : memref<4xf32> to memref<*xf32>
    gpu.host_register %xu : memref<*xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    call @printMemrefF32(%xu) : (memref<*xf32>) -> ()
    // CHECK: [1,  1,  1,  1]
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
