// A program that only sm_90a builds: one warpgroup MMA (wgmma, PTX ISA 8.0) of f16 tiles in shared
// memory, whose descriptors come from TMA descriptors that the gpu.launch captures.
!a = memref<64x64xf16, 3>
!tma = !nvgpu.tensormap.descriptor<tensor = !a, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
module attributes {gpu.container_module} {
  memref.global "private" @smemA : !a {alignment = 1024}
  memref.global "private" @smemB : !a {alignment = 1024}
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %t0 = gpu.wait async
    %in, %t1 = gpu.alloc async [%t0] () : memref<64x64xf16>
    %out, %t2 = gpu.alloc async [%t1] () : memref<64x64xf32>
    gpu.wait [%t2]
    %u = memref.cast %in : memref<64x64xf16> to memref<*xf16>
    %ta = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !tma
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.get_global @smemA : !a
      %sb = memref.get_global @smemB : !a
      %wa = nvgpu.warpgroup.generate.descriptor %sa, %ta : !a, !tma -> !nvgpu.warpgroup.descriptor<tensor = !a>
      %wb = nvgpu.warpgroup.generate.descriptor %sb, %ta : !a, !tma -> !nvgpu.warpgroup.descriptor<tensor = !a>
      %init = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %d = nvgpu.warpgroup.mma %wa, %wb, %init {transposeB, waitGroup = 0 : i64} : <tensor = !a>, <tensor = !a>, !acc -> !acc
      nvgpu.warpgroup.mma.store %d, %out : !acc to memref<64x64xf32>
      gpu.terminator
    }
    return
  }
}
