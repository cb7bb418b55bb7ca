// Two gpu.modules in one program, each with a kernel, launched one after the other with
// gpu.launch_func on the same host-registered i32 memref.
module attributes {gpu.container_module} {
  gpu.module @fill {
    // m[i] = 3 * i
    gpu.func @times3(%m: memref<6xi32>) kernel {
      %c3 = arith.constant 3 : i32
      %i = gpu.thread_id x
      %i32 = arith.index_cast %i : index to i32
      %v = arith.muli %i32, %c3 : i32
      memref.store %v, %m[%i] : memref<6xi32>
      gpu.return
    }
  }
  gpu.module @update {
    // m[i] = m[i] * m[i] + k
    gpu.func @square_plus(%m: memref<6xi32>, %k: i32) kernel {
      %i = gpu.thread_id x
      %x = memref.load %m[%i] : memref<6xi32>
      %sq = arith.muli %x, %x : i32
      %v = arith.addi %sq, %k : i32
      memref.store %v, %m[%i] : memref<6xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %k = arith.constant 1 : i32
    %m = memref.alloc() : memref<6xi32>
    %mu = memref.cast %m : memref<6xi32> to memref<*xi32>
    gpu.host_register %mu : memref<*xi32>
    gpu.launch_func @fill::@times3 blocks in (%c1, %c1, %c1) threads in (%c6, %c1, %c1) args(%m : memref<6xi32>)
    call @printMemrefI32(%mu) : (memref<*xi32>) -> ()
    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
    // CHECK-NEXT: [0,  3,  6,  9,  12,  15]
    gpu.launch_func @update::@square_plus blocks in (%c1, %c1, %c1) threads in (%c6, %c1, %c1) args(%m : memref<6xi32>, %k : i32)
    call @printMemrefI32(%mu) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
    // CHECK-NEXT: [1,  10,  37,  82,  145,  226]
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
