// examples/mlir/async_execute.mlir's async structure on the CPU: the same regions, tokens and
// values, with host buffers (memref.alloc, memref.copy, a loop) in place of GPU ones (gpu.alloc,
// gpu.memcpy, the kernel).
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %hx = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %hx[%i] : memref<8xf32>
    }
    %hy = memref.alloc() : memref<8xf32>
    %tx, %fx = async.execute () -> !async.value<memref<8xf32>> {
      %dx = memref.alloc () : memref<8xf32>
      memref.copy %hx, %dx : memref<8xf32> to memref<8xf32>
      async.yield %dx : memref<8xf32>
    }
    %ty, %fy = async.execute () -> !async.value<memref<8xf32>> {
      %dy = memref.alloc () : memref<8xf32>
      scf.for %i = %c0 to %c8 step %c1 {
        memref.store %one, %dy[%i] : memref<8xf32>
      }
      async.yield %dy : memref<8xf32>
    }
    %ts, %fs = async.execute [%tx, %ty] (%fx as %dx : !async.value<memref<8xf32>>,
                                         %fy as %dy : !async.value<memref<8xf32>>) -> !async.value<f32> {
      scf.for %i = %c0 to %c8 step %c1 {
        %xv = memref.load %dx[%i] : memref<8xf32>
        %yv = memref.load %dy[%i] : memref<8xf32>
        %p = arith.mulf %two, %xv : f32
        %s = arith.addf %p, %yv : f32
        memref.store %s, %dy[%i] : memref<8xf32>
      }
      memref.copy %dy, %hy : memref<8xf32> to memref<8xf32>
      memref.dealloc %dx : memref<8xf32>
      memref.dealloc %dy : memref<8xf32>
      %first = memref.load %hy[%c0] : memref<8xf32>
      %last = memref.load %hy[%c7] : memref<8xf32>
      %sum = arith.addf %first, %last : f32
      async.yield %sum : f32
    }
    %tq, %fq = async.execute -> !async.value<f32> {
      %s = async.await %fs : !async.value<f32>
      %q = arith.mulf %s, %s : f32
      async.yield %q : f32
    }
    async.await %ts : !async.token
    %hyu = memref.cast %hy : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%hyu) : (memref<*xf32>) -> ()
    %s = async.await %fs : !async.value<f32>
    vector.print %s : f32
    %q = async.await %fq : !async.value<f32>
    vector.print %q : f32
    memref.dealloc %hx : memref<8xf32>
    memref.dealloc %hy : memref<8xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
