// Device printf (gpu.printf, lowered to vprintf): four threads print one line each, in an order
// that the GPU does not fix (CHECK-DAG), then a single thread prints in a loop, in order, an f32
// argument included (promoted to double for %f).
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %c100 = arith.constant 100 : i32
      %t = arith.index_cast %tx : index to i32
      %sq = arith.muli %t, %t : i32
      %v = arith.addi %c100, %sq : i32
      gpu.printf "thread %lld of %lld: %d\n", %tx, %sx, %v : index, index, i32
      gpu.terminator
    }
    // CHECK-DAG: thread 0 of 4: 100
    // CHECK-DAG: thread 1 of 4: 101
    // CHECK-DAG: thread 2 of 4: 104
    // CHECK-DAG: thread 3 of 4: 109
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %n = arith.constant 4 : index
      %half = arith.constant 0.5 : f32
      scf.for %i = %c0 to %n step %one {
        %i32 = arith.index_cast %i : index to i32
        %f = arith.sitofp %i32 : i32 to f32
        %h = arith.mulf %f, %half : f32
        gpu.printf "step %d: half = %f\n", %i32, %h : i32, f32
      }
      gpu.terminator
    }
    // CHECK: step 0: half = 0.000000
    // CHECK-NEXT: step 1: half = 0.500000
    // CHECK-NEXT: step 2: half = 1.000000
    // CHECK-NEXT: step 3: half = 1.500000
    return
  }
}
