//go:build cuda

// Command gpurun loads GPU artifacts on a real GPU and runs their kernels: the device-side half of
// rules_gpu's tests. Built with cgo and the "cuda" tag on a machine with cuda.h; runs where an NVIDIA
// driver is.
//
//	gpurun info                          the GPU, its chip and the driver's CUDA version
//	gpurun load [-n N] FILE...           load each file with cuModuleLoadData; JSON line per file:
//	                                     loads, the driver's error, median load time over N loads
//	gpurun saxpy FILE                    run saxpy(n, a, x, y) from FILE and check it against the CPU
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

	"github.com/rulesgpu/rules_gpu/tools/gpu"
)

func main() {
	runtime.LockOSThread()
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gpurun info | load [-n N] FILE... | saxpy FILE")
		os.Exit(2)
	}
	dev, err := gpu.Open(0)
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
	case "saxpy":
		if len(os.Args) != 3 {
			err = fmt.Errorf("usage: gpurun saxpy FILE")
		} else {
			err = saxpy(dev, os.Args[2])
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

func load(dev *gpu.Device, args []string) error {
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
func saxpy(dev *gpu.Device, path string) error {
	image, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	m, err := dev.Load(image)
	if err != nil {
		return fmt.Errorf("%s: loading on %s: %w", path, dev.Chip(), err)
	}
	defer m.Unload()
	const n, a = 1<<20 + 3, float32(2.5)
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i%1000)/7, float32(i%333)*0.5
	}
	dx, err := gpu.CopyIn(x)
	if err != nil {
		return err
	}
	defer dx.Free()
	dy, err := gpu.CopyIn(y)
	if err != nil {
		return err
	}
	defer dy.Free()
	const block = 256
	if err := m.Launch("saxpy", (n+block-1)/block, block, int32(n), a, dx.Arg(), dy.Arg()); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	got, err := dy.CopyOut()
	if err != nil {
		return err
	}
	bad := 0
	for i := range got {
		want := a*x[i] + y[i]
		if math.Abs(float64(got[i]-want)) > 1e-5*math.Max(1, math.Abs(float64(want))) {
			if bad < 3 {
				fmt.Fprintf(os.Stderr, "%s: y[%d] = %v, want %v\n", path, i, got[i], want)
			}
			bad++
		}
	}
	if bad > 0 {
		return fmt.Errorf("%s: %d of %d results wrong", path, bad, n)
	}
	fmt.Printf("ok %s: saxpy on %s, %d elements match the CPU\n", path, dev.Chip(), n)
	return nil
}
