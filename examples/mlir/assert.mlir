// A device assert, checked on the program's standard output and error together (check =
// "combined", as upstream's `2>&1 | FileCheck`). Two launches: in the first every thread's
// `cf.assert` holds and each prints after it; in the second the two threads with an odd id fail it
// (lowered to the device's __assertfail, which prints the message and stops the kernel: what the
// other threads of the launch do after that is up to the GPU's scheduling, so they print nothing).
// The runtime reports the failed synchronisation (CUDA_ERROR_ASSERT) and carries on, as MLIR's
// does, so the host's last line is printed too.
module attributes {gpu.container_module} {
  llvm.mlir.global internal constant @after("host: after the kernel\0A\00") {addr_space = 0 : i32}
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %in = arith.cmpi ult, %tx, %c4 : index
      cf.assert %in, "thread id out of range"
      gpu.printf "thread %lld: past the assert\n", %tx : index
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %c2 = arith.constant 2 : index
      %c0 = arith.constant 0 : index
      %r = arith.remui %tx, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      cf.assert %even, "thread id is odd"
      gpu.terminator
    }
    %msg = llvm.mlir.addressof @after : !llvm.ptr
    call @printString(%msg) : (!llvm.ptr) -> ()
    return
  }
  func.func private @printString(!llvm.ptr)
}
// CHECK-DAG: thread 0: past the assert
// CHECK-DAG: thread 1: past the assert
// CHECK-DAG: thread 2: past the assert
// CHECK-DAG: thread 3: past the assert
// CHECK-DAG: block: [0,0,0], thread: [1,0,0] Assertion `thread id is odd` failed.
// CHECK-DAG: block: [0,0,0], thread: [3,0,0] Assertion `thread id is odd` failed.
// CHECK-DAG: mlirrt: mgpuStreamSynchronize: cuStreamSynchronize {{.*}}failed with CUDA_ERROR_ASSERT
// CHECK-DAG: host: after the kernel
// CHECK-NOT: Assertion `thread id out of range` failed
