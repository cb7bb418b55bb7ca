// e2e.mlir exercises the wrappers that a lowered program calls beyond prog2.mlir's: device memory,
// copies, memset, a cluster launch, host unregistration, a printer called through its C interface
// (_mlir_ciface_printMemrefShapeF32) and the scalar printers. Expected output: see link_test.go.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%m: memref<4xf32>, %v: f32) kernel {
      %i = gpu.thread_id x
      %x = memref.load %m[%i] : memref<4xf32>
      %y = arith.addf %x, %v : f32
      memref.store %y, %m[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %f0 = arith.constant 0.0 : f32
    %f1 = arith.constant 1.0 : f32
    %f2 = arith.constant 2.0 : f32
    %f3 = arith.constant 3.0 : f32
    %f10 = arith.constant 10.0 : f32
    %f100 = arith.constant 100.0 : f32
    %h = memref.alloc() : memref<4xf32>
    memref.store %f0, %h[%c0] : memref<4xf32>
    memref.store %f1, %h[%c1] : memref<4xf32>
    memref.store %f2, %h[%c2] : memref<4xf32>
    memref.store %f3, %h[%c3] : memref<4xf32>
    %hu = memref.cast %h : memref<4xf32> to memref<*xf32>
    gpu.host_register %hu : memref<*xf32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<4xf32>, memref<4xf32>
    %t3 = gpu.launch_func async [%t2] @kernels::@add blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>, %f10 : f32)
    %t4 = gpu.launch_func async [%t3] @kernels::@add clusters in (%c1, %c1, %c1) blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>, %f100 : f32)
    %t5 = gpu.memcpy async [%t4] %h, %d : memref<4xf32>, memref<4xf32>
    gpu.wait [%t5]
    call @printMemrefF32(%hu) : (memref<*xf32>) -> ()
    %t6 = gpu.wait async
    %t7 = gpu.memset async [%t6] %d, %f2 : memref<4xf32>, f32
    %t8 = gpu.memcpy async [%t7] %h, %d : memref<4xf32>, memref<4xf32>
    %t9 = gpu.dealloc async [%t8] %d : memref<4xf32>
    gpu.wait [%t9]
    call @printMemrefShapeF32(%hu) : (memref<*xf32>) -> ()
    call @printMemrefF32(%hu) : (memref<*xf32>) -> ()
    gpu.host_unregister %hu : memref<*xf32>
    call @printF32(%f10) : (f32) -> ()
    call @printNewline() : () -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefShapeF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printF32(f32)
  func.func private @printNewline()
}
