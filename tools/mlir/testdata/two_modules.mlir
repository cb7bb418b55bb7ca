// Two kernel modules; a --module regex picks one.
module attributes {gpu.container_module} {
  gpu.module @scale_a {
    gpu.func @scale(%x: memref<?xf32>, %s: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %s : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @offset_b {
    gpu.func @offset(%x: memref<?xf32>, %s: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.addf %v, %s : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
}
