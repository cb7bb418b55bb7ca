gpu.module @first {
  gpu.func @k1() kernel { gpu.return }
}
gpu.module @"second one" {
  gpu.func @k2() kernel { gpu.return }
}
