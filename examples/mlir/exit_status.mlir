// A test with no CHECK lines (check = "exit_status"): main returns the exit status, 0 only when the
// GPU's sum of 0 + 1 + ... + 255, by an atomic add per thread into registered host memory, is 32640.
module attributes {gpu.container_module} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0 : i32
    %sum = memref.alloc() : memref<1xi32>
    memref.store %zero, %sum[%c0] : memref<1xi32>
    %sumu = memref.cast %sum : memref<1xi32> to memref<*xi32>
    gpu.host_register %sumu : memref<*xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %t = arith.index_cast %tx : index to i32
      %old = memref.atomic_rmw addi %t, %sum[%c0] : (i32, memref<1xi32>) -> i32
      gpu.terminator
    }
    %got = memref.load %sum[%c0] : memref<1xi32>
    %want = arith.constant 32640 : i32
    %ok = arith.cmpi eq, %got, %want : i32
    %one = arith.constant 1 : i32
    %status = arith.select %ok, %zero, %one : i32
    return %status : i32
  }
}
