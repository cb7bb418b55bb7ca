// reduce_sum in MLIR: *out += sum(x[0..n)), one 256-thread block per 256 elements: a tree reduction in
// workgroup (shared) memory, then one atomic add per block. Kernel: (i32 n, ptr x, ptr out), like C.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce_sum(%n: i32, %x: !llvm.ptr<1>, %out: !llvm.ptr<1>)
        workgroup(%sh : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c128 = arith.constant 128 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %i = arith.addi %t0, %tid : index
      %i32 = arith.index_cast %i : index to i32
      %in = arith.cmpi slt, %i32, %n : i32
      %v = scf.if %in -> (f32) {
        %p = llvm.getelementptr %x[%i32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %xv = llvm.load %p : !llvm.ptr<1> -> f32
        scf.yield %xv : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %v, %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = scf.while (%s = %c128) : (index) -> index {
        %more = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s: index):
        %lower = arith.cmpi ult, %tid, %s : index
        scf.if %lower {
          %j = arith.addi %tid, %s : index
          %a = memref.load %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %sum = arith.addf %a, %b : f32
          memref.store %sum, %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %half = arith.shrui %s, %c1 : index
        scf.yield %half : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %total = memref.load %sh[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        %old = llvm.atomicrmw fadd %out, %total monotonic : !llvm.ptr<1>, f32
      }
      gpu.return
    }
  }
}
