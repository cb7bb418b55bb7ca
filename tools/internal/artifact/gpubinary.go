package artifact

import (
	"fmt"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

// FormatMLIR is MLIR text holding gpu.binary ops: what mlir-opt's gpu-module-to-binary pass prints.
// Package mlir reads the text (mlir.GPUObjects); this file turns its objects into GPU images.
const FormatMLIR Format = "mlir"

// ObjectImages returns the GPU images of an NVVM object: a cubin as one ELF image, PTX as one PTX
// image, a fatbin as its entries.
func ObjectImages(o mlir.GPUObject) ([]fatbin.Entry, error) {
	if o.Dialect != "nvvm" {
		return nil, fmt.Errorf("line %d: gpu.binary @%s object %d: target %s is not a CUDA (#nvvm.target) target", o.Line, o.Binary, o.Index, o.Target)
	}
	var (
		e   fatbin.Entry
		err error
	)
	switch o.Format {
	case mlir.ObjectBin:
		e, err = CubinImage(o.Data)
	case mlir.ObjectISA:
		e, err = PTXImage(o.Data)
	case mlir.ObjectFatbin:
		var f *fatbin.File
		if f, err = fatbin.Read(o.Data); err == nil {
			if err = CheckEntries(f.Entries); err == nil {
				return f.Entries, nil
			}
		}
	case mlir.ObjectOffload:
		err = fmt.Errorf("it holds LLVM bitcode (format offload), not a GPU image; serialise with format isa, bin or fatbin")
	default:
		err = fmt.Errorf("unknown object format %q", o.Format)
	}
	if err != nil {
		return nil, fmt.Errorf("line %d: gpu.binary @%s object %d (%s, %s): %w", o.Line, o.Binary, o.Index, o.Format, o.Chip, err)
	}
	return []fatbin.Entry{e}, nil
}

// parseMLIR returns the images of every NVVM object of every gpu.binary op of MLIR text, in text order.
func parseMLIR(data []byte) (*Artifact, error) {
	objs, err := mlir.GPUObjects(data)
	if err != nil {
		return nil, err
	}
	if len(objs) == 0 {
		return nil, fmt.Errorf("MLIR text without gpu.binary ops: serialise its gpu.modules first (mlir-opt --gpu-module-to-binary, or --gpu-lower-to-nvvm-pipeline)")
	}
	a := &Artifact{Format: FormatMLIR}
	for _, o := range objs {
		imgs, err := ObjectImages(o)
		if err != nil {
			return nil, err
		}
		a.Images = append(a.Images, imgs...)
	}
	return a, nil
}
