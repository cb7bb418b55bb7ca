// Sparse matrix products through the sparsifier's library calls (enable-gpu-libgen): each product
// of a CSR or COO matrix becomes cuSPARSE calls (gpu.create_csr / gpu.create_coo, gpu.spmv,
// gpu.spmm), which rules_gpu's runtime makes through the cuSPARSE that it loads at run time. The
// sparse tensors are held by MLIR's sparse tensor runtime library (the sparsifier's default, and
// what its COO products need). The program has no kernel of its own. As MLIR's sparse GPU
// programs, it creates the cuSPARSE handle (mgpuCreateSparseEnv) itself.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>

module {
  func.func @matvec_csr(%a: tensor<4x4xf32, #CSR>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %r = linalg.matvec ins(%a, %x : tensor<4x4xf32, #CSR>, tensor<4xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }

  func.func @matmul_csr(%a: tensor<4x4xf32, #CSR>, %b: tensor<4x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x4xf32, #CSR>, tensor<4x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
    return %r : tensor<4x2xf32>
  }

  func.func @matvec_coo(%a: tensor<4x4xf32, #COO>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %r = linalg.matvec ins(%a, %x : tensor<4x4xf32, #COO>, tensor<4xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }

  func.func @matmul_coo(%a: tensor<4x4xf32, #COO>, %b: tensor<4x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x4xf32, #COO>, tensor<4x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
    return %r : tensor<4x2xf32>
  }

  llvm.func @mgpuCreateSparseEnv()
  llvm.func @mgpuDestroySparseEnv()

  func.func @main() {
    llvm.call @mgpuCreateSparseEnv() : () -> ()
    %c0 = arith.constant 0 : index
    %f0 = arith.constant 0.0 : f32
    %dense = arith.constant dense<[[1.0, 0.0, 0.0, 2.0],
                                   [0.0, 0.0, 3.0, 0.0],
                                   [0.0, 4.0, 0.0, 0.0],
                                   [5.0, 0.0, 6.0, 7.0]]> : tensor<4x4xf32>
    %csr = sparse_tensor.convert %dense : tensor<4x4xf32> to tensor<4x4xf32, #CSR>
    %coo = sparse_tensor.convert %dense : tensor<4x4xf32> to tensor<4x4xf32, #COO>
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %y0 = arith.constant dense<0.0> : tensor<4xf32>
    %b = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
    %c00 = arith.constant dense<0.0> : tensor<4x2xf32>

    %y1 = call @matvec_csr(%csr, %x, %y0) : (tensor<4x4xf32, #CSR>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v1 = vector.transfer_read %y1[%c0], %f0 : tensor<4xf32>, vector<4xf32>
    // CHECK: ( 9, 9, 8, 51 )
    vector.print %v1 : vector<4xf32>
    %m1 = call @matmul_csr(%csr, %b, %c00) : (tensor<4x4xf32, #CSR>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
    %w1 = vector.transfer_read %m1[%c0, %c0], %f0 : tensor<4x2xf32>, vector<4x2xf32>
    // CHECK-NEXT: ( ( 15, 18 ), ( 15, 18 ), ( 12, 16 ), ( 84, 102 ) )
    vector.print %w1 : vector<4x2xf32>

    %y2 = call @matvec_coo(%coo, %x, %y0) : (tensor<4x4xf32, #COO>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v2 = vector.transfer_read %y2[%c0], %f0 : tensor<4xf32>, vector<4xf32>
    // CHECK-NEXT: ( 9, 9, 8, 51 )
    vector.print %v2 : vector<4xf32>
    %m2 = call @matmul_coo(%coo, %b, %c00) : (tensor<4x4xf32, #COO>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
    %w2 = vector.transfer_read %m2[%c0, %c0], %f0 : tensor<4x2xf32>, vector<4x2xf32>
    // CHECK-NEXT: ( ( 15, 18 ), ( 15, 18 ), ( 12, 16 ), ( 84, 102 ) )
    vector.print %w2 : vector<4x2xf32>

    bufferization.dealloc_tensor %csr : tensor<4x4xf32, #CSR>
    bufferization.dealloc_tensor %coo : tensor<4x4xf32, #COO>
    llvm.call @mgpuDestroySparseEnv() : () -> ()
    return
  }
}
