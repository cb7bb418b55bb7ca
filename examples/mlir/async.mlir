// Asynchronous GPU work chained by tokens: two independent streams allocate and fill device
// buffers (gpu.alloc, gpu.memcpy, gpu.memset async), a third (gpu.wait async on both: events)
// launches two kernels, copies the results back and frees the buffers, and the host waits
// (gpu.wait) for the three before it prints. Each chain is its own stream: a gpu.wait async with
// one dependency is folded into that token's stream, and a gpu.wait destroys the stream of each
// token it lists, so it must not list two tokens of one stream (a double destroy: a crash).
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
    // y[i] = y[i] * y[i]
    gpu.func @square(%y: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %yv = memref.load %y[%i] : memref<8xf32>
      %s = arith.mulf %yv, %yv : f32
      memref.store %s, %y[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
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
    %hmid = memref.alloc() : memref<8xf32>
    %hy = memref.alloc() : memref<8xf32>
    // Two independent streams: x copied to the GPU on one, y set to 1 on the other.
    %a0 = gpu.wait async
    %dx, %a1 = gpu.alloc async [%a0] () : memref<8xf32>
    %a2 = gpu.memcpy async [%a1] %dx, %hx : memref<8xf32>, memref<8xf32>
    %b0 = gpu.wait async
    %dy, %b1 = gpu.alloc async [%b0] () : memref<8xf32>
    %b2 = gpu.memset async [%b1] %dy, %one : memref<8xf32>, f32
    // A third stream that waits for both: y = 2 * x + 1, copied to hmid; then y = y * y, copied to
    // hy; the buffers freed.
    %j0 = gpu.wait async [%a2, %b2]
    %j1 = gpu.launch_func async [%j0] @kernels::@axpy blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%two : f32, %dx : memref<8xf32>, %dy : memref<8xf32>)
    %j2 = gpu.memcpy async [%j1] %hmid, %dy : memref<8xf32>, memref<8xf32>
    %j3 = gpu.launch_func async [%j2] @kernels::@square blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dy : memref<8xf32>)
    %j4 = gpu.memcpy async [%j3] %hy, %dy : memref<8xf32>, memref<8xf32>
    %j5 = gpu.dealloc async [%j4] %dx : memref<8xf32>
    %j6 = gpu.dealloc async [%j5] %dy : memref<8xf32>
    // The host waits for all three streams (and destroys them).
    gpu.wait [%a2, %b2, %j6]
    %hmidu = memref.cast %hmid : memref<8xf32> to memref<*xf32>
    %hyu = memref.cast %hy : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%hmidu) : (memref<*xf32>) -> ()
    // CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
    // CHECK-NEXT: [1,  3,  5,  7,  9,  11,  13,  15]
    call @printMemrefF32(%hyu) : (memref<*xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
    // CHECK-NEXT: [1,  9,  25,  49,  81,  121,  169,  225]
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
