// Formats through the sparse tensor runtime library: CSR, CSC, COO (AoS and SoA), DCSR with 8-bit
// overhead, converted from a dense constant, between formats and back; a matrix-vector product, an
// elementwise square into a new DCSR tensor and a CSR x CSC product into a CSR tensor.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#COOSoA = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)), posWidth=32, crdWidth=16 }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 8, crdWidth = 8 }>
#Loose = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
#NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#trait = { indexing_maps = [affine_map<(i,j) -> (i,j)>, affine_map<(i,j) -> (i,j)>], iterator_types = ["parallel","parallel"] }
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %f0 = arith.constant 0.0 : f64
    %dense = arith.constant dense<[[1.0, 0.0, 0.0, 2.0],
                                   [0.0, 0.0, 3.0, 0.0],
                                   [0.0, 4.0, 0.0, 0.0],
                                   [5.0, 0.0, 6.0, 7.0]]> : tensor<4x4xf64>
    %a = sparse_tensor.convert %dense : tensor<4x4xf64> to tensor<4x4xf64, #CSR>
    %b = sparse_tensor.convert %a : tensor<4x4xf64, #CSR> to tensor<4x4xf64, #CSC>
    %c = sparse_tensor.convert %dense : tensor<4x4xf64> to tensor<4x4xf64, #COO>
    %d = sparse_tensor.convert %dense : tensor<4x4xf64> to tensor<4x4xf64, #DCSR>
    %e = sparse_tensor.convert %dense : tensor<4x4xf64> to tensor<4x4xf64, #COOSoA>
    sparse_tensor.print %a : tensor<4x4xf64, #CSR>
    sparse_tensor.print %b : tensor<4x4xf64, #CSC>
    sparse_tensor.print %c : tensor<4x4xf64, #COO>
    sparse_tensor.print %d : tensor<4x4xf64, #DCSR>
    sparse_tensor.print %e : tensor<4x4xf64, #COOSoA>
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
    %y0 = arith.constant dense<0.0> : tensor<4xf64>
    %y = linalg.matvec ins(%a, %x : tensor<4x4xf64, #CSR>, tensor<4xf64>) outs(%y0 : tensor<4xf64>) -> tensor<4xf64>
    %vy = vector.transfer_read %y[%c0], %f0 : tensor<4xf64>, vector<4xf64>
    vector.print %vy : vector<4xf64>
    %m0 = tensor.empty() : tensor<4x4xf64, #DCSR>
    %m = linalg.generic #trait ins(%d : tensor<4x4xf64, #DCSR>) outs(%m0 : tensor<4x4xf64, #DCSR>) {
      ^bb0(%in: f64, %out: f64):
        %t = arith.mulf %in, %in : f64
        linalg.yield %t : f64
    } -> tensor<4x4xf64, #DCSR>
    sparse_tensor.print %m : tensor<4x4xf64, #DCSR>
    %n = sparse_tensor.number_of_entries %m : tensor<4x4xf64, #DCSR>
    vector.print %n : index
    %mm0 = tensor.empty() : tensor<4x4xf64, #CSR>
    %mm = linalg.matmul ins(%a, %b : tensor<4x4xf64, #CSR>, tensor<4x4xf64, #CSC>) outs(%mm0 : tensor<4x4xf64, #CSR>) -> tensor<4x4xf64, #CSR>
    sparse_tensor.print %mm : tensor<4x4xf64, #CSR>
    %dd = sparse_tensor.convert %mm : tensor<4x4xf64, #CSR> to tensor<4x4xf64>
    %vd = vector.transfer_read %dd[%c0, %c0], %f0 : tensor<4x4xf64>, vector<4x4xf64>
    vector.print %vd : vector<4x4xf64>
    bufferization.dealloc_tensor %a : tensor<4x4xf64, #CSR>
    bufferization.dealloc_tensor %b : tensor<4x4xf64, #CSC>
    bufferization.dealloc_tensor %c : tensor<4x4xf64, #COO>
    bufferization.dealloc_tensor %d : tensor<4x4xf64, #DCSR>
    bufferization.dealloc_tensor %e : tensor<4x4xf64, #COOSoA>
    bufferization.dealloc_tensor %m : tensor<4x4xf64, #DCSR>
    bufferization.dealloc_tensor %mm : tensor<4x4xf64, #CSR>
    return
  }
}
