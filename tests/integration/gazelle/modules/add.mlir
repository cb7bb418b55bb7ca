gpu.module @kernels {
  gpu.func @add(%x: memref<4xf32>, %y: memref<4xf32>) kernel {
    %i = gpu.thread_id x
    %a = memref.load %x[%i] : memref<4xf32>
    %b = memref.load %y[%i] : memref<4xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %y[%i] : memref<4xf32>
    gpu.return
  }
}
