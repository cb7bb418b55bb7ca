//go:build cuda

package mlirrt

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "sparse_cuda.h"
*/
import "C"

import (
	"strings"
	"unsafe"
)

// The cgo that sparse_cuda_test.go needs and, as a test, cannot have itself.

// checkSparseLibrary loads library lib ("cusparse" or "cusparselt") afresh as the sparse wrappers
// do, from sonames (colon-separated; "" for the runtime's own list), and returns how many of the
// functions the wrappers call resolved and the names of those that did not. A library that does not
// load ends the process as it would a wrapper named wrapper.
func checkSparseLibrary(lib, sonames, wrapper string) (found int, missing []string) {
	cLib, cWrapper := C.CString(lib), C.CString(wrapper)
	defer C.free(unsafe.Pointer(cLib))
	defer C.free(unsafe.Pointer(cWrapper))
	var cSonames *C.char
	if sonames != "" {
		cSonames = C.CString(sonames)
		defer C.free(unsafe.Pointer(cSonames))
	}
	var buf [4096]C.char
	n := C.mlirrt_sparse_check_library(cLib, cSonames, cWrapper, &buf[0], C.size_t(len(buf)))
	return int(n), strings.Fields(C.GoString(&buf[0]))
}

// sparseLtSizes are the sizes of the 2:4 handles the sparse wrappers lay out in the lowering's
// buffers (sparse_cuda.h).
func sparseLtSizes() (spmat, dnmat int) {
	return C.mlirrt_sparselt_spmat_size, C.mlirrt_sparselt_dnmat_size
}
