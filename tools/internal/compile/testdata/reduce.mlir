// Two shared-memory kernels in MLIR's gpu, arith, scf, memref and llvm dialects, with C-like
// signatures (i32 scalars, !llvm.ptr<1> global pointers):
//
//   block_sum(n, in, out): each block of 256 threads sums its 256 elements of in (0 past n) with a
//     tree reduction in shared memory; out[blockIdx.x] = the block's sum.
//   matmul_tiled(n, a, b, c): c = a * b for n x n row-major f32 matrices, 16 x 16 thread blocks
//     that stage 16 x 16 tiles of a and b in shared memory (math.fma: a libdevice call).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @block_sum(%n: i32, %in: !llvm.ptr<1>, %out: !llvm.ptr<1>)
        workgroup(%buf: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c256 : index
      %i = arith.addi %base, %tid : index
      %i32 = arith.index_cast %i : index to i32
      %inside = arith.cmpi slt, %i32, %n : i32
      %v = scf.if %inside -> (f32) {
        %p = llvm.getelementptr %in[%i32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %x = llvm.load %p : !llvm.ptr<1> -> f32
        scf.yield %x : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %v, %buf[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      // for (s = 128; s > 0; s >>= 1) { if (tid < s) buf[tid] += buf[tid + s]; barrier }
      scf.for %k = %c0 to %c8 step %c1 {
        %s = arith.shrui %c128, %k : index
        %active = arith.cmpi ult, %tid, %s : index
        scf.if %active {
          %j = arith.addi %tid, %s : index
          %a = memref.load %buf[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %b = memref.load %buf[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %sum = arith.addf %a, %b : f32
          memref.store %sum, %buf[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %total = memref.load %buf[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        %b32 = arith.index_cast %bid : index to i32
        %po = llvm.getelementptr %out[%b32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        llvm.store %total, %po : f32, !llvm.ptr<1>
      }
      gpu.return
    }

    gpu.func @matmul_tiled(%n: i32, %a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>)
        workgroup(%ta: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %tb: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %i16 = arith.constant 16 : i32
      %i15 = arith.constant 15 : i32
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx32 = arith.index_cast %tx : index to i32
      %ty32 = arith.index_cast %ty : index to i32
      %bx32 = arith.index_cast %bx : index to i32
      %by32 = arith.index_cast %by : index to i32
      %row0 = arith.muli %by32, %i16 : i32
      %row = arith.addi %row0, %ty32 : i32
      %col0 = arith.muli %bx32, %i16 : i32
      %col = arith.addi %col0, %tx32 : i32
      %row_in = arith.cmpi slt, %row, %n : i32
      %col_in = arith.cmpi slt, %col, %n : i32
      %n15 = arith.addi %n, %i15 : i32
      %tiles32 = arith.divsi %n15, %i16 : i32
      %tiles = arith.index_cast %tiles32 : i32 to index
      %acc = scf.for %t = %c0 to %tiles step %c1 iter_args(%sum = %zero) -> (f32) {
        %t32 = arith.index_cast %t : index to i32
        %k0 = arith.muli %t32, %i16 : i32
        // ta[ty][tx] = a[row][k0 + tx], 0 outside the matrix
        %ka = arith.addi %k0, %tx32 : i32
        %ka_in = arith.cmpi slt, %ka, %n : i32
        %a_in = arith.andi %row_in, %ka_in : i1
        %va = scf.if %a_in -> (f32) {
          %ra = arith.muli %row, %n : i32
          %ia = arith.addi %ra, %ka : i32
          %pa = llvm.getelementptr %a[%ia] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
          %x = llvm.load %pa : !llvm.ptr<1> -> f32
          scf.yield %x : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %va, %ta[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        // tb[ty][tx] = b[k0 + ty][col], 0 outside the matrix
        %kb = arith.addi %k0, %ty32 : i32
        %kb_in = arith.cmpi slt, %kb, %n : i32
        %b_in = arith.andi %kb_in, %col_in : i1
        %vb = scf.if %b_in -> (f32) {
          %rb = arith.muli %kb, %n : i32
          %ib = arith.addi %rb, %col : i32
          %pb = llvm.getelementptr %b[%ib] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
          %y = llvm.load %pb : !llvm.ptr<1> -> f32
          scf.yield %y : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %vb, %tb[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %sum) -> (f32) {
          %x = memref.load %ta[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tb[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %s2 = math.fma %x, %y, %s : f32
          scf.yield %s2 : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      %out_in = arith.andi %row_in, %col_in : i1
      scf.if %out_in {
        %rc = arith.muli %row, %n : i32
        %ic = arith.addi %rc, %col : i32
        %pc = llvm.getelementptr %c[%ic] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        llvm.store %acc, %pc : f32, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}
