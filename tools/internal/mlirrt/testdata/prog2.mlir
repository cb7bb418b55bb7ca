func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %mem = memref.alloc() : memref<4xf32>
  %cast = memref.cast %mem : memref<4xf32> to memref<*xf32>
  gpu.host_register %cast : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %mem[%tx] : memref<4xf32>
    gpu.terminator
  }
  call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(%ptr : memref<*xf32>)
