// A TMA load of a 1-D box (sm_90a), for TestLink: elements 32 to 47 of a 64-element f32 vector
// V[i] = i, loaded into shared memory by one thread and copied out by 16.
!box = memref<16xf32, 3>
!desc = !nvgpu.tensormap.descriptor<tensor = !box, swizzle = none, l2promo = none, oob = zero, interleave = none>
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  memref.global "private" @box : !box {alignment = 128}
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %v = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %v[%i] : memref<64xf32>
    }
    %out = memref.alloc() : memref<16xf32>
    %t0 = gpu.wait async
    %dv, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
    %dout, %t2 = gpu.alloc async [%t1] () : memref<16xf32>
    %t3 = gpu.memcpy async [%t2] %dv, %v : memref<64xf32>, memref<64xf32>
    gpu.wait [%t3]
    %uv = memref.cast %dv : memref<64xf32> to memref<*xf32>
    %d = nvgpu.tma.create.descriptor %uv box[%c16] : memref<*xf32> -> !desc
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k32 = arith.constant 32 : index
      %bytes = arith.constant 64 : index
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      %smem = memref.get_global @box : !box
      %bar = nvgpu.mbarrier.create -> !barrier
      %first = arith.cmpi eq, %tx, %k0 : index
      scf.if %first {
        nvgpu.mbarrier.init %bar[%k0], %k1 : !barrier
      }
      gpu.barrier
      scf.if %first {
        nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %bytes : !barrier
        nvgpu.tma.async.load %d[%k32], %bar[%k0] to %smem : !desc, !barrier -> !box
      }
      nvgpu.mbarrier.try_wait.parity %bar[%k0], %phase, %ticks : !barrier
      %x = memref.load %smem[%tx] : !box
      memref.store %x, %dout[%tx] : memref<16xf32>
      gpu.terminator
    }
    %t4 = gpu.wait async
    %t5 = gpu.memcpy async [%t4] %out, %dout : memref<16xf32>, memref<16xf32>
    gpu.wait [%t5]
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
