// A cluster launch (thread block clusters, sm_90 and newer): a grid of 4 blocks in clusters of 2,
// launched through mgpuLaunchClusterKernel (cuLaunchKernelEx). Block b of the grid writes
// 10 * (its cluster's index) + (its index in the cluster).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @where(%out: memref<4xi32>) kernel {
      %b = gpu.block_id x
      %c = gpu.cluster_id x
      %r = gpu.cluster_block_id x
      %ten = arith.constant 10 : index
      %t = arith.muli %c, %ten : index
      %v = arith.addi %t, %r : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %out[%b] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<4xi32>
    %u = memref.cast %out : memref<4xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    gpu.launch_func @kernels::@where clusters in (%c2, %c1, %c1) blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<4xi32>)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
    // CHECK-NEXT: [0,  1,  10,  11]
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
