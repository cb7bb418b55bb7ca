// A program whose GPU code comes from passes run before the GPU lowering (gpu_binary's passes), as
// upstream's RUN lines run a first mlir-opt: linalg.fill and linalg.matmul on registered host
// memrefs become parallel loops, mapped to a grid and turned into gpu.launch regions. C = A * B for
// A[i][k] = i - k (16x8) and B[k][j] = (k + j) mod 3 (8x16); the host prints the sum of C, the
// sum weighted by (i + j) mod 5 + 1, and C[1][2].
module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %a = memref.alloc() : memref<16x8xf32>
    %b = memref.alloc() : memref<8x16xf32>
    %c = memref.alloc() : memref<16x16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %k = %c0 to %c8 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %ki = arith.index_cast %k : index to i32
        %d = arith.subi %ii, %ki : i32
        %df = arith.sitofp %d : i32 to f32
        memref.store %df, %a[%i, %k] : memref<16x8xf32>
        %s = arith.addi %k, %i : index
        %m = arith.remui %s, %c3 : index
        %mi = arith.index_cast %m : index to i32
        %mf = arith.sitofp %mi : i32 to f32
        memref.store %mf, %b[%k, %i] : memref<8x16xf32>
      }
    }
    %au = memref.cast %a : memref<16x8xf32> to memref<*xf32>
    %bu = memref.cast %b : memref<8x16xf32> to memref<*xf32>
    %cu = memref.cast %c : memref<16x16xf32> to memref<*xf32>
    gpu.host_register %au : memref<*xf32>
    gpu.host_register %bu : memref<*xf32>
    gpu.host_register %cu : memref<*xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
    linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x16xf32>) outs(%c : memref<16x16xf32>)
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
    %one = memref.load %c[%c1, %c2] : memref<16x16xf32>
    call @printF32(%one) : (f32) -> ()
    call @printNewline() : () -> ()
    return
  }
  func.func private @printF32(f32)
  func.func private @printNewline()
}
// CHECK: 8104
// CHECK-NEXT: 24364
// CHECK-NEXT: -17
