// Value types (f32, f16, bf16, i64, i32, i16, i8, complex<f64>, complex<f32>), 16- and 32-bit
// overhead, an expanded access pattern (a CSR x DCSR product into CSR), an elementwise sum, an
// in-place update of a tensor's values, loose_compressed, dense-only and structured[2, 4] levels, a
// three-level COO and a reduction.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 32 }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#Loose = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
#NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
#Dense = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : dense) }>
#COO3 = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed(nonunique), j : singleton(nonunique), k : singleton) }>
#scale = { indexing_maps = [affine_map<(i,j) -> (i,j)>], iterator_types = ["parallel","parallel"] }
#add = { indexing_maps = [affine_map<(i,j) -> (i,j)>, affine_map<(i,j) -> (i,j)>, affine_map<(i,j) -> (i,j)>], iterator_types = ["parallel","parallel"] }
#sum = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"] }
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %f0 = arith.constant 0.0 : f32
    %d = arith.constant dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 3.0, 0.0], [0.0, 4.0, 0.0, 0.0], [5.0, 0.0, 6.0, 7.0]]> : tensor<4x4xf32>
    %a = sparse_tensor.convert %d : tensor<4x4xf32> to tensor<4x4xf32, #CSR>
    %b = sparse_tensor.convert %d : tensor<4x4xf32> to tensor<4x4xf32, #DCSR>
    // CSR x DCSR -> CSR (expanded access pattern)
    %e0 = tensor.empty() : tensor<4x4xf32, #CSR>
    %m = linalg.matmul ins(%a, %b : tensor<4x4xf32, #CSR>, tensor<4x4xf32, #DCSR>) outs(%e0 : tensor<4x4xf32, #CSR>) -> tensor<4x4xf32, #CSR>
    sparse_tensor.print %m : tensor<4x4xf32, #CSR>
    // elementwise add of two sparse into sparse
    %e1 = tensor.empty() : tensor<4x4xf32, #DCSR>
    %s = linalg.generic #add ins(%b, %b : tensor<4x4xf32, #DCSR>, tensor<4x4xf32, #DCSR>) outs(%e1 : tensor<4x4xf32, #DCSR>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %t = arith.addf %x, %y : f32
        linalg.yield %t : f32
    } -> tensor<4x4xf32, #DCSR>
    sparse_tensor.print %s : tensor<4x4xf32, #DCSR>
    // in-place scale
    %a2 = sparse_tensor.convert %d : tensor<4x4xf32> to tensor<4x4xf32, #CSR>
    %sc = linalg.generic #scale outs(%a2 : tensor<4x4xf32, #CSR>) {
      ^bb0(%o: f32):
        %c2 = arith.constant 2.0 : f32
        %t = arith.mulf %o, %c2 : f32
        linalg.yield %t : f32
    } -> tensor<4x4xf32, #CSR>
    sparse_tensor.print %sc : tensor<4x4xf32, #CSR>
    %l = sparse_tensor.convert %d : tensor<4x4xf32> to tensor<4x4xf32, #Loose>
    sparse_tensor.print %l : tensor<4x4xf32, #Loose>
    %dn = sparse_tensor.convert %d : tensor<4x4xf32> to tensor<4x4xf32, #Dense>
    sparse_tensor.print %dn : tensor<4x4xf32, #Dense>
    %cc = sparse_tensor.convert %a : tensor<4x4xf32, #CSR> to tensor<4x4xf32, #CSC>
    sparse_tensor.print %cc : tensor<4x4xf32, #CSC>
    %nv = arith.constant dense<[[1.0, 0.0, 0.0, 2.0, 0.0, 3.0, 4.0, 0.0], [0.0, 5.0, 6.0, 0.0, 7.0, 0.0, 0.0, 8.0]]> : tensor<2x8xf32>
    %n = sparse_tensor.convert %nv : tensor<2x8xf32> to tensor<2x8xf32, #NV24>
    sparse_tensor.print %n : tensor<2x8xf32, #NV24>
    // integer and half values
    %di = arith.constant dense<[0, 3, 0, -7, 0, 0, 9, 0]> : tensor<8xi32>
    %vi = sparse_tensor.convert %di : tensor<8xi32> to tensor<8xi32, #SV>
    sparse_tensor.print %vi : tensor<8xi32, #SV>
    %dh = arith.constant dense<[0.0, 1.5, 0.0, -2.25]> : tensor<4xf16>
    %vh = sparse_tensor.convert %dh : tensor<4xf16> to tensor<4xf16, #SV>
    sparse_tensor.print %vh : tensor<4xf16, #SV>
    %db = arith.constant dense<[0.0, 1.5, 0.0, -2.25]> : tensor<4xbf16>
    %vb = sparse_tensor.convert %db : tensor<4xbf16> to tensor<4xbf16, #SV>
    sparse_tensor.print %vb : tensor<4xbf16, #SV>
    %d8 = arith.constant dense<[0, 5, 0, -2]> : tensor<4xi8>
    %v8 = sparse_tensor.convert %d8 : tensor<4xi8> to tensor<4xi8, #SV>
    sparse_tensor.print %v8 : tensor<4xi8, #SV>
    %d64 = arith.constant dense<[0, 5, 0, -2]> : tensor<4xi64>
    %v64 = sparse_tensor.convert %d64 : tensor<4xi64> to tensor<4xi64, #SV>
    sparse_tensor.print %v64 : tensor<4xi64, #SV>
    %d16 = arith.constant dense<[0, 5, 0, -2]> : tensor<4xi16>
    %v16 = sparse_tensor.convert %d16 : tensor<4xi16> to tensor<4xi16, #SV>
    sparse_tensor.print %v16 : tensor<4xi16, #SV>
    %dc = arith.constant dense<[(0.0, 0.0), (1.0, 2.0), (0.0, 0.0), (3.5, -1.0)]> : tensor<4xcomplex<f64>>
    %vc = sparse_tensor.convert %dc : tensor<4xcomplex<f64>> to tensor<4xcomplex<f64>, #SV>
    %rc = sparse_tensor.values %vc : tensor<4xcomplex<f64>, #SV> to memref<?xcomplex<f64>>
    %rcr = memref.cast %rc : memref<?xcomplex<f64>> to memref<*xcomplex<f64>>
    call @printMemrefC64(%rcr) : (memref<*xcomplex<f64>>) -> ()
    %dc32 = arith.constant dense<[(0.0, 0.0), (1.0, 2.0), (0.0, 0.0), (3.5, -1.0)]> : tensor<4xcomplex<f32>>
    %vc32 = sparse_tensor.convert %dc32 : tensor<4xcomplex<f32>> to tensor<4xcomplex<f32>, #SV>
    %rc32 = sparse_tensor.values %vc32 : tensor<4xcomplex<f32>, #SV> to memref<?xcomplex<f32>>
    %rcr32 = memref.cast %rc32 : memref<?xcomplex<f32>> to memref<*xcomplex<f32>>
    call @printMemrefC32(%rcr32) : (memref<*xcomplex<f32>>) -> ()
    // sum reduction of a sparse vector
    %z = arith.constant dense<0> : tensor<i32>
    %r = linalg.generic #sum ins(%vi : tensor<8xi32, #SV>) outs(%z : tensor<i32>) {
      ^bb0(%x: i32, %o: i32):
        %t = arith.addi %x, %o : i32
        linalg.yield %t : i32
    } -> tensor<i32>
    %rv = tensor.extract %r[] : tensor<i32>
    vector.print %rv : i32
    %d3 = arith.constant dense<[[[0.0, 1.0], [2.0, 0.0]], [[0.0, 0.0], [3.0, 4.0]]]> : tensor<2x2x2xf64>
    %c3 = sparse_tensor.convert %d3 : tensor<2x2x2xf64> to tensor<2x2x2xf64, #COO3>
    sparse_tensor.print %c3 : tensor<2x2x2xf64, #COO3>
    %back = sparse_tensor.convert %c3 : tensor<2x2x2xf64, #COO3> to tensor<2x2x2xf64>
    %f64z = arith.constant 0.0 : f64
    %vb3 = vector.transfer_read %back[%c0, %c0, %c0], %f64z : tensor<2x2x2xf64>, vector<2x2x2xf64>
    vector.print %vb3 : vector<2x2x2xf64>
    %sz = sparse_tensor.lvl %a, %c0 : tensor<4x4xf32, #CSR>
    vector.print %sz : index
    %ds = tensor.dim %a, %c0 : tensor<4x4xf32, #CSR>
    vector.print %ds : index
    return
  }
  func.func private @printMemrefC64(memref<*xcomplex<f64>>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefC32(memref<*xcomplex<f32>>) attributes { llvm.emit_c_interface }
}
