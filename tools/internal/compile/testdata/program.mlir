// program.mlir: an MLIR program with a gpu.module before @main, one after, and two gpu.launch
// regions in @main, which gpu-kernel-outlining makes gpu.module @main_kernel and @main_kernel_0
// and places right after @main: the program's modules are, in order, zeta, main_kernel,
// main_kernel_0, alpha. The program tests of tools/internal/compile and tools/cmd/gpubuild read it.
module attributes {gpu.container_module} {
  gpu.module @zeta {
    gpu.func @kz(%m: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %m[%i] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %m[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = memref.alloc() : memref<4xf32>
    %mu = memref.cast %m : memref<4xf32> to memref<*xf32>
    gpu.host_register %mu : memref<*xf32>
    gpu.launch_func @zeta::@kz blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @alpha::@ka blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %v = arith.index_cast %tx : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %m[%tx] : memref<4xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %x = memref.load %m[%tx] : memref<4xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %m[%tx] : memref<4xf32>
      gpu.terminator
    }
    return
  }
  gpu.module @alpha {
    gpu.func @ka(%m: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %m[%i] : memref<4xf32>
      %y = arith.subf %x, %x : f32
      memref.store %y, %m[%i] : memref<4xf32>
      gpu.return
    }
  }
}
