// A small kernel program (m[i] = 2 * i) built three ways in BUILD.bazel: a fatbin for sm_80 (its
// PTX lets sm_90 run it), PTX only (jit), and an sm_80 cubin only (bin), which sm_90 cannot load.
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %m = memref.alloc() : memref<8xi32>
    %mu = memref.cast %m : memref<8xi32> to memref<*xi32>
    gpu.host_register %mu : memref<*xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %two = arith.constant 2 : i32
      %t = arith.index_cast %tx : index to i32
      %v = arith.muli %t, %two : i32
      memref.store %v, %m[%tx] : memref<8xi32>
      gpu.terminator
    }
    call @printMemrefI32(%mu) : (memref<*xi32>) -> ()
    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
    // CHECK-NEXT: [0,  2,  4,  6,  8,  10,  12,  14]
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
