// Sparse products on the GPU through cuSPARSE, written with the gpu dialect's sparse ops (no
// sparsifier), as MLIR's enable-gpu-libgen programs call them: the runtime loads cuSPARSE when the
// program first needs it. A (3x4) in CSR and M = A^T (4x3) in COO are built in host memory and
// copied to the device; y = A x, C = A B, z = M x3 and D = M B3 come back and are printed, where
// x = [1, 2, 3, 4] (filled by the program's one kernel), B[k][j] = k + j + 1 (4x2), and x3 and B3
// are the first three rows of x and B. The ops accumulate (y = A x + y), into zeroed outputs.
//
//     A = [1 0 2 0]     y = A x = [7, 6, 43]      C = A B = [[7, 10], [6, 9], [43, 58]]
//         [0 3 0 0]     z = M x3 = [13, 6, 17, 18]
//         [4 0 5 6]     D = M B3 = [[13, 18], [6, 9], [17, 24], [18, 24]]
module attributes {gpu.container_module} {
  memref.global "private" constant @a_pos : memref<4xi32> = dense<[0, 2, 3, 6]>
  memref.global "private" constant @a_crd : memref<6xi32> = dense<[0, 2, 1, 0, 2, 3]>
  memref.global "private" constant @a_val : memref<6xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]>
  memref.global "private" constant @m_row : memref<6xi32> = dense<[0, 0, 1, 2, 2, 3]>
  memref.global "private" constant @m_col : memref<6xi32> = dense<[0, 2, 1, 0, 2, 2]>
  memref.global "private" constant @m_val : memref<6xf32> = dense<[1.0, 4.0, 3.0, 2.0, 5.0, 6.0]>
  memref.global "private" constant @b : memref<8xf32> = dense<[1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 5.0]>

  gpu.module @kernels {
    // x[i] = i + 1
    gpu.func @iota(%x: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %one = arith.constant 1.0 : f32
      %v = arith.addf %f, %one : f32
      memref.store %v, %x[%i] : memref<4xf32>
      gpu.return
    }
  }

  // The cuSPARSE handle, as MLIR's sparse GPU programs create and destroy it.
  llvm.func @mgpuCreateSparseEnv()
  llvm.func @mgpuDestroySparseEnv()

  // dev copies a host memref to new device memory.
  func.func @dev(%h: memref<?xi32>) -> memref<?xi32> {
    %c0 = arith.constant 0 : index
    %n = memref.dim %h, %c0 : memref<?xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xi32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<?xi32>, memref<?xi32>
    gpu.wait [%t2]
    return %d : memref<?xi32>
  }
  func.func @devf(%h: memref<?xf32>) -> memref<?xf32> {
    %c0 = arith.constant 0 : index
    %n = memref.dim %h, %c0 : memref<?xf32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<?xf32>, memref<?xf32>
    gpu.wait [%t2]
    return %d : memref<?xf32>
  }
  // print copies n floats of device memory back and prints them.
  func.func @print(%d: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %n = memref.dim %d, %c0 : memref<?xf32>
    %h = memref.alloc(%n) : memref<?xf32>
    %t0 = gpu.wait async
    %t1 = gpu.memcpy async [%t0] %h, %d : memref<?xf32>, memref<?xf32>
    gpu.wait [%t1]
    %u = memref.cast %h : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %h : memref<?xf32>
    return
  }
  func.func @zeros(%n: index) -> memref<?xf32> {
    %zero = arith.constant 0.0 : f32
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.memset async [%t1] %d, %zero : memref<?xf32>, f32
    gpu.wait [%t2]
    return %d : memref<?xf32>
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %c12 = arith.constant 12 : index
    llvm.call @mgpuCreateSparseEnv() : () -> ()

    %a_pos = memref.get_global @a_pos : memref<4xi32>
    %a_crd = memref.get_global @a_crd : memref<6xi32>
    %a_val = memref.get_global @a_val : memref<6xf32>
    %m_row = memref.get_global @m_row : memref<6xi32>
    %m_col = memref.get_global @m_col : memref<6xi32>
    %m_val = memref.get_global @m_val : memref<6xf32>
    %b = memref.get_global @b : memref<8xf32>
    %ap = memref.cast %a_pos : memref<4xi32> to memref<?xi32>
    %ac = memref.cast %a_crd : memref<6xi32> to memref<?xi32>
    %av = memref.cast %a_val : memref<6xf32> to memref<?xf32>
    %mr = memref.cast %m_row : memref<6xi32> to memref<?xi32>
    %mc = memref.cast %m_col : memref<6xi32> to memref<?xi32>
    %mv = memref.cast %m_val : memref<6xf32> to memref<?xf32>
    %bh = memref.cast %b : memref<8xf32> to memref<?xf32>
    %dap = call @dev(%ap) : (memref<?xi32>) -> memref<?xi32>
    %dac = call @dev(%ac) : (memref<?xi32>) -> memref<?xi32>
    %dav = call @devf(%av) : (memref<?xf32>) -> memref<?xf32>
    %dmr = call @dev(%mr) : (memref<?xi32>) -> memref<?xi32>
    %dmc = call @dev(%mc) : (memref<?xi32>) -> memref<?xi32>
    %dmv = call @devf(%mv) : (memref<?xf32>) -> memref<?xf32>
    %db = call @devf(%bh) : (memref<?xf32>) -> memref<?xf32>
    %y = call @zeros(%c3) : (index) -> memref<?xf32>
    %c = call @zeros(%c6) : (index) -> memref<?xf32>
    %z = call @zeros(%c4) : (index) -> memref<?xf32>
    %d = call @zeros(%c8) : (index) -> memref<?xf32>

    %t0 = gpu.wait async
    %x, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    %t2 = gpu.launch_func async [%t1] @kernels::@iota blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    %xd = memref.cast %x : memref<4xf32> to memref<?xf32>

    // CSR: y = A x and C = A B.
    %a, %t3 = gpu.create_csr async [%t2] %c3, %c4, %c6, %dap, %dac, %dav : memref<?xi32>, memref<?xi32>, memref<?xf32>
    %vx, %t4 = gpu.create_dn_tensor async [%t3] %xd, %c4 : index into memref<?xf32>
    %vy, %t5 = gpu.create_dn_tensor async [%t4] %y, %c3 : index into memref<?xf32>
    %sz1, %t6 = gpu.spmv_buffer_size async [%t5] %a, %vx, %vy into f32
    %buf1, %t7 = gpu.alloc async [%t6] (%sz1) : memref<?xi8>
    %t8 = gpu.spmv async [%t7] %a, %vx, %vy, %buf1 : memref<?xi8> into f32
    %mb, %t9 = gpu.create_dn_tensor async [%t8] %db, %c4, %c2 : index, index into memref<?xf32>
    %mcm, %t10 = gpu.create_dn_tensor async [%t9] %c, %c3, %c2 : index, index into memref<?xf32>
    %sz2, %t11 = gpu.spmm_buffer_size async [%t10] %a, %mb, %mcm : index into f32
    %buf2, %t12 = gpu.alloc async [%t11] (%sz2) : memref<?xi8>
    %t13 = gpu.spmm async [%t12] %a, %mb, %mcm, %buf2 : memref<?xi8> into f32

    // COO: z = M x3 and D = M B3 (x3 and B3: the first 3 rows of x and B, the same memory).
    %m, %t14 = gpu.create_coo async [%t13] %c4, %c3, %c6, %dmr, %dmc, %dmv : memref<?xi32>, memref<?xi32>, memref<?xf32>
    %vx3, %t15 = gpu.create_dn_tensor async [%t14] %xd, %c3 : index into memref<?xf32>
    %vz, %t16 = gpu.create_dn_tensor async [%t15] %z, %c4 : index into memref<?xf32>
    %sz3, %t17 = gpu.spmv_buffer_size async [%t16] %m, %vx3, %vz into f32
    %buf3, %t18 = gpu.alloc async [%t17] (%sz3) : memref<?xi8>
    %t19 = gpu.spmv async [%t18] %m, %vx3, %vz, %buf3 : memref<?xi8> into f32
    %mb3, %t20 = gpu.create_dn_tensor async [%t19] %db, %c3, %c2 : index, index into memref<?xf32>
    %md, %t21 = gpu.create_dn_tensor async [%t20] %d, %c4, %c2 : index, index into memref<?xf32>
    %sz4, %t22 = gpu.spmm_buffer_size async [%t21] %m, %mb3, %md : index into f32
    %buf4, %t23 = gpu.alloc async [%t22] (%sz4) : memref<?xi8>
    %t24 = gpu.spmm async [%t23] %m, %mb3, %md, %buf4 : memref<?xi8> into f32

    %t25 = gpu.destroy_sp_mat async [%t24] %a
    %t26 = gpu.destroy_sp_mat async [%t25] %m
    %t27 = gpu.destroy_dn_tensor async [%t26] %vx
    %t28 = gpu.destroy_dn_tensor async [%t27] %vy
    %t29 = gpu.destroy_dn_tensor async [%t28] %mb
    %t30 = gpu.destroy_dn_tensor async [%t29] %mcm
    %t31 = gpu.destroy_dn_tensor async [%t30] %vx3
    %t32 = gpu.destroy_dn_tensor async [%t31] %vz
    %t33 = gpu.destroy_dn_tensor async [%t32] %mb3
    %t34 = gpu.destroy_dn_tensor async [%t33] %md
    gpu.wait [%t34]

    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
    // CHECK-NEXT: [7,  6,  43]
    call @print(%y) : (memref<?xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
    // CHECK-NEXT: [7,  10,  6,  9,  43,  58]
    call @print(%c) : (memref<?xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
    // CHECK-NEXT: [13,  6,  17,  18]
    call @print(%z) : (memref<?xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
    // CHECK-NEXT: [13,  18,  6,  9,  17,  24,  18,  24]
    call @print(%d) : (memref<?xf32>) -> ()

    llvm.call @mgpuDestroySparseEnv() : () -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
