module attributes {gpu.container_module} {
  // An offloading handler, an attribute dictionary and a kernel with attributes.
  gpu.module @handler <#gpu.select_object<0>> attributes {nvvm.note = "keep me", test.flag} {
    gpu.func @k(%x: memref<4xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<4xi32>
      memref.store %v, %x[%i] : memref<4xi32>
      gpu.return
    }
  }
  gpu.module @plain attributes {test.list = [1, 2, 3]} {
  }
}
