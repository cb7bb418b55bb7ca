// gpu.modules inside a nested builtin.module are not direct children of the top-level module:
// --nvvm-attach-target leaves them alone.
module @outer {
  gpu.module @top {
  }
  builtin.module @inner {
    gpu.module @deep {
    }
    builtin.module {
      gpu.module @deeper {
      }
    }
  }
}
