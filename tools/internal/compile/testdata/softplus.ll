; softplus in LLVM IR: y[i] = log(1 + exp(x[i])), calling libdevice (__nv_expf, __nv_log1pf).
target triple = "nvptx64-nvidia-cuda"

declare float @__nv_expf(float)
declare float @__nv_log1pf(float)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define ptx_kernel void @softplus(i32 %n, ptr addrspace(1) %x, ptr addrspace(1) %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %done

body:
  %px = getelementptr float, ptr addrspace(1) %x, i32 %i
  %py = getelementptr float, ptr addrspace(1) %y, i32 %i
  %xv = load float, ptr addrspace(1) %px, align 4
  %e = call float @__nv_expf(float %xv)
  %r = call float @__nv_log1pf(float %e)
  store float %r, ptr addrspace(1) %py, align 4
  br label %done

done:
  ret void
}
