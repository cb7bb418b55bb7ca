// saxpy in MLIR: y[i] = a * x[i] + y[i]; the kernel takes (i32 n, f32 a, ptr x, ptr y), like C.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%n: i32, %a: f32, %x: !llvm.ptr<1>, %y: !llvm.ptr<1>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %i = arith.addi %t0, %tid : index
      %i32 = arith.index_cast %i : index to i32
      %in = arith.cmpi slt, %i32, %n : i32
      scf.if %in {
        %px = llvm.getelementptr %x[%i32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %py = llvm.getelementptr %y[%i32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %xv = llvm.load %px : !llvm.ptr<1> -> f32
        %yv = llvm.load %py : !llvm.ptr<1> -> f32
        %r = math.fma %a, %xv, %yv : f32
        llvm.store %r, %py : f32, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}
