// Modules that already have targets, written in every way MLIR reads them.
#sm80 = #nvvm.target<chip = "sm_80">
#dflt = #nvvm.target<O = 2, chip = "sm_50">
module attributes {gpu.container_module} {
  // The default target, spelled out: attaching the default is a no-op here.
  gpu.module @dflt [#nvvm.target<features = "+ptx60", triple = "nvptx64-nvidia-cuda">] {
  }
  // Another chip first, then (for MLIR) the new target appended.
  gpu.module @sm80 [#nvvm.target<chip = "sm_80", O = 3>] {
  }
  // Through aliases.
  gpu.module @alias [#sm80, #dflt] {
  }
  // An AMD target and a NVVM one with flags, written loosely.
  gpu.module @mixed [#rocdl.target<chip = "gfx90a">,
                     #nvvm.target< flags = {ftz,fast} , chip="sm_90" >] {
  }
  // Equal neighbours, which MLIR's pass merges (llvm::unique) whatever it attaches.
  gpu.module @twice [#nvvm.target<chip = "sm_70">, #nvvm.target<chip = "sm_70">] {
  }
  // Targets in the attribute dictionary instead of the [...] list.
  gpu.module @dict attributes {targets = [#nvvm.target<chip = "sm_75">]} {
  }
}
