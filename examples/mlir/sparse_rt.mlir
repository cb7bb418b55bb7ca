// Sparse tensors held by MLIR's sparse tensor runtime library (the sparsifier's default,
// enable-runtime-library=true), which rules_gpu's runtime provides (tools/internal/mlirrt), with the
// sparsifier's GPU code generation: the dense matrix becomes CSR and DCSR tensors of the runtime
// library (newSparseTensor, lexInsert, endLexInsert), whose positions, coordinates and values come
// from its accessors (sparsePositions0, sparseCoordinates32, sparseValuesF32, ...), and the outer
// loop of the matrix-vector products runs as a kernel of a gpu.module that the sparsifier writes
// (with a vector only: see sparse_codegen.mlir for why not a dense matrix). The BUILD target
// gives the sparsifier gpu-chip=sm_80, which rules_gpu takes out of its pipeline: the target's
// chips (sm_80 and sm_90) decide, and the program loads on sm_90. The same program sparsified for
// the CPU (--sparsifier="enable-runtime-library=true") and run by mlir-runner with upstream's
// runtime library prints the same.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 32, crdWidth = 32 }>

module {
  func.func @matvec(%a: tensor<4x6xf32, #CSR>, %x: tensor<6xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %r = linalg.matvec ins(%a, %x : tensor<4x6xf32, #CSR>, tensor<6xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }

  func.func @matvec_dcsr(%a: tensor<4x6xf32, #DCSR>, %x: tensor<6xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %r = linalg.matvec ins(%a, %x : tensor<4x6xf32, #DCSR>, tensor<6xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %f0 = arith.constant 0.0 : f32
    %dense = arith.constant dense<[[1.0, 0.0, 0.0, 2.0, 0.0, 0.0],
                                   [0.0, 0.0, 3.0, 0.0, 0.0, 4.0],
                                   [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                                   [5.0, 6.0, 0.0, 0.0, 7.0, 0.0]]> : tensor<4x6xf32>
    %a = sparse_tensor.convert %dense : tensor<4x6xf32> to tensor<4x6xf32, #CSR>
    %d = sparse_tensor.convert %dense : tensor<4x6xf32> to tensor<4x6xf32, #DCSR>
    // CHECK:      ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 7
    // CHECK-NEXT: dim = ( 4, 6 )
    // CHECK-NEXT: lvl = ( 4, 6 )
    // CHECK-NEXT: pos[1] : ( 0, 2, 4, 4, 7 )
    // CHECK-NEXT: crd[1] : ( 0, 3, 2, 5, 0, 1, 4 )
    // CHECK-NEXT: values : ( 1, 2, 3, 4, 5, 6, 7 )
    // CHECK-NEXT: ----
    sparse_tensor.print %a : tensor<4x6xf32, #CSR>
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 7
    // CHECK-NEXT: dim = ( 4, 6 )
    // CHECK-NEXT: lvl = ( 4, 6 )
    // CHECK-NEXT: pos[0] : ( 0, 3 )
    // CHECK-NEXT: crd[0] : ( 0, 1, 3 )
    // CHECK-NEXT: pos[1] : ( 0, 2, 4, 7 )
    // CHECK-NEXT: crd[1] : ( 0, 3, 2, 5, 0, 1, 4 )
    // CHECK-NEXT: values : ( 1, 2, 3, 4, 5, 6, 7 )
    // CHECK-NEXT: ----
    sparse_tensor.print %d : tensor<4x6xf32, #DCSR>

    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
    %y0 = arith.constant dense<0.0> : tensor<4xf32>
    %y = call @matvec(%a, %x, %y0) : (tensor<4x6xf32, #CSR>, tensor<6xf32>, tensor<4xf32>) -> tensor<4xf32>
    %vy = vector.transfer_read %y[%c0], %f0 : tensor<4xf32>, vector<4xf32>
    // CHECK-NEXT: ( 9, 33, 0, 52 )
    vector.print %vy : vector<4xf32>

    // The DCSR tensor times a vector, with the runtime library's 32-bit positions and coordinates (on
    // the CPU: the strategy dense-outer-loop makes kernels of dense outer loops alone).
    %y1 = call @matvec_dcsr(%d, %x, %y0) : (tensor<4x6xf32, #DCSR>, tensor<6xf32>, tensor<4xf32>) -> tensor<4xf32>
    %vy1 = vector.transfer_read %y1[%c0], %f0 : tensor<4xf32>, vector<4xf32>
    // CHECK-NEXT: ( 9, 33, 0, 52 )
    vector.print %vy1 : vector<4xf32>

    bufferization.dealloc_tensor %a : tensor<4x6xf32, #CSR>
    bufferization.dealloc_tensor %d : tensor<4x6xf32, #DCSR>
    return
  }
}
