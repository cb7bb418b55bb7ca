package gazelle

import (
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/cudalib"
)

// systemHeader reports whether an include names a header that the build gets from outside the
// repository without a dependency: the CUDA toolkit's (CUDA 12's include/ directory: the runtime
// and driver APIs, math and intrinsics, cuRAND, NPP, CUPTI, and the headers of the libraries of
// package cudalib: cuBLAS, cuFFT, cuSOLVER, cuSPARSE, NVRTC, NVTX, libcu++, CUB, Thrust, ...) and
// the C and C++ standard libraries'. Such an include needs no target, quoted or not.
func systemHeader(p string) bool {
	if _, ok := cudalib.ForInclude(p); ok {
		return true
	}
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return systemDirs[p[:i]]
	}
	return toolkitHeaders[p] || standardHeaders[p] ||
		strings.HasPrefix(p, "cupti") && strings.HasSuffix(p, ".h") ||
		strings.HasPrefix(p, "nvperf_") && strings.HasSuffix(p, ".h")
}

// systemDirs are the include directories of the CUDA toolkit that no library of package cudalib
// has: cooperative groups and the compiler's own headers (crt/).
var systemDirs = set("cooperative_groups", "crt")

// toolkitHeaders are the headers at the top of CUDA 12's include/ directory that no library of
// package cudalib has (CUPTI's cupti*.h and nvperf_*.h are matched by name in systemHeader).
var toolkitHeaders = set(
	"builtin_types.h", "channel_descriptor.h", "common_functions.h", "cooperative_groups.h",
	"cuComplex.h", "cuda.h",
	"cudaEGL.h", "cudaEGLTypedefs.h", "cudaGL.h", "cudaGLTypedefs.h", "cudaProfiler.h",
	"cudaProfilerTypedefs.h", "cudaTypedefs.h", "cudaVDPAU.h", "cudaVDPAUTypedefs.h",
	"cuda_awbarrier.h", "cuda_awbarrier_helpers.h", "cuda_awbarrier_primitives.h", "cuda_bf16.h",
	"cuda_bf16.hpp", "cuda_device_runtime_api.h", "cuda_egl_interop.h", "cuda_fp16.h", "cuda_fp16.hpp",
	"cuda_fp8.h", "cuda_fp8.hpp", "cuda_gl_interop.h", "cuda_occupancy.h", "cuda_pipeline.h",
	"cuda_pipeline_helpers.h", "cuda_pipeline_primitives.h", "cuda_profiler_api.h", "cuda_runtime.h",
	"cuda_runtime_api.h", "cuda_stdint.h", "cuda_surface_types.h", "cuda_texture_types.h",
	"cuda_vdpau_interop.h", "cudalibxt.h", "cudart_platform.h", "cufftw.h",
	"curand_discrete.h", "curand_discrete2.h", "curand_globals.h", "curand_kernel.h",
	"curand_lognormal.h", "curand_mrg32k3a.h", "curand_mtgp32.h", "curand_mtgp32_host.h",
	"curand_mtgp32_kernel.h", "curand_mtgp32dc_p_11213.h", "curand_normal.h", "curand_normal_static.h",
	"curand_philox4x32_x.h", "curand_poisson.h", "curand_precalc.h", "curand_uniform.h",
	"cusolverSp_LOWLEVEL_PREVIEW.h",
	"device_atomic_functions.h", "device_atomic_functions.hpp",
	"device_double_functions.h", "device_functions.h", "device_launch_parameters.h", "device_types.h",
	"driver_functions.h", "driver_types.h", "fatbinary_section.h", "host_config.h", "host_defines.h",
	"library_types.h", "math_constants.h", "math_functions.h", "mma.h", "npp.h", "nppcore.h", "nppdefs.h",
	"nppi.h", "nppi_arithmetic_and_logical_operations.h", "nppi_color_conversion.h",
	"nppi_data_exchange_and_initialization.h", "nppi_filtering_functions.h", "nppi_geometry_transforms.h",
	"nppi_linear_transforms.h", "nppi_morphological_operations.h", "nppi_statistics_functions.h",
	"nppi_support_functions.h", "nppi_threshold_and_compare_operations.h", "npps.h",
	"npps_arithmetic_and_logical_operations.h", "npps_conversion_functions.h", "npps_filtering_functions.h",
	"npps_initialization.h", "npps_statistics_functions.h", "npps_support_functions.h", "nvFatbin.h",
	"nvToolsExtOpenCL.h", "nv_decode.h", "nvblas.h", "nvfunctional", "nvjpeg.h",
	"nvml.h", "nvvm.h", "sm_20_atomic_functions.h", "sm_20_atomic_functions.hpp",
	"sm_20_intrinsics.h", "sm_20_intrinsics.hpp", "sm_30_intrinsics.h", "sm_30_intrinsics.hpp",
	"sm_32_atomic_functions.h", "sm_32_atomic_functions.hpp", "sm_32_intrinsics.h", "sm_32_intrinsics.hpp",
	"sm_35_atomic_functions.h", "sm_35_intrinsics.h", "sm_60_atomic_functions.h",
	"sm_60_atomic_functions.hpp", "sm_61_intrinsics.h", "sm_61_intrinsics.hpp", "surface_functions.h",
	"surface_indirect_functions.h", "surface_types.h", "texture_fetch_functions.h",
	"texture_indirect_functions.h", "texture_types.h", "vector_functions.h", "vector_functions.hpp",
	"vector_types.h",
)

// standardHeaders are the C standard library's headers and C++'s (C++23), with C++'s <cNAME> forms.
var standardHeaders = set(
	// C (C23)
	"assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h",
	"limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h", "stdatomic.h",
	"stdbit.h", "stdbool.h", "stdckdint.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h",
	"stdnoreturn.h", "string.h", "tgmath.h", "threads.h", "time.h", "uchar.h", "wchar.h", "wctype.h",
	// C++
	"algorithm", "any", "array", "atomic", "barrier", "bit", "bitset", "cassert", "cctype", "cerrno",
	"cfenv", "cfloat", "charconv", "chrono", "cinttypes", "climits", "clocale", "cmath", "codecvt",
	"compare", "complex", "concepts", "condition_variable", "coroutine", "csetjmp", "csignal", "cstdarg",
	"cstddef", "cstdint", "cstdio", "cstdlib", "cstring", "ctime", "cuchar", "cwchar", "cwctype", "deque",
	"exception", "execution", "expected", "filesystem", "flat_map", "flat_set", "format", "forward_list",
	"fstream", "functional", "future", "generator", "initializer_list", "iomanip", "ios", "iosfwd",
	"iostream", "istream", "iterator", "latch", "limits", "list", "locale", "map", "mdspan", "memory",
	"memory_resource", "mutex", "new", "numbers", "numeric", "optional", "ostream", "print", "queue",
	"random", "ranges", "ratio", "regex", "scoped_allocator", "semaphore", "set", "shared_mutex",
	"source_location", "span", "spanstream", "sstream", "stack", "stacktrace", "stdexcept", "stdfloat",
	"stop_token", "streambuf", "string", "string_view", "strstream", "syncstream", "system_error",
	"thread", "tuple", "type_traits", "typeindex", "typeinfo", "unordered_map", "unordered_set",
	"utility", "valarray", "variant", "vector", "version",
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
