// gpu.module @in_comment { -- not a module
// a comment with a "quote and gpu.module @x [#nvvm.target] {
module attributes {gpu.container_module, test.s = "gpu.module @in_string { // not a comment"} {
  gpu.module @"k 1" {
    gpu.func @f() kernel attributes {test.a = "} gpu.module @q {", test.b = "escaped \"quote\" \\ gpu.module @r {"} {
      gpu.return // } ] ) unbalanced, in a comment
    }
  }
  gpu.module @"k\22q" {
  }
  gpu.module @m.with.dots{
  }
  func.func @uses_strings() attributes {test.gpu = "gpu.module", test.hex = "\7B\7D"} {
    return
  }
}
