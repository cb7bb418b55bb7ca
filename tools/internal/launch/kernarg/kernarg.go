// Package kernarg packs CUDA kernel arguments for gorgonia.org/cu's Function.Launch, which copies 8
// bytes from every argument pointer whatever the parameter's size. It needs no cgo and no driver.
package kernarg

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"
)

// Pack packs kernel arguments for gorgonia.org/cu's Function.Launch. Each value gets its own zeroed 8-byte slot, so a
// 32-bit int or float is read from the slot's low bytes (the device, like the host, is
// little-endian) and the copy never reads past the value. Supported: int32, uint32, float32, int64,
// uint64, float64, uintptr (device pointers: gorgonia's cu.DevicePtr converts to uintptr), and int
// (passed as int32, C's int).
func Pack(values ...any) ([]unsafe.Pointer, error) {
	slots := make([]uint64, len(values))
	ptrs := make([]unsafe.Pointer, len(values))
	for i, v := range values {
		var b [8]byte
		le := binary.LittleEndian
		switch x := v.(type) {
		case int32:
			le.PutUint32(b[:], uint32(x))
		case uint32:
			le.PutUint32(b[:], x)
		case int:
			if x < math.MinInt32 || x > math.MaxInt32 {
				return nil, fmt.Errorf("argument %d: int %d does not fit C's 32-bit int; pass int64", i, x)
			}
			le.PutUint32(b[:], uint32(int32(x)))
		case float32:
			le.PutUint32(b[:], math.Float32bits(x))
		case int64:
			le.PutUint64(b[:], uint64(x))
		case uint64:
			le.PutUint64(b[:], x)
		case float64:
			le.PutUint64(b[:], math.Float64bits(x))
		case uintptr:
			le.PutUint64(b[:], uint64(x))
		default:
			return nil, fmt.Errorf("argument %d: unsupported kernel argument type %T", i, v)
		}
		slots[i] = le.Uint64(b[:])
		ptrs[i] = unsafe.Pointer(&slots[i])
	}
	return ptrs, nil
}
