//go:build cuda

package mlirrt

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// child runs the test named test in a child process of this test binary with MLIRRT_CHILD=test,
// for the exports that write to C's stdout or exit the process.
func child(t *testing.T, test string) (stdout, stderr []byte, err error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), "MLIRRT_CHILD="+test)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.Bytes(), errOut.Bytes(), err
}

// words lays out int64s (descriptor fields, pointers) in C memory.
func words(xs ...uint64) unsafe.Pointer { return cBytes(encode(xs)) }

func addr(p unsafe.Pointer) uint64 { return uint64(uintptr(p)) }

// TestPrintExports calls the printers as a lowered program does: with descriptors in C memory.
// They need no GPU.
func TestPrintExports(t *testing.T) {
	if os.Getenv("MLIRRT_CHILD") == "TestPrintExports" {
		data := cBytes(iota32(6))
		desc2d := words(addr(data), addr(data), 0, 2, 3, 3, 1)
		printMemrefF32(2, desc2d)
		desc1d := words(addr(data), addr(data), 4, 2, 1) // elements 4 and 5
		_mlir_ciface_printMemref1dF32(desc1d)
		bytes8 := cBytes([]byte("hi!"))
		_mlir_ciface_printMemrefI8(unrankedAt(words(1, addr(words(addr(bytes8), addr(bytes8), 0, 3, 1)))))
		_mlir_ciface_printMemrefShapeF32(unrankedAt(words(2, addr(desc2d))))
		printF32(0.1)
		printComma()
		printF64(1e20)
		printOpen()
		printI64(-1)
		printClose()
		printU64(math.MaxUint64)
		printNewline()
		printF16(0xabcd3c00) // an i16 with garbage above it: 1
		printBF16(0x3f80)
		printString(cString("text\n"))
		flushStdout()
		os.Exit(0)
	}
	stdout, stderr, err := child(t, "TestPrintExports")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	got := regexp.MustCompile(`base@ = 0x[0-9a-f]+ `).ReplaceAllString(string(stdout), "base@ = B ")
	want := "Unranked Memref base@ = B rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = \n[[0,   1,   2], \n [3,   4,   5]]\n" +
		"Memref base@ = B rank = 1 offset = 4 sizes = [2] strides = [1] data = \n[4,  5]\n" +
		"Unranked Memref base@ = B rank = 1 offset = 0 sizes = [3] strides = [1] data = \n[h,  i,  !]\n" +
		"Unranked Memref base@ = B rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1]\n" +
		"0.1, 1e+20( -1 )18446744073709551615\n11text\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func requireGPU(t *testing.T) {
	t.Helper()
	if !haveGPU() {
		t.Skip("no CUDA GPU here")
	}
}

// TestRuntime runs the CUDA wrappers on the GPU: memory, streams, events, a module JIT-compiled
// from PTX, launches with and without clusters and dynamic shared memory, host registration.
func TestRuntime(t *testing.T) {
	requireGPU(t)
	// The wrappers push and pop the context on the calling thread, which a C caller keeps; a Go
	// caller must stay on one thread itself (without this, the test failed once on an H100:
	// cuCtxPopCurrent with CUDA_ERROR_INVALID_CONTEXT).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ptx, err := os.ReadFile("testdata/fill.ptx")
	if err != nil {
		t.Fatal(err)
	}
	mgpuSetDefaultDevice(0)
	s := mgpuStreamCreate()
	host := mgpuMemAlloc(64, s, 1) // managed: the host reads it after a synchronisation
	dev := mgpuMemAlloc(16, s, 0)
	floats := unsafe.Slice((*float32)(host), 4)
	check := func(what string, want float32) {
		t.Helper()
		mgpuMemcpy(host, dev, 16, s)
		mgpuStreamSynchronize(s)
		for i, f := range floats {
			if f != want {
				t.Errorf("%s: element %d is %v, want %v", what, i, f, want)
			}
		}
	}

	mgpuMemset32(dev, 0x3fc00000, 4, s) // 1.5
	check("mgpuMemset32", 1.5)
	mgpuMemset16(dev, 0xabcd3c00, 8, s) // an i16 with garbage above it
	mgpuMemcpy(host, dev, 16, s)
	mgpuStreamSynchronize(s)
	for i, h := range unsafe.Slice((*uint16)(host), 8) {
		if h != 0x3c00 {
			t.Errorf("mgpuMemset16: half %d is %#x, want 0x3c00", i, h)
		}
	}

	e := mgpuEventCreate()
	s2 := mgpuStreamCreate()
	mgpuEventRecord(e, s)
	mgpuStreamWaitEvent(s2, e)
	mgpuEventSynchronize(e)
	mgpuStreamSynchronize(s2)
	mgpuEventDestroy(e)
	mgpuStreamDestroy(s2)

	m := moduleLoadJIT(cBytes(append(ptx, 0)), 2)
	fn := mgpuModuleGetFunction(m, cString("fill"))
	// fill(p, v): the arguments and the array of pointers to them, in managed memory.
	args := mgpuMemAlloc(64, nil, 1)
	*(*unsafe.Pointer)(args) = dev
	*(*float32)(unsafe.Add(args, 8)) = 2.5
	params := unsafe.Slice((*unsafe.Pointer)(unsafe.Add(args, 16)), 2)
	params[0], params[1] = args, unsafe.Add(args, 8)
	mgpuLaunchKernel(fn, 1, 1, 1, 4, 1, 1, 0, s, &params[0], nil, 2)
	check("mgpuLaunchKernel", 2.5)
	*(*float32)(unsafe.Add(args, 8)) = 3.5
	mgpuLaunchKernel(fn, 1, 1, 1, 4, 1, 1, 48<<10+1, s, &params[0], nil, 2) // past the default 48 KiB
	check("mgpuLaunchKernel with dynamic shared memory", 3.5)
	*(*float32)(unsafe.Add(args, 8)) = 4.5
	mgpuLaunchClusterKernel(fn, 1, 1, 1, 1, 1, 1, 4, 1, 1, 0, s, &params[0], nil)
	check("mgpuLaunchClusterKernel", 4.5)
	moduleUnload(m)

	buf := cBytes(make([]byte, 64))
	desc := words(addr(buf), addr(buf), 0, 16, 1)
	mgpuMemHostRegisterMemRef(1, desc, 4)
	mgpuMemHostUnregisterMemRef(1, desc, 4)
	mgpuMemHostRegister(buf, 64)
	mgpuMemHostUnregister(buf)

	mgpuMemFree(args, nil)
	mgpuMemFree(dev, s)
	mgpuMemFree(host, s)
	mgpuMemFree(mgpuMemAlloc(0, s, 0), s) // 0 bytes: a null pointer, freed as nothing
	mgpuStreamDestroy(s)
}

// TestLoadFailureExplained loads a cubin for sm_80, which an sm_90 GPU refuses, and checks the
// report: the driver's error, the module's images, the GPU's chip and the fix.
func TestLoadFailureExplained(t *testing.T) {
	if os.Getenv("MLIRRT_CHILD") == "TestLoadFailureExplained" {
		cubin, err := os.ReadFile("testdata/fill_sm80.cubin")
		if err != nil {
			panic(err)
		}
		m := moduleLoad(cBytes(cubin), len(cubin))
		mgpuModuleGetFunction(m, cString("fill")) // explains the failure and exits 1
		os.Exit(3)
	}
	requireGPU(t)
	g := describeGPU(0)
	if g.Major == 8 {
		t.Skipf("%s is an sm_8x GPU, which runs the sm_80 cubin", g.Name)
	}
	_, stderr, err := child(t, "TestLoadFailureExplained")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("the program ended with %v, want exit status 1\n%s", err, stderr)
	}
	for _, want := range []string{
		"mlirrt: mgpuModuleLoad: cuModuleLoadData failed with CUDA_ERROR_NO_BINARY_FOR_GPU",
		fmt.Sprintf("GPU 0: %s, %s", g.Name, g.Chip()),
		"the module: cubin of 2728 bytes holding sm_80 cubin",
		fmt.Sprintf("with rules_gpu: add %q to the target's chips", g.Chip().String()),
	} {
		if !strings.Contains(string(stderr), want) {
			t.Errorf("the report lacks %q:\n%s", want, stderr)
		}
	}
}
