; twice.ll: twice() as LLVM IR, device code only, linked into scale.cu's module per chip (rdc).
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define float @_Z5twicef(float %x) {
  %r = fmul float %x, 2.0
  ret float %r
}
