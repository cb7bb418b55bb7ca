// Block reductions with gpu.all_reduce: two blocks of 40 threads (a full warp and a partial one)
// reduce values made from their thread ids with add and maxnumf (f32) and with and (i32); thread 0
// of each block stores its block's results.
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c40 = arith.constant 40 : index
    %sums = memref.alloc() : memref<2xf32>
    %maxs = memref.alloc() : memref<2xf32>
    %ands = memref.alloc() : memref<2xi32>
    %sumsu = memref.cast %sums : memref<2xf32> to memref<*xf32>
    %maxsu = memref.cast %maxs : memref<2xf32> to memref<*xf32>
    %andsu = memref.cast %ands : memref<2xi32> to memref<*xi32>
    gpu.host_register %sumsu : memref<*xf32>
    gpu.host_register %maxsu : memref<*xf32>
    gpu.host_register %andsu : memref<*xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c40, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %c255 = arith.constant 255 : i32
      %c256 = arith.constant 256 : i32
      // The global thread id 40 * bx + tx: block 0 holds 0..39, block 1 holds 40..79.
      %base = arith.muli %bx, %sx : index
      %id = arith.addi %base, %tx : index
      %id32 = arith.index_cast %id : index to i32
      %f = arith.sitofp %id32 : i32 to f32
      %sum = gpu.all_reduce add %f uniform {} : (f32) -> (f32)
      %max = gpu.all_reduce maxnumf %f uniform {} : (f32) -> (f32)
      // 256 * bx + 255 - tx: 216..255 in block 0, 472..511 in block 1.
      %tx32 = arith.index_cast %tx : index to i32
      %bx32 = arith.index_cast %bx : index to i32
      %hi = arith.muli %bx32, %c256 : i32
      %lo = arith.subi %c255, %tx32 : i32
      %v = arith.addi %hi, %lo : i32
      %and = gpu.all_reduce and %v uniform {} : (i32) -> (i32)
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        memref.store %sum, %sums[%bx] : memref<2xf32>
        memref.store %max, %maxs[%bx] : memref<2xf32>
        memref.store %and, %ands[%bx] : memref<2xi32>
      }
      gpu.terminator
    }
    // Sums: 0 + ... + 39 = 780 and 40 + ... + 79 = 780 + 40 * 40 = 2380.
    call @printMemrefF32(%sumsu) : (memref<*xf32>) -> ()
    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
    // CHECK-NEXT: [780,  2380]
    call @printMemrefF32(%maxsu) : (memref<*xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
    // CHECK-NEXT: [39,  79]
    // The bits that every value of a block has: 0b11000000 = 192, and 256 + 192 = 448.
    call @printMemrefI32(%andsu) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
    // CHECK-NEXT: [192,  448]
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
}
