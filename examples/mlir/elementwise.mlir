// Element-wise kernels over memrefs, written as MLIR's GPU integration tests are: host memory
// registered with the GPU, a gpu.launch region (outlined into gpu.module @main_kernel), and the
// result printed by printMemrefF32.
module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %two = arith.constant 2.0 : f32
    %x = memref.alloc() : memref<8xf32>
    %y = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<8xf32>
      memref.store %two, %y[%i] : memref<8xf32>
    }
    %xu = memref.cast %x : memref<8xf32> to memref<*xf32>
    %yu = memref.cast %y : memref<8xf32> to memref<*xf32>
    gpu.host_register %xu : memref<*xf32>
    gpu.host_register %yu : memref<*xf32>
    // y = 3 * x + y, one thread per element.
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %a = arith.constant 3.0 : f32
      %xv = memref.load %x[%tx] : memref<8xf32>
      %yv = memref.load %y[%tx] : memref<8xf32>
      %p = arith.mulf %a, %xv : f32
      %s = arith.addf %p, %yv : f32
      memref.store %s, %y[%tx] : memref<8xf32>
      gpu.terminator
    }
    call @printMemrefF32(%yu) : (memref<*xf32>) -> ()
    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
    // CHECK-NEXT: [2,  5,  8,  11,  14,  17,  20,  23]
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
