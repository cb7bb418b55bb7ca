// Warp shuffles (gpu.shuffle xor, down and idx) among the 8 threads of one block, shuffle width 8:
// each thread holds 10 * its id, and each row of the 5x8 result is one shuffle pattern.
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<5x8xf32>
    %outu = memref.cast %out : memref<5x8xf32> to memref<*xf32>
    gpu.host_register %outu : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %r0 = arith.constant 0 : index
      %r1 = arith.constant 1 : index
      %r2 = arith.constant 2 : index
      %r3 = arith.constant 3 : index
      %r4 = arith.constant 4 : index
      %i1 = arith.constant 1 : i32
      %i2 = arith.constant 2 : i32
      %i3 = arith.constant 3 : i32
      %i4 = arith.constant 4 : i32
      %i5 = arith.constant 5 : i32
      %i7 = arith.constant 7 : i32
      %ten = arith.constant 10.0 : f32
      %none = arith.constant -1.0 : f32
      %width = arith.index_cast %sx : index to i32
      %lane = arith.index_cast %tx : index to i32
      %lanef = arith.sitofp %lane : i32 to f32
      %v = arith.mulf %lanef, %ten : f32
      // Row 0: swap with the neighbour (lane ^ 1).
      %x1, %x1ok = gpu.shuffle xor %v, %i1, %width : f32
      memref.store %x1, %out[%r0, %tx] : memref<5x8xf32>
      // Row 1: butterfly sum over the 8 lanes (xor 4, 2, 1): 0 + 10 + ... + 70 = 280 everywhere.
      %a4, %a4ok = gpu.shuffle xor %v, %i4, %width : f32
      %s4 = arith.addf %v, %a4 : f32
      %a2, %a2ok = gpu.shuffle xor %s4, %i2, %width : f32
      %s2 = arith.addf %s4, %a2 : f32
      %a1, %a1ok = gpu.shuffle xor %s2, %i1, %width : f32
      %s1 = arith.addf %s2, %a1 : f32
      memref.store %s1, %out[%r1, %tx] : memref<5x8xf32>
      // Row 2: the value of lane + 3; lanes 5..7 have no such lane (invalid): -1.
      %d3, %d3ok = gpu.shuffle down %v, %i3, %width : f32
      %d3v = arith.select %d3ok, %d3, %none : f32
      memref.store %d3v, %out[%r2, %tx] : memref<5x8xf32>
      // Row 3: lane 5's value broadcast.
      %b5, %b5ok = gpu.shuffle idx %v, %i5, %width : f32
      memref.store %b5, %out[%r3, %tx] : memref<5x8xf32>
      // Row 4: the lanes reversed (lane 7 - lane).
      %rev = arith.subi %i7, %lane : i32
      %rv, %rvok = gpu.shuffle idx %v, %rev, %width : f32
      memref.store %rv, %out[%r4, %tx] : memref<5x8xf32>
      gpu.terminator
    }
    call @printMemrefF32(%outu) : (memref<*xf32>) -> ()
    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [5, 8] strides = [8, 1] data =
    // CHECK-NEXT: {{\[\[}}10,   0,   30,   20,   50,   40,   70,   60],
    // CHECK-NEXT: [280,   280,   280,   280,   280,   280,   280,   280],
    // CHECK-NEXT: [30,   40,   50,   60,   70,   -1,   -1,   -1],
    // CHECK-NEXT: [50,   50,   50,   50,   50,   50,   50,   50],
    // CHECK-NEXT: [70,   60,   50,   40,   30,   20,   10,   0]]
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
