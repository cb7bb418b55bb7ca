//go:build cuda

// Command gpurun loads GPU artifacts on a real GPU and runs their kernels: the device-side half of
// rules_gpu's tests. Built with cgo and the "cuda" tag on a machine with cuda.h; runs where an NVIDIA
// driver is.
//
//	gpurun info                          the GPU, its chip and the driver's CUDA version
//	gpurun load [-n N] FILE...           load each file with cuModuleLoadData; JSON line per file:
//	                                     loads, the driver's error, median load time over N loads
//	gpurun saxpy FILE                    run saxpy(n, a, x, y) from FILE and check it against the CPU
//	gpurun reduce FILE                   run reduce_sum(n, x, out) (256-thread blocks) and check the sum
//	gpurun softplus FILE                 run softplus(n, x, y) and check y = log1p(exp(x))
//	gpurun --version                     "gpurun VERSION", rules_gpu's version
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"time"

	// First of all: --version where no driver is (see there).
	_ "github.com/rulesgpu/rules_gpu/tools/cmd/gpurun/versionfirst"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/launch"
)

func main() {
	runtime.LockOSThread()
	if cmdline.IsVersion(os.Args[1:]) {
		cmdline.PrintVersion(os.Stdout, "gpurun")
		return
	}
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gpurun info | load [-n N] FILE... | saxpy FILE | reduce FILE | softplus FILE | axpby FILE | finite FILE")
		os.Exit(2)
	}
	dev, err := launch.Open(0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gpurun:", err)
		os.Exit(1)
	}
	defer dev.Close()
	switch os.Args[1] {
	case "info":
		json.NewEncoder(os.Stdout).Encode(map[string]any{"name": dev.Name, "chip": dev.Chip(), "driver_cuda": fmt.Sprintf("%d.%d", dev.Driver/1000, dev.Driver%1000/10)})
	case "load":
		err = load(dev, os.Args[2:])
	case "saxpy", "reduce", "softplus", "axpby", "finite":
		if len(os.Args) != 3 {
			err = fmt.Errorf("usage: gpurun %s FILE", os.Args[1])
		} else {
			err = map[string]func(*launch.Device, string) error{"saxpy": saxpy, "reduce": reduce, "softplus": softplus,
				"axpby": axpby, "finite": finite}[os.Args[1]](dev, os.Args[2])
		}
	default:
		err = fmt.Errorf("unknown verb %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gpurun:", err)
		os.Exit(1)
	}
}

type loadResult struct {
	File     string  `json:"file"`
	Loads    bool    `json:"loads"`
	Error    string  `json:"error,omitempty"`
	MedianMs float64 `json:"median_ms,omitempty"`
	MinMs    float64 `json:"min_ms,omitempty"`
	MaxMs    float64 `json:"max_ms,omitempty"`
	N        int     `json:"n,omitempty"`
}

func load(dev *launch.Device, args []string) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	n := fs.Int("n", 1, "loads per file, for timing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	for _, path := range fs.Args() {
		image, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		r := loadResult{File: path, N: *n}
		var times []float64
		for range *n {
			start := time.Now()
			m, err := dev.Load(image)
			elapsed := time.Since(start)
			if err != nil {
				r.Error = err.Error()
				break
			}
			times = append(times, float64(elapsed.Microseconds())/1000)
			m.Unload()
		}
		if r.Error == "" {
			r.Loads = true
			sort.Float64s(times)
			r.MedianMs, r.MinMs, r.MaxMs = times[len(times)/2], times[0], times[len(times)-1]
		} else {
			r.N = 0
		}
		enc.Encode(r)
	}
	return nil
}

// saxpy runs y = a*x + y for n = 1<<20 + 3 (not a multiple of the block, so the bounds check
// matters) and compares every element with the CPU's result.
func saxpy(dev *launch.Device, path string) error {
	const n, block, a = 1<<20 + 3, 256, float32(2.5)
	x, y, want := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i%1000)/7, float32(i%333)*0.5
		want[i] = a*x[i] + y[i]
	}
	return elementwise(dev, path, "saxpy", (n+block-1)/block, block, x, y, func(dx, dy any) []any { return []any{int32(n), a, dx, dy} }, want)
}

// reduce runs reduce_sum over n = 1<<20 + 77 values in 256-thread blocks and compares the total with
// the CPU's (summed in float64; the GPU's float32 tree sum may differ by rounding).
func reduce(dev *launch.Device, path string) error {
	m, err := load1(dev, path)
	if err != nil {
		return err
	}
	defer m.Unload()
	const n, block = 1<<20 + 77, 256
	x := make([]float32, n)
	var want float64
	for i := range x {
		x[i] = float32(i%97) / 16
		want += float64(x[i])
	}
	dx, err := launch.CopyIn(x)
	if err != nil {
		return err
	}
	defer dx.Free()
	dout, err := launch.CopyIn([]float32{0})
	if err != nil {
		return err
	}
	defer dout.Free()
	if err := m.Launch("reduce_sum", (n+block-1)/block, block, int32(n), dx.Arg(), dout.Arg()); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	got, err := dout.CopyOut()
	if err != nil {
		return err
	}
	if rel := math.Abs(float64(got[0])-want) / want; rel > 1e-5 {
		return fmt.Errorf("%s: sum = %v, want %v (relative error %.2g)", path, got[0], want, rel)
	}
	fmt.Printf("ok %s: reduce_sum on %s, %d elements sum to %v (CPU %v)\n", path, dev.Chip(), n, got[0], want)
	return nil
}

// softplus runs y = log1p(exp(x)) (libdevice's expf and log1pf) and compares with the CPU.
func softplus(dev *launch.Device, path string) error {
	const n, block = 1<<16 + 5, 256
	x, want := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i] = float32(i%2001-1000) / 100
		want[i] = float32(math.Log1p(math.Exp(float64(x[i]))))
	}
	return elementwise(dev, path, "softplus", (n+block-1)/block, block, x, make([]float32, n), func(dx, dy any) []any { return []any{int32(n), dx, dy} }, want)
}

func load1(dev *launch.Device, path string) (*launch.Module, error) {
	image, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := dev.Load(image)
	if err != nil {
		return nil, fmt.Errorf("%s: loading on %s: %w", path, dev.Chip(), err)
	}
	return m, nil
}

// elementwise loads the artifact at path, copies x and y to the GPU, runs kernel with the grid and
// arguments that args makes of n and the two device pointers, and compares y (when y is not nil,
// else x) with want, element by element.
func elementwise(dev *launch.Device, path, kernel string, grid, block int, x, y []float32, args func(dx, dy any) []any, want []float32) error {
	m, err := load1(dev, path)
	if err != nil {
		return err
	}
	defer m.Unload()
	dx, err := launch.CopyIn(x)
	if err != nil {
		return err
	}
	defer dx.Free()
	out := dx
	var dyArg any
	if y != nil {
		dy, err := launch.CopyIn(y)
		if err != nil {
			return err
		}
		defer dy.Free()
		out, dyArg = dy, dy.Arg()
	}
	if err := m.Launch(kernel, grid, block, args(dx.Arg(), dyArg)...); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	got, err := out.CopyOut()
	if err != nil {
		return err
	}
	bad := 0
	for i := range got {
		same := got[i] == want[i] || (math.IsNaN(float64(got[i])) && math.IsNaN(float64(want[i])))
		if !same && math.Abs(float64(got[i]-want[i])) > 1e-5*math.Max(1, math.Abs(float64(want[i]))) {
			if bad < 3 {
				fmt.Fprintf(os.Stderr, "%s: element %d = %v, want %v\n", path, i, got[i], want[i])
			}
			bad++
		}
	}
	if bad > 0 {
		return fmt.Errorf("%s: %d of %d results wrong", path, bad, len(got))
	}
	fmt.Printf("ok %s: %s on %s, %d elements match the CPU\n", path, kernel, dev.Chip(), len(got))
	return nil
}

// axpby runs examples/project's axpby, y = 2 x + 0.5 y with 4 elements a thread (VEC_UNROLL from the
// cc_library it includes), for n = 1<<20 + 5.
func axpby(dev *launch.Device, path string) error {
	const n, block, unroll = 1<<20 + 5, 256, 4
	x, y, want := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i%1000)/7, float32(i%333)*0.5
		want[i] = 2*x[i] + 0.5*y[i]
	}
	grid := (n + block*unroll - 1) / (block * unroll)
	return elementwise(dev, path, "axpby", grid, block, x, y, func(dx, dy any) []any { return []any{int32(n), dx, dy} }, want)
}

// finite runs examples/project's scale_finite (compiled by nvcc), x = 2 x where x is finite, over
// values with infinities and NaNs among them.
func finite(dev *launch.Device, path string) error {
	const n, block = 1<<16 + 1, 256
	x, want := make([]float32, n), make([]float32, n)
	for i := range x {
		switch i % 7 {
		case 3:
			x[i] = float32(math.Inf(1))
		case 5:
			x[i] = float32(math.NaN())
		default:
			x[i] = float32(i%100) - 50
		}
		want[i] = x[i]
		if !math.IsInf(float64(x[i]), 0) && !math.IsNaN(float64(x[i])) {
			want[i] = 2 * x[i]
		}
	}
	return elementwise(dev, path, "scale_finite", (n+block-1)/block, block, x, nil, func(dx, _ any) []any { return []any{int32(n), dx} }, want)
}
