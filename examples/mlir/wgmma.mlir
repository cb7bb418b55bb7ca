// A warpgroup MMA (sm_90a): C = A * B for f16 A (64x64) and B (64x64), f32 accumulators, by one
// warpgroup (128 threads). TMA loads A and B into shared memory (128-byte swizzle, which
// nvgpu.warpgroup.generate.descriptor needs), nvgpu.warpgroup.mma multiplies (four wgmma
// m64n64k16), nvgpu.warpgroup.mma.store writes C to device memory. A[i][k] = (i + 3k) mod 7 - 3
// and B[k][j] = (2k + 5j) mod 11 - 5, periodic in neither index over 8 elements (a 16-byte chunk
// out of place under the swizzle changes the result); the host prints C's rows 0 and 62, the sum
// of its elements and a weighted sum, each ((3i + j) mod 7 + 1) times C[i][j].
!a = memref<64x64xf16, 3>
!b = memref<64x64xf16, 3>
!tmaA = !nvgpu.tensormap.descriptor<tensor = !a, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmaB = !nvgpu.tensormap.descriptor<tensor = !b, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
module attributes {gpu.container_module} {
  memref.global "private" @smemA : !a {alignment = 1024}
  memref.global "private" @smemB : !b {alignment = 1024}
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %i3c = arith.constant 3 : i32
    %i5c = arith.constant 5 : i32
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %a = memref.alloc() : memref<64x64xf16>
    %b = memref.alloc() : memref<64x64xf16>
    %c = memref.alloc() : memref<64x64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        // A[i][j] = (i + 3j) mod 7 - 3, B[i][j] = (2i + 5j) mod 11 - 5.
        %j3 = arith.muli %j, %c3 : index
        %sa = arith.addi %i, %j3 : index
        %ma = arith.remui %sa, %c7 : index
        %i2 = arith.muli %i, %c2 : index
        %j5 = arith.muli %j, %c5 : index
        %sb = arith.addi %i2, %j5 : index
        %mb = arith.remui %sb, %c11 : index
        %ai = arith.index_cast %ma : index to i32
        %bi = arith.index_cast %mb : index to i32
        %av = arith.subi %ai, %i3c : i32
        %bv = arith.subi %bi, %i5c : i32
        %af = arith.sitofp %av : i32 to f16
        %bf = arith.sitofp %bv : i32 to f16
        memref.store %af, %a[%i, %j] : memref<64x64xf16>
        memref.store %bf, %b[%i, %j] : memref<64x64xf16>
      }
    }
    %t0 = gpu.wait async
    %da, %t1 = gpu.alloc async [%t0] () : memref<64x64xf16>
    %db, %t2 = gpu.alloc async [%t1] () : memref<64x64xf16>
    %dc, %t3 = gpu.alloc async [%t2] () : memref<64x64xf32>
    %t4 = gpu.memcpy async [%t3] %da, %a : memref<64x64xf16>, memref<64x64xf16>
    %t5 = gpu.memcpy async [%t4] %db, %b : memref<64x64xf16>, memref<64x64xf16>
    gpu.wait [%t5]
    %ua = memref.cast %da : memref<64x64xf16> to memref<*xf16>
    %ub = memref.cast %db : memref<64x64xf16> to memref<*xf16>
    %descA = nvgpu.tma.create.descriptor %ua box[%c64, %c64] : memref<*xf16> -> !tmaA
    %descB = nvgpu.tma.create.descriptor %ub box[%c64, %c64] : memref<*xf16> -> !tmaB
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %bytes = arith.constant 16384 : index
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      %sa = memref.get_global @smemA : !a
      %sb = memref.get_global @smemB : !b
      %bar = nvgpu.mbarrier.create -> !barrier
      %first = arith.cmpi eq, %tx, %k0 : index
      scf.if %first {
        nvgpu.mbarrier.init %bar[%k0], %k1 : !barrier
      }
      gpu.barrier
      scf.if %first {
        nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %bytes : !barrier
        nvgpu.tma.async.load %descA[%k0, %k0], %bar[%k0] to %sa : !tmaA, !barrier -> !a
        nvgpu.tma.async.load %descB[%k0, %k0], %bar[%k0] to %sb : !tmaB, !barrier -> !b
      }
      nvgpu.mbarrier.try_wait.parity %bar[%k0], %phase, %ticks : !barrier
      %wa = nvgpu.warpgroup.generate.descriptor %sa, %descA : !a, !tmaA -> !nvgpu.warpgroup.descriptor<tensor = !a>
      %wb = nvgpu.warpgroup.generate.descriptor %sb, %descB : !b, !tmaB -> !nvgpu.warpgroup.descriptor<tensor = !b>
      %init = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %d = nvgpu.warpgroup.mma %wa, %wb, %init {transposeB, waitGroup = 0 : i64} : <tensor = !a>, <tensor = !b>, !acc -> !acc
      nvgpu.warpgroup.mma.store %d, %dc : !acc to memref<64x64xf32>
      gpu.terminator
    }
    %t6 = gpu.wait async
    %t7 = gpu.memcpy async [%t6] %c, %dc : memref<64x64xf32>, memref<64x64xf32>
    gpu.wait [%t7]
    %row0 = memref.subview %c[0, 0] [1, 64] [1, 1] : memref<64x64xf32> to memref<64xf32, strided<[1]>>
    %row62 = memref.subview %c[62, 0] [1, 64] [1, 1] : memref<64x64xf32> to memref<64xf32, strided<[1], offset: 3968>>
    %u0 = memref.cast %row0 : memref<64xf32, strided<[1]>> to memref<*xf32>
    %u62 = memref.cast %row62 : memref<64xf32, strided<[1], offset: 3968>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    call @printMemrefF32(%u62) : (memref<*xf32>) -> ()
    %sums:2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%s0 = %zero, %w0 = %zero) -> (f32, f32) {
      %r:2 = scf.for %j = %c0 to %c64 step %c1 iter_args(%s1 = %s0, %w1 = %w0) -> (f32, f32) {
        %v = memref.load %c[%i, %j] : memref<64x64xf32>
        %i3 = arith.muli %i, %c3 : index
        %ij = arith.addi %i3, %j : index
        %m = arith.remui %ij, %c7 : index
        %m1 = arith.addi %m, %c1 : index
        %mi = arith.index_cast %m1 : index to i32
        %mf = arith.sitofp %mi : i32 to f32
        %wv = arith.mulf %v, %mf : f32
        %s2 = arith.addf %s1, %v : f32
        %w2 = arith.addf %w1, %wv : f32
        scf.yield %s2, %w2 : f32, f32
      }
      scf.yield %r#0, %r#1 : f32, f32
    }
    // Exact integers in f32 (each below 2^24), printed as integers.
    %sum = arith.fptosi %sums#0 : f32 to i64
    %weighted = arith.fptosi %sums#1 : f32 to i64
    vector.print %sum : i64
    vector.print %weighted : i64
    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [64] strides = [1] data =
    // CHECK-NEXT: [5,  -10,  19,  -18,  -11,  7,  -30,  43,  -16,  2,  9,  5,  -10,  19,  -18,  -11,  7,  -30,  43,  -16,  2,  9,  5,  -10,  19,  -18,  -11,  7,  -30,  43,  -16,  2,  9,  5,  -10,  19,  -18,  -11,  7,  -30,  43,  -16,  2,  9,  5,  -10,  19,  -18,  -11,  7,  -30,  43,  -16,  2,  9,  5,  -10,  19,  -18,  -11,  7,  -30,  43,  -16]
    // CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 3968 sizes = [64] strides = [1] data =
    // CHECK-NEXT: [-10,  5,  9,  2,  -16,  43,  -30,  7,  -11,  -18,  19,  -10,  5,  9,  2,  -16,  43,  -30,  7,  -11,  -18,  19,  -10,  5,  9,  2,  -16,  43,  -30,  7,  -11,  -18,  19,  -10,  5,  9,  2,  -16,  43,  -30,  7,  -11,  -18,  19,  -10,  5,  9,  2,  -16,  43,  -30,  7,  -11,  -18,  19,  -10,  5,  9,  2,  -16,  43,  -30,  7,  -11]
    // CHECK-NEXT: -11
    // CHECK-NEXT: 183
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
