// A TMA load (sm_90a): the host makes a TMA descriptor of an 8x16 f32 matrix in device memory,
// G[i][j] = 16 * i + j, with a 4x8 box (nvgpu.tma.create.descriptor, which the runtime's
// mgpuTensorMapEncodeTiledMemref encodes with cuTensorMapEncodeTiled). One warp's kernel: thread 0
// initializes an mbarrier, expects the box's 128 bytes on it and starts the TMA load of the tile at
// row 4, column 8 into shared memory; every thread waits on the barrier's phase 0, then thread t
// writes T[t / 8][t mod 8] + 1000 to the output, which the host prints: rows 4 to 7, columns 8 to 15
// of G, plus 1000.
!tile = memref<4x8xf32, 3>
!desc = !nvgpu.tensormap.descriptor<tensor = !tile, swizzle = none, l2promo = none, oob = zero, interleave = none>
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  memref.global "private" @tile : !tile {alignment = 128}
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %g = memref.alloc() : memref<8x16xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %r = arith.muli %i, %c16 : index
        %v = arith.addi %r, %j : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %g[%i, %j] : memref<8x16xf32>
      }
    }
    %out = memref.alloc() : memref<4x8xf32>
    %t0 = gpu.wait async
    %dg, %t1 = gpu.alloc async [%t0] () : memref<8x16xf32>
    %dout, %t2 = gpu.alloc async [%t1] () : memref<4x8xf32>
    %t3 = gpu.memcpy async [%t2] %dg, %g : memref<8x16xf32>, memref<8x16xf32>
    gpu.wait [%t3]
    %ug = memref.cast %dg : memref<8x16xf32> to memref<*xf32>
    %d = nvgpu.tma.create.descriptor %ug box[%c4, %c8] : memref<*xf32> -> !desc
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k4 = arith.constant 4 : index
      %k8 = arith.constant 8 : index
      %bytes = arith.constant 128 : index
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      %thousand = arith.constant 1000.0 : f32
      %smem = memref.get_global @tile : !tile
      %bar = nvgpu.mbarrier.create -> !barrier
      %first = arith.cmpi eq, %tx, %k0 : index
      scf.if %first {
        nvgpu.mbarrier.init %bar[%k0], %k1 : !barrier
      }
      gpu.barrier
      scf.if %first {
        nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %bytes : !barrier
        // The coordinates of the tile's first element, innermost dimension first, as PTX's
        // cp.async.bulk.tensor takes them: column 8, row 4.
        nvgpu.tma.async.load %d[%k8, %k4], %bar[%k0] to %smem : !desc, !barrier -> !tile
      }
      nvgpu.mbarrier.try_wait.parity %bar[%k0], %phase, %ticks : !barrier
      %row = arith.divui %tx, %k8 : index
      %col = arith.remui %tx, %k8 : index
      %v = memref.load %smem[%row, %col] : !tile
      %w = arith.addf %v, %thousand : f32
      memref.store %w, %dout[%row, %col] : memref<4x8xf32>
      gpu.terminator
    }
    %t4 = gpu.wait async
    %t5 = gpu.memcpy async [%t4] %out, %dout : memref<4x8xf32>, memref<4x8xf32>
    gpu.wait [%t5]
    %u = memref.cast %out : memref<4x8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 8] strides = [8, 1] data =
    // CHECK-NEXT: {{\[}}[1072,   1073,   1074,   1075,   1076,   1077,   1078,   1079],
    // CHECK-NEXT: [1088,   1089,   1090,   1091,   1092,   1093,   1094,   1095],
    // CHECK-NEXT: [1104,   1105,   1106,   1107,   1108,   1109,   1110,   1111],
    // CHECK-NEXT: [1120,   1121,   1122,   1123,   1124,   1125,   1126,   1127]]
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
