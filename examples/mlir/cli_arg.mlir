// A program that takes its input from the command line: @main(argc, argv) reads argv[1] with
// atoi, passes the number n to a kernel that writes n * (i + 1), prints n with printString and
// printI64, and returns its exit status (2 without an argument). Its gpu_test passes "7".
module attributes {gpu.container_module} {
  llvm.mlir.global internal constant @label("n = \00") {addr_space = 0 : i32}
  func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
    %has_arg = arith.cmpi sge, %argc, %c2_i32 : i32
    cf.cond_br %has_arg, ^run, ^usage
  ^usage:
    return %c2_i32 : i32
  ^run:
    %p1 = llvm.getelementptr %argv[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %arg1 = llvm.load %p1 : !llvm.ptr -> !llvm.ptr
    %n = call @atoi(%arg1) : (!llvm.ptr) -> i32
    %label = llvm.mlir.addressof @label : !llvm.ptr
    call @printString(%label) : (!llvm.ptr) -> ()
    %n64 = arith.extsi %n : i32 to i64
    call @printI64(%n64) : (i64) -> ()
    call @printNewline() : () -> ()
    // CHECK: n = 7
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<8xi32>
    %outu = memref.cast %out : memref<8xi32> to memref<*xi32>
    gpu.host_register %outu : memref<*xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %one = arith.constant 1 : i32
      %t = arith.index_cast %tx : index to i32
      %t1 = arith.addi %t, %one : i32
      %v = arith.muli %n, %t1 : i32
      memref.store %v, %out[%tx] : memref<8xi32>
      gpu.terminator
    }
    call @printMemrefI32(%outu) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
    // CHECK-NEXT: [7,  14,  21,  28,  35,  42,  49,  56]
    return %c0_i32 : i32
  }
  func.func private @atoi(!llvm.ptr) -> i32
  func.func private @printString(!llvm.ptr)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @printMemrefI32(memref<*xi32>)
}
