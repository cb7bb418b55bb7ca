// A 2:4 structured-sparse product through cuSPARSELt (gpu.create_2to4_spmat and gpu.spmm on it, in
// f16), which the runtime loads at run time (it is not part of the CUDA toolkit: without it, the
// program stops at its first 2:4 op, naming the library and the fix). C = A B + C, with C zeroed,
// for A (16x32) with A[i][k] = (i + k) mod 3 + 1 where k mod 4 < 2 and 0 elsewhere (2 nonzeros in
// every 4: 2:4 already, which PRUNE_AND_CHECK keeps and checks) and B (32x16) with
// B[k][j] = (k + 2j) mod 5 - 2. The host prints, for each row i of C, sum_j (j + 1) C[i][j].
module attributes {gpu.container_module} {
  llvm.func @mgpuCreateSparseLtEnv()
  llvm.func @mgpuDestroySparseLtEnv()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f16
    %zero32 = arith.constant 0.0 : f32
    llvm.call @mgpuCreateSparseLtEnv() : () -> ()

    %ha = memref.alloc() : memref<512xf16>
    %hb = memref.alloc() : memref<512xf16>
    %hc = memref.alloc() : memref<256xf16>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %k = %c0 to %c32 step %c1 {
        %ik = arith.addi %i, %k : index
        %m3 = arith.remui %ik, %c3 : index
        %v1 = arith.addi %m3, %c1 : index
        %k4 = arith.remui %k, %c4 : index
        %keep = arith.cmpi ult, %k4, %c2 : index
        %v = arith.select %keep, %v1, %c0 : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f16
        %row = arith.muli %i, %c32 : index
        %at = arith.addi %row, %k : index
        memref.store %vf, %ha[%at] : memref<512xf16>
      }
    }
    scf.for %k = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %j2 = arith.muli %j, %c2 : index
        %s = arith.addi %k, %j2 : index
        %m5 = arith.remui %s, %c5 : index
        %mi = arith.index_cast %m5 : index to i32
        %two = arith.constant 2 : i32
        %vi = arith.subi %mi, %two : i32
        %vf = arith.sitofp %vi : i32 to f16
        %row = arith.muli %k, %c16 : index
        %at = arith.addi %row, %j : index
        memref.store %vf, %hb[%at] : memref<512xf16>
      }
    }

    %t0 = gpu.wait async
    %da, %t1 = gpu.alloc async [%t0] () : memref<512xf16>
    %db, %t2 = gpu.alloc async [%t1] () : memref<512xf16>
    %dc, %t3 = gpu.alloc async [%t2] () : memref<256xf16>
    %t4 = gpu.memcpy async [%t3] %da, %ha : memref<512xf16>, memref<512xf16>
    %t5 = gpu.memcpy async [%t4] %db, %hb : memref<512xf16>, memref<512xf16>
    %t6 = gpu.memset async [%t5] %dc, %zero : memref<256xf16>, f16
    %a = memref.cast %da : memref<512xf16> to memref<?xf16>
    %b = memref.cast %db : memref<512xf16> to memref<?xf16>
    %c = memref.cast %dc : memref<256xf16> to memref<?xf16>
    %spa, %t7 = gpu.create_2to4_spmat async [%t6] {PRUNE_AND_CHECK} %c16, %c32, %a : memref<?xf16>
    %dnb, %t8 = gpu.create_dn_tensor async [%t7] %b, %c32, %c16 : index, index into memref<?xf16>
    %dnc, %t9 = gpu.create_dn_tensor async [%t8] %c, %c16, %c16 : index, index into memref<?xf16>
    %sz0, %sz1, %sz2, %t10 = gpu.spmm_buffer_size async [%t9] %spa, %dnb, %dnc : index, index, index into f16
    %w0, %t11 = gpu.alloc async [%t10] (%sz0) : memref<?xf16>
    %w1, %t12 = gpu.alloc async [%t11] (%sz1) : memref<?xf16>
    %w2, %t13 = gpu.alloc async [%t12] (%sz2) : memref<?xf16>
    %t14 = gpu.spmm async [%t13] %spa, %dnb, %dnc, %w0, %w1, %w2 : memref<?xf16>, memref<?xf16>, memref<?xf16> into f16
    %t15 = gpu.destroy_sp_mat async [%t14] %spa
    %t16 = gpu.destroy_dn_tensor async [%t15] %dnb
    %t17 = gpu.destroy_dn_tensor async [%t16] %dnc
    %t18 = gpu.memcpy async [%t17] %hc, %dc : memref<256xf16>, memref<256xf16>
    gpu.wait [%t18]

    %sums = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %s = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %zero32) -> (f32) {
        %row = arith.muli %i, %c16 : index
        %at = arith.addi %row, %j : index
        %v = memref.load %hc[%at] : memref<256xf16>
        %vf = arith.extf %v : f16 to f32
        %j1 = arith.addi %j, %c1 : index
        %ji = arith.index_cast %j1 : index to i32
        %jf = arith.sitofp %ji : i32 to f32
        %p = arith.mulf %vf, %jf : f32
        %acc2 = arith.addf %acc, %p : f32
        scf.yield %acc2 : f32
      }
      memref.store %s, %sums[%i] : memref<16xf32>
    }
    %u = memref.cast %sums : memref<16xf32> to memref<*xf32>
    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
    // CHECK-NEXT: [13,  76,  1,  13,  76,  1,  13,  76,  1,  13,  76,  1,  13,  76,  1,  13]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    llvm.call @mgpuDestroySparseLtEnv() : () -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
