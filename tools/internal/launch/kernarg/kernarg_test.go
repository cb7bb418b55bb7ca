package kernarg

import (
	"math"
	"strings"
	"testing"
	"unsafe"
)

// Each argument sits in its own 8-byte slot: the low bytes hold the value as the kernel reads it,
// the rest is zero (never a neighbour's bytes), so an 8-byte copy per argument is safe and right.
func TestPack(t *testing.T) {
	ptrs, err := Pack(int32(-7), float32(2.5), uintptr(0xdeadbeef000), 1<<20, uint32(3), float64(1.5), int64(-2))
	if err != nil {
		t.Fatal(err)
	}
	slot := func(i int) uint64 { return *(*uint64)(ptrs[i]) }
	for _, tc := range []struct {
		i    int
		want uint64
	}{
		{0, uint64(uint32(0xfffffff9))}, // int32 -7: 4 bytes, upper half zero
		{1, uint64(math.Float32bits(2.5))},
		{2, 0xdeadbeef000},
		{3, 1 << 20},
		{4, 3},
		{5, math.Float64bits(1.5)},
		{6, uint64(0xfffffffffffffffe)},
	} {
		if got := slot(tc.i); got != tc.want {
			t.Errorf("slot %d = %#x, want %#x", tc.i, got, tc.want)
		}
	}
	// A 32-bit read of the slot (what the driver does for an int or float parameter) gives the value.
	if got := *(*int32)(ptrs[0]); got != -7 {
		t.Errorf("int32 read = %d", got)
	}
	if got := *(*float32)(ptrs[1]); got != 2.5 {
		t.Errorf("float32 read = %v", got)
	}
	// Slots do not overlap: each pointer is 8 bytes past the previous one.
	for i := 1; i < len(ptrs); i++ {
		if d := uintptr(ptrs[i]) - uintptr(ptrs[i-1]); d != unsafe.Sizeof(uint64(0)) {
			t.Errorf("slot %d is %d bytes after slot %d", i, d, i-1)
		}
	}
}

func TestPackErrors(t *testing.T) {
	if _, err := Pack("x"); err == nil || !strings.Contains(err.Error(), "unsupported kernel argument type string") {
		t.Errorf("string: %v", err)
	}
	if _, err := Pack(1 << 40); err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Errorf("big int: %v", err)
	}
}
