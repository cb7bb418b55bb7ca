//go:build cuda

package launch

import (
	"fmt"
	"reflect"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/rulesgpu/rules_gpu/tools/internal/launch/kernarg"
)

// Device is one GPU with a context current on the calling OS thread.
type Device struct {
	dev cu.Device
	ctx cu.CUContext
	// Name is the GPU's name, e.g. "NVIDIA H200".
	Name string
	// Major and Minor are its compute capability: 9.0 for sm_90.
	Major, Minor int
	// Driver is the driver's CUDA version: 13000 for CUDA 13.0.
	Driver int
}

// Open makes a context on GPU ordinal. Call runtime.LockOSThread first: CUDA contexts belong to a
// thread.
func Open(ordinal int) (*Device, error) {
	n, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("counting CUDA devices: %w", err)
	}
	if ordinal >= n {
		return nil, fmt.Errorf("no CUDA device %d (this machine has %d)", ordinal, n)
	}
	dev, err := cu.GetDevice(ordinal)
	if err != nil {
		return nil, err
	}
	d := &Device{dev: dev, Driver: cu.Version()}
	if d.Name, err = dev.Name(); err != nil {
		return nil, err
	}
	if d.Major, err = dev.Attribute(cu.ComputeCapabilityMajor); err != nil {
		return nil, err
	}
	if d.Minor, err = dev.Attribute(cu.ComputeCapabilityMinor); err != nil {
		return nil, err
	}
	if d.ctx, err = dev.MakeContext(cu.SchedAuto); err != nil {
		return nil, fmt.Errorf("creating a context on %s: %w", d.Name, err)
	}
	return d, nil
}

// Close destroys the context.
func (d *Device) Close() error { return d.ctx.Destroy() }

// Chip is the device's real architecture name: "sm_90".
func (d *Device) Chip() string { return fmt.Sprintf("sm_%d%d", d.Major, d.Minor) }

// Module is a loaded artifact.
type Module struct{ mod cu.Module }

// Load loads a fatbin, cubin or PTX image with cuModuleLoadData. The error names the driver's
// result, e.g. NoBinaryForGpu for CUDA_ERROR_NO_BINARY_FOR_GPU.
func (d *Device) Load(image []byte) (*Module, error) {
	m, err := cu.LoadData(string(image))
	if err != nil {
		return nil, driverError(err)
	}
	return &Module{mod: m}, nil
}

// Unload frees the module.
func (m *Module) Unload() error { return m.mod.Unload() }

// Launch runs kernel name on a grid of grid blocks of block threads and waits for it. args are packed
// by kernarg.Pack.
func (m *Module) Launch(name string, grid, block int, args ...any) error {
	fn, err := m.mod.Function(name)
	if err != nil {
		return fmt.Errorf("kernel %s: %w", name, err)
	}
	params, err := kernarg.Pack(args...)
	if err != nil {
		return fmt.Errorf("kernel %s: %w", name, err)
	}
	if err := fn.LaunchAndSync(grid, 1, 1, block, 1, 1, 0, cu.Stream{}, params); err != nil {
		return fmt.Errorf("kernel %s: %w", name, err)
	}
	return nil
}

// Float32s is device memory holding float32 values.
type Float32s struct {
	Ptr cu.DevicePtr
	N   int
}

// CopyIn allocates device memory and copies xs into it.
func CopyIn(xs []float32) (*Float32s, error) {
	bytes := int64(len(xs)) * 4
	p, err := cu.MemAlloc(bytes)
	if err != nil {
		return nil, err
	}
	if err := cu.MemcpyHtoD(p, unsafe.Pointer(&xs[0]), bytes); err != nil {
		cu.MemFree(p)
		return nil, err
	}
	return &Float32s{Ptr: p, N: len(xs)}, nil
}

// CopyOut copies the values back to the host.
func (f *Float32s) CopyOut() ([]float32, error) {
	xs := make([]float32, f.N)
	if err := cu.MemcpyDtoH(unsafe.Pointer(&xs[0]), f.Ptr, int64(f.N)*4); err != nil {
		return nil, err
	}
	return xs, nil
}

// Free releases the device memory.
func (f *Float32s) Free() error { return cu.MemFree(f.Ptr) }

// Arg is the device pointer as a kernel argument.
func (f *Float32s) Arg() uintptr { return uintptr(f.Ptr) }

// resultNames are the CUDA driver's names for the results that loading a module gives, where
// gorgonia.org/cu has none (it prints "UnknownErrorCode:222").
var resultNames = map[int64]string{
	200: "CUDA_ERROR_INVALID_IMAGE",
	209: "CUDA_ERROR_NO_BINARY_FOR_GPU",
	218: "CUDA_ERROR_INVALID_PTX",
	221: "CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
	222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
	223: "CUDA_ERROR_JIT_COMPILATION_DISABLED",
}

// driverError adds the driver's own name of a CUresult to gorgonia's error.
func driverError(err error) error {
	v := reflect.ValueOf(err)
	if v.Kind() != reflect.Int {
		return err
	}
	if name, ok := resultNames[v.Int()]; ok {
		return fmt.Errorf("%w (%s)", err, name)
	}
	return err
}
