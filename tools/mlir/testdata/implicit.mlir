// No single top-level module: mlir-opt wraps these ops in one, so @free is a direct child of it
// and the modules inside the explicit modules are not.
gpu.module @free {
}
module @m1 {
  gpu.module @in_m1 {
  }
}
func.func @host() {
  return
}
