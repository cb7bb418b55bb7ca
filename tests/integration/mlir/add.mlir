// A program as MLIR's GPU integration tests write them: host memory registered with the GPU, a
// gpu.launch region (outlined into gpu.module @main_kernel), the result printed and checked.
module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %m[%i] : memref<4xf32>
    }
    %u = memref.cast %m : memref<4xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %ten = arith.constant 10.0 : f32
      %v = memref.load %m[%tx] : memref<4xf32>
      %w = arith.addf %v, %ten : f32
      memref.store %w, %m[%tx] : memref<4xf32>
      gpu.terminator
    }
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // CHECK: [10,  11,  12,  13]
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
