// Errors: a token and a value set to the error state, a region that depends on the token (its
// own token and value in error), a group holding that token, and the ranks of a group's tokens.
module {
  func.func @main() {
    %c2 = arith.constant 2 : index
    %t0 = async.runtime.create : !async.token
    async.runtime.set_error %t0 : !async.token
    %v0 = async.runtime.create : !async.value<i64>
    async.runtime.set_error %v0 : !async.value<i64>
    %t1, %v1 = async.execute [%t0] -> !async.value<i64> {
      %x = arith.constant 1 : i64
      async.yield %x : i64
    }
    %t2 = async.execute {
      async.yield
    }
    %g = async.runtime.create_group %c2 : !async.group
    %r0 = async.runtime.add_to_group %t1, %g : !async.token
    %r1 = async.runtime.add_to_group %t2, %g : !async.token
    async.runtime.await %g : !async.group
    async.runtime.await %v1 : !async.value<i64>
    %e0 = async.runtime.is_error %t0 : !async.token
    %e1 = async.runtime.is_error %v0 : !async.value<i64>
    %e2 = async.runtime.is_error %v1 : !async.value<i64>
    %e3 = async.runtime.is_error %t2 : !async.token
    %eg = async.runtime.is_error %g : !async.group
    call @show(%e0) : (i1) -> ()
    call @show(%e1) : (i1) -> ()
    call @show(%e2) : (i1) -> ()
    call @show(%e3) : (i1) -> ()
    call @show(%eg) : (i1) -> ()
    %i0 = arith.index_cast %r0 : index to i64
    %i1 = arith.index_cast %r1 : index to i64
    call @printI64(%i0) : (i64) -> ()
    call @printI64(%i1) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
  func.func @show(%b: i1) {
    %x = arith.extui %b : i1 to i64
    call @printI64(%x) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
}
