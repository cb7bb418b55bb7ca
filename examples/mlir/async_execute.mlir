// The async dialect over GPU work: two async.execute regions run at once, one copying x to the GPU
// and the other filling y there (each allocates its buffer and yields it as an !async.value); a
// third, which depends on both (their tokens) and takes their buffers (their values), launches
// y = 2 * x + y, copies y back, frees the buffers and yields y[0] + y[7]; a fourth awaits that value
// inside its region and yields it squared. The host awaits the third's token and the fourth's
// value. rules_gpu gives the GPU ops inside the regions streams (gpu-async-region) and runs the
// regions as coroutines on package mlirrt's async runtime (docs/mlir.md).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // y[i] = a * x[i] + y[i]
    gpu.func @axpy(%a: f32, %x: memref<8xf32>, %y: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %xv = memref.load %x[%i] : memref<8xf32>
      %yv = memref.load %y[%i] : memref<8xf32>
      %p = arith.mulf %a, %xv : f32
      %s = arith.addf %p, %yv : f32
      memref.store %s, %y[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    // x = [0, 1, ..., 7] on the host.
    %hx = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %hx[%i] : memref<8xf32>
    }
    %hy = memref.alloc() : memref<8xf32>
    // Two independent regions: x copied to the GPU, y set to 1 there.
    %tx, %fx = async.execute () -> !async.value<memref<8xf32>> {
      %dx = gpu.alloc () : memref<8xf32>
      gpu.memcpy %dx, %hx : memref<8xf32>, memref<8xf32>
      async.yield %dx : memref<8xf32>
    }
    %ty, %fy = async.execute () -> !async.value<memref<8xf32>> {
      %dy = gpu.alloc () : memref<8xf32>
      gpu.memset %dy, %one : memref<8xf32>, f32
      async.yield %dy : memref<8xf32>
    }
    // Joined: after both, with both buffers.
    %ts, %fs = async.execute [%tx, %ty] (%fx as %dx : !async.value<memref<8xf32>>,
                                         %fy as %dy : !async.value<memref<8xf32>>) -> !async.value<f32> {
      gpu.launch_func @kernels::@axpy blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%two : f32, %dx : memref<8xf32>, %dy : memref<8xf32>)
      gpu.memcpy %hy, %dy : memref<8xf32>, memref<8xf32>
      gpu.dealloc %dx : memref<8xf32>
      gpu.dealloc %dy : memref<8xf32>
      %first = memref.load %hy[%c0] : memref<8xf32>
      %last = memref.load %hy[%c7] : memref<8xf32>
      %sum = arith.addf %first, %last : f32
      async.yield %sum : f32
    }
    // A region that awaits the sum inside its body (a suspension, not a dependency).
    %tq, %fq = async.execute -> !async.value<f32> {
      %s = async.await %fs : !async.value<f32>
      %q = arith.mulf %s, %s : f32
      async.yield %q : f32
    }
    async.await %ts : !async.token
    %hyu = memref.cast %hy : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%hyu) : (memref<*xf32>) -> ()
    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
    // CHECK-NEXT: [1,  3,  5,  7,  9,  11,  13,  15]
    %s = async.await %fs : !async.value<f32>
    vector.print %s : f32
    // CHECK-NEXT: 16
    %q = async.await %fq : !async.value<f32>
    vector.print %q : f32
    // CHECK-NEXT: 256
    memref.dealloc %hx : memref<8xf32>
    memref.dealloc %hy : memref<8xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
