package compile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/modules"
	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

// nvgpuLowering lowers the nvgpu dialect (TMA, mbarriers, warpgroup MMA: sm_90a) to NVVM across the
// source, gpu.launch regions included, before any outlining, as MLIR's own
// gpu-lower-to-nvvm-pipeline does first: a TMA descriptor that a launch captures becomes a pointer.
const nvgpuLowering = "convert-nvgpu-to-nvvm"

// OutlinePasses are the passes that a program's device and host sides both run first, so that
// their modules have the same names and their kernels the same parameters: the nvgpu lowering, then
// gpu-kernel-outlining (a gpu.launch in @main becomes gpu.module @main_kernel, as in MLIR's
// integration tests; existing gpu.modules are kept).
const OutlinePasses = nvgpuLowering + ",gpu-kernel-outlining"

// deviceLowering lowers the device code of every gpu.module to the LLVM and NVVM dialects, as MLIR's
// own gpu-lower-to-nvvm-pipeline does for the device side; convert-nvvm-to-llvm writes the NVVM ops
// that have no LLVM intrinsic (those nvgpu lowers to: mbarrier expect_tx, TMA copies, wgmma) as
// inline PTX.
const deviceLowering = "gpu.module(strip-debuginfo,convert-scf-to-cf,convert-gpu-to-nvvm,convert-nvvm-to-llvm,canonicalize,cse,reconcile-unrealized-casts)"

// LowerToPTX lowers an MLIR source and writes its PTX for every chip of chips in one mlir-opt, as
// MLIR's own pipeline does: one nvvm-attach-target per chip (job's O, the PTX ISA that the
// toolkit picks for the chip, the toolkit's libdevice), the device lowering, and
// gpu-module-to-binary{format=isa}. The LLVM work of every chip is done in one process (what
// would otherwise be one LLVM tool started per chip); each chip's ptxas is left to its own job,
// which starts from that PTX. The PTX is what Compile writes for the chip (format isa), but for
// comments and blank lines.
//
// Each chip's PTX goes to dir/CHIP.ptx, or dir/STEM.CHIP.ptx when stem is given (dir is made if
// missing): a file, or with program (every
// module of an MLIR program, those gpu-kernel-outlining makes of its gpu.launch regions
// included) a directory of NAME.ptx, one per module, that CompileProgram takes. job.Chip and
// job.Out are not used; job.Format is isa. The files appear only when every chip's PTX was made.
//
// A module that must be picked out of several (a source with several top-level gpu.modules, with
// gpu.launch regions, or whose modules carry targets of their own) is lowered first, as for format
// llvm, and the module that job.MLIR.Module selects is serialized by a second mlir-opt.
func (t Tools) LowerToPTX(ctx context.Context, job Job, chips []chip.Chip, dir, stem string, program bool) error {
	job.missing = t.Missing
	job.Kind, job.Format = KindMLIR, FormatISA
	job.chips = chipList(chips)
	job.unset = []string{"CUDA_ROOT", "CUDA_PATH"} // the libdevice linked is t.Libdevice alone
	if len(chips) == 0 {
		return job.fail(nil, "", errors.New("no chip to write PTX for"))
	}
	if _, err := mlir.NewModuleMatcher(job.MLIR.Module); err != nil {
		return job.fail(nil, "", fmt.Errorf("--module %q: %w", job.MLIR.Module, err))
	}
	if job.Fast || job.FTZ {
		// MLIR 21's nvvm target hands fast and ftz to libdevice's reflection only; the code
		// itself keeps IEEE division and denormals, which opt and llc change (Compile).
		return job.fail(nil, "", errors.New("fast math and ftz reach the code through opt and llc, one compile per chip (format llvm, then each chip's compile); MLIR's nvvm target applies them to libdevice alone"))
	}
	if program && stem != "" {
		return job.fail(nil, "", errors.New("a program's modules name their PTX files: no stem"))
	}
	if program && job.MLIR.Module != "" {
		return job.fail(nil, "", errors.New("a program's modules are all compiled: --module selects a module of a kernel source, not of a program"))
	}
	var passes []string
	targets := map[chip.Chip]mlir.Target{}
	for _, c := range chips {
		if _, ok := targets[c]; ok {
			return job.fail(nil, "", chip.DuplicateError(c, "--chips"))
		}
		cj := job.withChip(c)
		if c.Virtual {
			return cj.fail(nil, "", chip.VirtualError(c))
		}
		ptx, err := cj.ptxVersion()
		if err != nil {
			return cj.fail(nil, "", err)
		}
		targets[c] = t.target(job, c, ptx)
		passes = append(passes, targets[c].Pass())
	}
	if !Found(t.MLIROpt) {
		return job.fail(nil, "", errors.New(t.missing("mlir-opt", t.MLIROpt)))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return job.fail(nil, "", err)
	}
	tmp, err := atomicfile.MkdirTemp(filepath.Join(dir, "chips"))
	if err != nil {
		return job.fail(nil, "", err)
	}
	defer os.RemoveAll(tmp)
	job.tmp = tmp
	step := func(name string) string { return filepath.Join(tmp, name) }

	// One process when every top-level gpu.module is to be compiled, as the source has them.
	in, pipeline := job.Src, "builtin.module("+nvgpuLowering+","
	if !program {
		src, err := os.ReadFile(job.Src)
		if err != nil {
			return job.fail(nil, "", err)
		}
		if !wholeSource(src, job.MLIR.Module) {
			// Lowered first; the selected module's body (as for format llvm) serialized alone.
			text, err := t.lowerDevice(ctx, job, job.Src, step)
			if err != nil {
				return err
			}
			body, err := moduleBody(text, job.MLIR)
			if err != nil {
				return job.fail(nil, "", err)
			}
			in = step("device.mlir")
			doc := "module attributes {gpu.container_module} {\n  gpu.module @device {\n" + body + "}\n}\n"
			if err := os.WriteFile(in, []byte(doc), 0o644); err != nil {
				return job.fail(nil, "", err)
			}
			pipeline += strings.Join(passes, ",") + ",gpu-module-to-binary{format=isa})"
		}
	} else {
		pipeline = "builtin.module(" + OutlinePasses + ","
	}
	if in == job.Src {
		pipeline += strings.Join(passes, ",") + "," + deviceLowering + ",gpu-module-to-binary{format=isa})"
	}
	out := step("binaries.mlir")
	if err := job.exec(ctx, "lower to PTX", t.MLIROpt, "--pass-pipeline="+pipeline, in, "-o", out); err != nil {
		return err
	}
	text, err := os.ReadFile(out)
	if err != nil {
		return job.fail(nil, "", err)
	}
	ptx, names, err := readPTX(text, chips, func(c chip.Chip) string { return targets[c].Attribute() })
	if err != nil {
		return job.fail(nil, "", fmt.Errorf("reading mlir-opt's output: %w", err))
	}
	if len(names) == 0 {
		if src, err := os.ReadFile(job.Src); !program || err != nil || !callsGPU(src) {
			return job.fail(nil, "", errNoGPU)
		}
	}
	for _, name := range names {
		if err := modules.CheckName(name); program && err != nil {
			// The same for every chip, as LowerProgram says it.
			every := job
			every.chips = "every chip"
			return every.fail(nil, "", err)
		}
	}
	var files []atomicfile.File
	for _, c := range chips {
		cj := job.withChip(c)
		for _, name := range names {
			mj := cj
			path := filepath.Join(dir, c.String()+FormatISA.Extension())
			if stem != "" {
				path = filepath.Join(dir, stem+"."+c.String()+FormatISA.Extension())
			}
			if program {
				mj.Origin = job.sources() + " (gpu.module @" + name + ")"
				path = filepath.Join(path, name+FormatISA.Extension())
			}
			data := ptx[name][c.String()]
			if err := mj.checkKernels(data); err != nil {
				return err
			}
			files = append(files, atomicfile.File{Path: path, Data: data})
		}
	}
	if program {
		ours := map[string]bool{}
		for _, n := range names {
			ours[n+FormatISA.Extension()] = true
		}
		for _, c := range chips {
			if err := modules.Prepare(filepath.Join(dir, c.String()+FormatISA.Extension()), func(name string) bool { return ours[name] }); err != nil {
				return job.withChip(c).fail(nil, "", err)
			}
		}
	}
	if err := atomicfile.WriteAll(files...); err != nil {
		return job.fail(nil, "", err)
	}
	return nil
}

// target is the NVVM target of job's PTX for c at PTX ISA ptx.
func (t Tools) target(job Job, c chip.Chip, ptx chip.PTX) mlir.Target {
	tg := mlir.Target{Triple: mlir.DefaultTriple, Chip: c.String(), Features: fmt.Sprintf("+ptx%d%d", ptx.Major, ptx.Minor),
		O: job.O}
	if t.Libdevice != "" {
		tg.Link = []string{t.Libdevice}
	}
	return tg
}

// wholeSource says whether an MLIR kernel source can go to mlir-opt as it is, every top-level
// gpu.module of it compiled: it holds exactly one, which pattern selects, with no targets of its
// own, and no gpu.launch regions (which outlining would make modules of). Text package mlir
// cannot read goes the other way, where mlir-opt says what is wrong with it.
func wholeSource(src []byte, pattern string) bool {
	o, err := mlir.ReadOutline(src)
	if err != nil || o.Regions {
		return false
	}
	sel, err := mlir.NewModuleMatcher(pattern)
	if err != nil {
		return false
	}
	var top []mlir.Module
	for _, m := range o.Modules {
		if m.TopLevel {
			top = append(top, m)
		}
	}
	return len(top) == 1 && sel.Match(top[0].Name) && len(top[0].Targets) == 0
}

// readPTX reads the PTX of every gpu.binary of mlir-opt's output: by binary name, then chip. Each
// binary must hold one PTX object of every chip, whose target attribute is attr(chip) (objects of
// other targets, a module's own, are left out). names are the binaries' names in text order.
func readPTX(text []byte, chips []chip.Chip, attr func(chip.Chip) string) (map[string]map[string][]byte, []string, error) {
	objs, err := mlir.GPUObjects(text)
	if err != nil {
		return nil, nil, err
	}
	want := map[string]string{} // attribute -> chip
	for _, c := range chips {
		want[attr(c)] = c.String()
	}
	ptx := map[string]map[string][]byte{}
	var names []string
	for _, o := range objs {
		if _, ok := ptx[o.Binary]; !ok {
			ptx[o.Binary] = map[string][]byte{}
			names = append(names, o.Binary)
		}
		c, ok := want[o.Target]
		if !ok {
			continue
		}
		if o.Format != mlir.ObjectISA {
			return nil, nil, fmt.Errorf("gpu.binary @%s: the %s object holds %s, not PTX", o.Binary, c, o.Format)
		}
		ptx[o.Binary][c] = o.Data
	}
	for _, n := range names {
		for _, c := range chips {
			if _, ok := ptx[n][c.String()]; !ok {
				return nil, nil, fmt.Errorf("gpu.binary @%s has no PTX for %s", n, c)
			}
		}
	}
	return ptx, names, nil
}

// withChip is job for chip c.
func (job Job) withChip(c chip.Chip) Job {
	job.Chip, job.chips = c, ""
	return job
}

// chipList names several chips for messages: "sm_75, sm_80".
func chipList(chips []chip.Chip) string {
	s := make([]string, len(chips))
	for i, c := range chips {
		s[i] = c.String()
	}
	return strings.Join(s, ", ")
}
