// A sparse matrix (CSR) times a vector, through MLIR's sparsifier with its GPU code generation: the
// product's outer loop becomes a kernel of a gpu.module that the sparsifier writes. Not a product
// with a dense matrix: LLVM 21's sparse GPU code generation copies back to the host only the first
// buffer its kernel reads, taking it for the output ("the output assumption may be a bit too
// brittle", SparseGPUCodegen.cpp), and in CSR times a dense matrix that is A's positions, so the
// result comes back unchanged (zeros on an H100). MLIR's own tests of this path are products with
// a vector alone; sparse_lib.mlir multiplies matrices through cuSPARSE. The BUILD target gives the sparsifier options as MLIR's sparse GPU tests do,
// gpu-chip=sm_80 among them; rules_gpu takes the sparsifier's target and serialization out of its
// pipeline, so the target's chips (sm_80 and sm_90) decide, and the program loads on sm_90.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

module {
  func.func @matvec(%a: tensor<4x4xf64, #CSR>, %x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
    %r = linalg.matvec ins(%a, %x : tensor<4x4xf64, #CSR>, tensor<4xf64>) outs(%y : tensor<4xf64>) -> tensor<4xf64>
    return %r : tensor<4xf64>
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

    // The same product again, with another vector: a second launch of the kernel.
    %x2 = arith.constant dense<[4.0, 3.0, 2.0, 1.0]> : tensor<4xf64>
    %y2 = call @matvec(%a, %x2, %y0) : (tensor<4x4xf64, #CSR>, tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
    %vy2 = vector.transfer_read %y2[%c0], %f0 : tensor<4xf64>, vector<4xf64>
    // CHECK-NEXT: ( 6, 6, 12, 39 )
    vector.print %vy2 : vector<4xf64>

    bufferization.dealloc_tensor %a : tensor<4x4xf64, #CSR>
    return
  }
}
