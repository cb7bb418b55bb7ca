// A TensorCore product (wmma, through gpu.subgroup_mma_*: one warp computes a 16x16x16 f16 product
// with f32 accumulation): C = A * B for A[i][k] = (i + k) mod 3 and B[k][j] = (k * j) mod 4. The
// host prints the sum of C's elements and a weighted sum, each (i + j) mod 5 + 1 times C[i][j].
module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f32
    %a = memref.alloc() : memref<16x16xf16>
    %b = memref.alloc() : memref<16x16xf16>
    %c = memref.alloc() : memref<16x16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %s = arith.addi %i, %j : index
        %av = arith.remui %s, %c3 : index
        %p = arith.muli %i, %j : index
        %bv = arith.remui %p, %c4 : index
        %ai = arith.index_cast %av : index to i32
        %bi = arith.index_cast %bv : index to i32
        %af = arith.sitofp %ai : i32 to f16
        %bf = arith.sitofp %bi : i32 to f16
        memref.store %af, %a[%i, %j] : memref<16x16xf16>
        memref.store %bf, %b[%i, %j] : memref<16x16xf16>
        memref.store %zero, %c[%i, %j] : memref<16x16xf32>
      }
    }
    %au = memref.cast %a : memref<16x16xf16> to memref<*xf16>
    %bu = memref.cast %b : memref<16x16xf16> to memref<*xf16>
    %cu = memref.cast %c : memref<16x16xf32> to memref<*xf32>
    gpu.host_register %au : memref<*xf16>
    gpu.host_register %bu : memref<*xf16>
    gpu.host_register %cu : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %ma = gpu.subgroup_mma_load_matrix %a[%k0, %k0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %mb = gpu.subgroup_mma_load_matrix %b[%k0, %k0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %mc = gpu.subgroup_mma_load_matrix %c[%k0, %k0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %md = gpu.subgroup_mma_compute %ma, %mb, %mc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %md, %c[%k0, %k0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.terminator
    }
    %sums:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%s0 = %zero, %w0 = %zero) -> (f32, f32) {
      %r:2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%s1 = %s0, %w1 = %w0) -> (f32, f32) {
        %v = memref.load %c[%i, %j] : memref<16x16xf32>
        %ij = arith.addi %i, %j : index
        %m = arith.remui %ij, %c5 : index
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
    call @printF32(%sums#0) : (f32) -> ()
    call @printNewline() : () -> ()
    call @printF32(%sums#1) : (f32) -> ()
    call @printNewline() : () -> ()
    %first = memref.load %c[%c0, %c1] : memref<16x16xf32>
    call @printF32(%first) : (f32) -> ()
    call @printNewline() : () -> ()
    return
  }
  func.func private @printF32(f32)
  func.func private @printNewline()
}
// CHECK: 4088
// CHECK-NEXT: 12200
// CHECK-NEXT: 23
