// Tokens and values: a region that depends on another's token and takes its value, regions
// that each write an element of a buffer, joined by a group in a loop, and a region that awaits
// a nested region's value inside its body (a suspension).
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : i64
    %buf = memref.alloc() : memref<4xi64>
    %t0, %v0 = async.execute () -> !async.value<i64> {
      %x = arith.constant 32 : i64
      async.yield %x : i64
    }
    %t1, %v1 = async.execute [%t0] (%v0 as %x : !async.value<i64>) -> !async.value<i64> {
      %y = arith.addi %x, %c10 : i64
      async.yield %y : i64
    }
    %n = arith.constant 4 : index
    %g = async.create_group %n : !async.group
    scf.for %i = %c0 to %c4 step %c1 {
      %t = async.execute {
        %ii = arith.index_cast %i : index to i64
        %sq = arith.muli %ii, %ii : i64
        memref.store %sq, %buf[%i] : memref<4xi64>
        async.yield
      }
      %idx = async.add_to_group %t, %g : !async.token
    }
    async.await_all %g
    %t2, %v2 = async.execute -> !async.value<i64> {
      %ti, %vi = async.execute -> !async.value<i64> {
        %z = arith.constant 7 : i64
        async.yield %z : i64
      }
      %z = async.await %vi : !async.value<i64>
      %w = arith.muli %z, %c10 : i64
      async.yield %w : i64
    }
    %r1 = async.await %v1 : !async.value<i64>
    call @printI64(%r1) : (i64) -> ()
    call @printNewline() : () -> ()
    %r2 = async.await %v2 : !async.value<i64>
    call @printI64(%r2) : (i64) -> ()
    call @printNewline() : () -> ()
    %u = memref.cast %buf : memref<4xi64> to memref<*xi64>
    call @printMemrefI64(%u) : (memref<*xi64>) -> ()
    return
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @printMemrefI64(memref<*xi64>)
}
