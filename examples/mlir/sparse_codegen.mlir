// A sparse matrix (CSR) times a vector and times a dense matrix, through MLIR's sparsifier with
// its GPU code generation: each product's outer loop becomes a kernel of a gpu.module that the
// sparsifier writes. The BUILD target gives the sparsifier options as MLIR's sparse GPU tests do,
// gpu-chip=sm_80 among them; rules_gpu takes the sparsifier's target and serialization out of its
// pipeline, so the target's chips (sm_80 and sm_90) decide, and the program loads on sm_90.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

module {
  func.func @matvec(%a: tensor<4x4xf64, #CSR>, %x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
    %r = linalg.matvec ins(%a, %x : tensor<4x4xf64, #CSR>, tensor<4xf64>) outs(%y : tensor<4xf64>) -> tensor<4xf64>
    return %r : tensor<4xf64>
  }

  func.func @matmul(%a: tensor<4x4xf64, #CSR>, %b: tensor<4x2xf64>, %c: tensor<4x2xf64>) -> tensor<4x2xf64> {
    %r = linalg.matmul ins(%a, %b : tensor<4x4xf64, #CSR>, tensor<4x2xf64>) outs(%c : tensor<4x2xf64>) -> tensor<4x2xf64>
    return %r : tensor<4x2xf64>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %f0 = arith.constant 0.0 : f64
    %dense = arith.constant dense<[[1.0, 0.0, 0.0, 2.0],
                                   [0.0, 0.0, 3.0, 0.0],
                                   [0.0, 4.0, 0.0, 0.0],
                                   [5.0, 0.0, 6.0, 7.0]]> : tensor<4x4xf64>
    %a = sparse_tensor.convert %dense : tensor<4x4xf64> to tensor<4x4xf64, #CSR>

    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
    %y0 = arith.constant dense<0.0> : tensor<4xf64>
    %y = call @matvec(%a, %x, %y0) : (tensor<4x4xf64, #CSR>, tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
    %vy = vector.transfer_read %y[%c0], %f0 : tensor<4xf64>, vector<4xf64>
    // CHECK: ( 9, 9, 8, 51 )
    vector.print %vy : vector<4xf64>

    %b = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf64>
    %c00 = arith.constant dense<0.0> : tensor<4x2xf64>
    %c = call @matmul(%a, %b, %c00) : (tensor<4x4xf64, #CSR>, tensor<4x2xf64>, tensor<4x2xf64>) -> tensor<4x2xf64>
    %vc = vector.transfer_read %c[%c0, %c0], %f0 : tensor<4x2xf64>, vector<4x2xf64>
    // CHECK-NEXT: ( ( 15, 18 ), ( 15, 18 ), ( 12, 16 ), ( 84, 102 ) )
    vector.print %vc : vector<4x2xf64>

    bufferization.dealloc_tensor %a : tensor<4x4xf64, #CSR>
    return
  }
}
