// saxpy: y[i] = a*x[i] + y[i], one thread per element, launched from the host.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %c0 = arith.constant 0 : index
      %n = memref.dim %x, %c0 : memref<?xf32>
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %a, %xi : f32
        %s = arith.addf %ax, %yi : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func @run(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %blocks: index) {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@saxpy blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>)
    return
  }
}
