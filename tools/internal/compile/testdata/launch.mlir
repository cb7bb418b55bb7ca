// An MLIR integration-test style program: host code in @main with a gpu.launch region, which the
// lowering outlines into gpu.module @main_kernel (the kernel @main_kernel).
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %mem = memref.alloc() : memref<4xf32>
  %d = gpu.alloc () : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %d[%tx] : memref<4xf32>
    gpu.terminator
  }
  gpu.memcpy %mem, %d : memref<4xf32>, memref<4xf32>
  return
}
