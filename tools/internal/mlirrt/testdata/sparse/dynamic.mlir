// Dynamic sizes (sparseDimSize, sparseLvlSize), a CSR x DCSR product into DCSR with the expanded
// access pattern, COO and loose_compressed tensors assembled from buffers (the action kPack, the
// COO's coordinates interleaved), and tensors loaded without insertions.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#Loose = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f0 = arith.constant 0.0 : f64
    %d = arith.constant dense<[[1.0, 0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 3.0, 0.0, 0.0], [0.0, 4.0, 0.0, 0.0, 0.0]]> : tensor<3x5xf64>
    %dd = tensor.cast %d : tensor<3x5xf64> to tensor<?x?xf64>
    %a = sparse_tensor.convert %dd : tensor<?x?xf64> to tensor<?x?xf64, #CSR>
    %n0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
    %n1 = tensor.dim %a, %c1 : tensor<?x?xf64, #CSR>
    vector.print %n0 : index
    vector.print %n1 : index
    %l1 = sparse_tensor.lvl %a, %c1 : tensor<?x?xf64, #CSR>
    vector.print %l1 : index
    sparse_tensor.print %a : tensor<?x?xf64, #CSR>
    %t = sparse_tensor.convert %a : tensor<?x?xf64, #CSR> to tensor<?x?xf64, #CSC>
    sparse_tensor.print %t : tensor<?x?xf64, #CSC>
    %d2 = arith.constant dense<[[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 0.0], [3.0, 0.0, 4.0], [0.0, 5.0, 0.0]]> : tensor<5x3xf64>
    %dd2 = tensor.cast %d2 : tensor<5x3xf64> to tensor<?x?xf64>
    %b = sparse_tensor.convert %dd2 : tensor<?x?xf64> to tensor<?x?xf64, #DCSR>
    %e = tensor.empty(%n0, %n0) : tensor<?x?xf64, #DCSR>
    %p = linalg.matmul ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #DCSR>) outs(%e : tensor<?x?xf64, #DCSR>) -> tensor<?x?xf64, #DCSR>
    sparse_tensor.print %p : tensor<?x?xf64, #DCSR>
    %pd = sparse_tensor.convert %p : tensor<?x?xf64, #DCSR> to tensor<?x?xf64>
    %v = vector.transfer_read %pd[%c0, %c0], %f0 : tensor<?x?xf64>, vector<3x3xf64>
    vector.print %v : vector<3x3xf64>
    // assemble a COO
    %pos = arith.constant dense<[0, 3]> : tensor<2xindex>
    %crd = arith.constant dense<[[0, 1], [2, 0], [2, 3]]> : tensor<3x2xindex>
    %val = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
    %coo = sparse_tensor.assemble (%pos, %crd), %val : (tensor<2xindex>, tensor<3x2xindex>), tensor<3xf64> to tensor<3x4xf64, #COO>
    sparse_tensor.print %coo : tensor<3x4xf64, #COO>
    %cd = sparse_tensor.convert %coo : tensor<3x4xf64, #COO> to tensor<3x4xf64>
    %cv = vector.transfer_read %cd[%c0, %c0], %f0 : tensor<3x4xf64>, vector<3x4xf64>
    vector.print %cv : vector<3x4xf64>
    %lpos = arith.constant dense<[0, 1, 1, 1, 1, 3]> : tensor<6xindex>
    %lcrd = arith.constant dense<[2, 0, 3]> : tensor<3xindex>
    %loose = sparse_tensor.assemble (%lpos, %lcrd), %val : (tensor<6xindex>, tensor<3xindex>), tensor<3xf64> to tensor<3x4xf64, #Loose>
    sparse_tensor.print %loose : tensor<3x4xf64, #Loose>
    %e2 = tensor.empty() : tensor<3x4xf64, #DCSR>
    %e3 = sparse_tensor.load %e2 hasInserts : tensor<3x4xf64, #DCSR>
    sparse_tensor.print %e3 : tensor<3x4xf64, #DCSR>
    %e4 = tensor.empty() : tensor<3x4xf64, #CSR>
    %e5 = sparse_tensor.load %e4 hasInserts : tensor<3x4xf64, #CSR>
    sparse_tensor.print %e5 : tensor<3x4xf64, #CSR>
    %e6 = tensor.empty() : tensor<3x4xf64, #Loose>
    %e7 = sparse_tensor.load %e6 hasInserts : tensor<3x4xf64, #Loose>
    sparse_tensor.print %e7 : tensor<3x4xf64, #Loose>
    return
  }
}
