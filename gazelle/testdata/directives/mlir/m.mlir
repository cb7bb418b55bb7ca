gpu.module @m {
  gpu.func @k() kernel { gpu.return }
}
