package chip

// This file is the chip table: every fact about NVIDIA targets, CUDA toolkits, PTX ISA versions and
// drivers that the rest of the package (and of rules_gpu) relies on. Facts live here and nowhere else;
// the functions in the other files only derive from them. Each fact carries its source beside it.
// A fact marked UNVERIFIED (in a comment and in the row's Unverified field, which the docs page
// shows) was inferred, not read in a source; check it before relying on it.
//
// Sources, cited below by their letter:
//
//	[PTXDOC]  PTX ISA document, release notes ("PTX ISA version" / CUDA release table) and the
//	          .target directive's notes: https://docs.nvidia.com/cuda/parallel-thread-execution/#release-notes-ptx-release-history
//	[PTXMAP]  NVIDIA cuda-python, cuda/bindings/utils/_ptx_utils.py, "Mapping based on the official PTX
//	          ISA <-> CUDA Release table"; its get_minimal_required_cuda_ver_from_ptx_ver documents the
//	          mapping as "the minimal CUDA driver ... version that is needed to load a PTX of the given
//	          ISA version": https://nvidia.github.io/cuda-python/coverage/z_94f9e761dee70a67__ptx_utils_py.html
//	          and https://nvidia.github.io/cuda-python/cuda-bindings/latest/module/generated/cuda.bindings.utils.get_minimal_required_cuda_ver_from_ptx_ver.html
//	[TD]      LLVM llvm/lib/Target/NVPTX/NVPTX.td, the `def : Proc<"sm_XX", [SMXX, PTXYY]>` lines (the
//	          PTX ISA each target needs): llvm/llvm-project at commit aa56ede8a492 (sm_20 … sm_100);
//	          https://reviews.llvm.org/D155851 (sm_90a, PTX80); https://github.com/llvm/llvm-project/pull/136639/files
//	          (sm_101, sm_103, sm_121 and the 'a' targets); https://github.com/llvm/llvm-project/pull/156857.diff
//	          (sm_88, sm_110/a/f PTX90; sm_103/a/f, sm_101f, sm_120f PTX88; sm_120/a PTX87).
//	[CLANG]   clang/lib/Basic/Cuda.cpp, MinVersionForOffloadArch / MaxVersionForOffloadArch (first and
//	          last CUDA per target, CUDA 7.0 being clang's floor): llvm/llvm-project (sm_35/37 last = 11.8,
//	          sm_80 11.0, sm_86 11.1, sm_87 11.4, sm_89/90 11.8, sm_90a 12.0, sm_100/100a/101/101a/120/120a
//	          12.8, the 'f' targets and sm_103/121 12.9, sm_88/110 13.0, sm_101/a/f last = 12.9).
//	[FAMILY]  NVIDIA blog "NVIDIA Blackwell and NVIDIA CUDA 12.9 Introduce Family-Specific Architecture
//	          Features": https://developer.nvidia.com/blog/nvidia-blackwell-and-nvidia-cuda-12-9-introduce-family-specific-architecture-features
//	          with https://gitlab.com/eessi/support/-/issues/210 ("compute_100f ... compatible only with
//	          10.0 and 10.3 cards") and LLVM's family table, https://github.com/llvm/llvm-project/pull/141899
//	          ("sm_10x family: sm_100f, sm_103f"; "sm_101 family: sm_101f (exception)"; "sm_12x family:
//	          sm_120f, sm_121f").
//	[CU13]    CUDA 13.0's target list. `nvcc --list-gpu-arch` of 13.0.88: compute_75 80 86 87 88 89 90 100
//	          110 103 120 121 (https://github.com/lightvector/KataGo/pull/1115); the 12.9 and 13.0 nvcc
//	          docs compared in https://github.com/galaxyproject/KegAlign/pull/38 ("12.9: 50 52 53 60 61 62
//	          70 72 75 80 86 87 89 90 100 101 103 120 121"; "13.0: 75 80 86 87 88 89 90 100 103 110 120
//	          121"); sm_75 kept (https://github.com/NVIDIA/cuDecomp/pull/97); NVIDIA's announcement that
//	          13.0 drops offline compilation below CC 7.5, i.e. CC 5.x, 6.x, 7.0 and 7.2
//	          (https://developer.nvidia.com/blog/navigating-gpu-architecture-support-a-guide-for-nvidia-cuda-developers);
//	          the Thor rename sm_101 -> sm_110 "starting from CUDA 13.0; for CUDA 12.9 and older releases
//	          Thor stays labeled as sm_101" (https://docs.nvidia.com/cuda/nvcompdx/release_notes.html).
//	[CU12]    CUDA 12.0 dropped sm_35/sm_37: [CLANG] (last 11.8) and https://github.com/llvm/llvm-test-suite/pull/45
//	          ("Remove support for sm_3x from CUDA-12").
//	[ARCHIVE] CUDA features archive contents (releases 11.6 … 13.2, no 12.7):
//	          https://docs.nvidia.com/cuda/archive/13.2.1/cuda-features-archive/contents.html
//	[XLA]     CUDA 12.6 emits PTX ISA 8.5, not 8.6: https://github.com/openxla/xla/pull/16504
//	[GPUS]    Products per compute capability: https://developer.nvidia.com/cuda-gpus and
//	          https://developer.nvidia.com/cuda-legacy-gpus
//	[MVC]     CUDA minor version compatibility (a 12.x-built application needs a driver >= 525, i.e. CUDA
//	          12.0; 13.x needs >= 580, i.e. 13.0): https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html

// Arch is one row of the chip table: a real target and its facts. The virtual target of the same
// number and suffix (compute_XX for sm_XX) shares the row: nvcc offers both over the same toolkits.
type Arch struct {
	// Chip is the real target: sm_XX, sm_XXa or sm_XXf. Virtual is always false.
	Chip Chip
	// First is the first CUDA toolkit that compiles for the chip.
	First Toolkit
	// Last is the last CUDA toolkit that compiles for it; zero while the newest toolkit in the table
	// still does.
	Last Toolkit
	// MinPTX is the oldest PTX ISA version whose .target accepts the chip.
	MinPTX PTX
	// Family names the group within which family-specific ('f') code runs, following [FAMILY]:
	// "sm_10x" holds sm_100 and sm_103, sm_101 is a family of its own. Before Blackwell there are no
	// 'f' targets and the family is just the major version.
	Family string
	// RenamedTo is the name later toolkits use for the same chip (sm_101 became sm_110 in CUDA 13.0);
	// the zero Chip if none.
	RenamedTo Chip
	// Products lists example GPUs of this compute capability (base rows only).
	Products string
	// Unverified says which facts of the row are inferred rather than read in a source; "" if none.
	Unverified string
}

// Row constructors, to keep the table readable.
func sm(num int, suffix string) Chip { return Chip{Major: num / 10, Minor: num % 10, Suffix: suffix} }
func cu(major, minor int) Toolkit    { return Toolkit{major, minor} }
func px(major, minor int) PTX        { return PTX{major, minor} }

// arches is the chip table, ordered by number and then "", "a", "f".
var arches = []Arch{
	// Kepler. sm_35: first CUDA 5.0, the release of PTX ISA 3.1 [PTXMAP], which added sm_35 [PTXDOC];
	// LLVM says PTX32 [TD] only because 3.2 is the oldest PTX it emits; GCC's nvptx docs list -mptx=3.1
	// with -march=sm_35 (https://gcc.gnu.org/onlinedocs/gcc/Nvidia-PTX-Options.html). Last 11.8 [CU12].
	{Chip: sm(35, ""), First: cu(5, 0), Last: cu(11, 8), MinPTX: px(3, 1), Family: "sm_3x",
		Products: "Tesla K20, K40", Unverified: "min PTX 3.1: from PTX ISA 3.1 adding sm_35, not re-read here (LLVM uses 3.2)"},
	// sm_37: PTX41 [TD]; PTX 4.1 = CUDA 6.5 [PTXMAP]; last 11.8 [CU12].
	{Chip: sm(37, ""), First: cu(6, 5), Last: cu(11, 8), MinPTX: px(4, 1), Family: "sm_3x",
		Products: "Tesla K80"},

	// Maxwell. PTX40 / PTX41 / PTX42 [TD]; 4.0 = CUDA 6.0, 4.1 = 6.5, 4.2 = 7.0 [PTXMAP]; last 12.9 [CU13].
	{Chip: sm(50, ""), First: cu(6, 0), Last: cu(12, 9), MinPTX: px(4, 0), Family: "sm_5x",
		Products: "GeForce GTX 750 Ti, Quadro K2200"},
	{Chip: sm(52, ""), First: cu(6, 5), Last: cu(12, 9), MinPTX: px(4, 1), Family: "sm_5x",
		Products: "GeForce GTX 980, Tesla M40/M60"},
	{Chip: sm(53, ""), First: cu(7, 0), Last: cu(12, 9), MinPTX: px(4, 2), Family: "sm_5x",
		Products: "Jetson Nano"},

	// Pascal. PTX50 [TD]; 5.0 = CUDA 8.0 [PTXMAP]; last 12.9 [CU13].
	{Chip: sm(60, ""), First: cu(8, 0), Last: cu(12, 9), MinPTX: px(5, 0), Family: "sm_6x",
		Products: "Tesla P100"},
	{Chip: sm(61, ""), First: cu(8, 0), Last: cu(12, 9), MinPTX: px(5, 0), Family: "sm_6x",
		Products: "GeForce GTX 1080, Tesla P4/P40"},
	{Chip: sm(62, ""), First: cu(8, 0), Last: cu(12, 9), MinPTX: px(5, 0), Family: "sm_6x",
		Products: "Jetson TX2"},

	// Volta. sm_70 PTX60 = CUDA 9.0, sm_72 PTX61 = CUDA 9.1 [TD][PTXMAP][CLANG]; last 12.9 [CU13].
	{Chip: sm(70, ""), First: cu(9, 0), Last: cu(12, 9), MinPTX: px(6, 0), Family: "sm_7x",
		Products: "Tesla V100, TITAN V"},
	{Chip: sm(72, ""), First: cu(9, 1), Last: cu(12, 9), MinPTX: px(6, 1), Family: "sm_7x",
		Products: "Jetson AGX Xavier"},
	// Turing. PTX63 = CUDA 10.0 [TD][PTXMAP][CLANG]; still in 13.0 [CU13].
	{Chip: sm(75, ""), First: cu(10, 0), MinPTX: px(6, 3), Family: "sm_7x",
		Products: "Tesla T4, GeForce RTX 2080"},

	// Ampere, Orin, Ada. [TD] PTX70/71/74/78, [CLANG] 11.0/11.1/11.4/11.8; all still in 13.0 [CU13].
	{Chip: sm(80, ""), First: cu(11, 0), MinPTX: px(7, 0), Family: "sm_8x",
		Products: "A100, A30"},
	{Chip: sm(86, ""), First: cu(11, 1), MinPTX: px(7, 1), Family: "sm_8x",
		Products: "A10, A40, GeForce RTX 3090"},
	{Chip: sm(87, ""), First: cu(11, 4), MinPTX: px(7, 4), Family: "sm_8x",
		Products: "Jetson AGX Orin"},
	// sm_88: new in CUDA 13.0 [CU13][CLANG], PTX90 [TD].
	{Chip: sm(88, ""), First: cu(13, 0), MinPTX: px(9, 0), Family: "sm_8x",
		Unverified: "products: none listed on developer.nvidia.com/cuda-gpus"},
	{Chip: sm(89, ""), First: cu(11, 8), MinPTX: px(7, 8), Family: "sm_8x",
		Products: "L4, L40S, GeForce RTX 4090"},

	// Hopper. sm_90 PTX78 / CUDA 11.8, sm_90a PTX80 / CUDA 12.0 [TD][CLANG]. "sm_90a is the only member
	// of the sm_9x family" [TD]; 'a' code runs on CC 9.0 only [FAMILY].
	{Chip: sm(90, ""), First: cu(11, 8), MinPTX: px(7, 8), Family: "sm_9x",
		Products: "H100, H200, GH200"},
	{Chip: sm(90, "a"), First: cu(12, 0), MinPTX: px(8, 0), Family: "sm_9x"},

	// Blackwell datacenter. sm_100/100a: PTX86 [TD], CUDA 12.8 [CLANG] (PTX 8.6 belongs to "12.7",
	// which shipped no toolkit [ARCHIVE][PTXMAP]). sm_100f: PTX88, CUDA 12.9 [TD][CLANG].
	{Chip: sm(100, ""), First: cu(12, 8), MinPTX: px(8, 6), Family: "sm_10x",
		Products: "B200, GB200"},
	{Chip: sm(100, "a"), First: cu(12, 8), MinPTX: px(8, 6), Family: "sm_10x"},
	{Chip: sm(100, "f"), First: cu(12, 9), MinPTX: px(8, 8), Family: "sm_10x"},
	// sm_101 (Jetson Thor under CUDA 12.x): PTX86 (101, 101a) and PTX88 (101f) [TD], first 12.8 / 12.9,
	// last 12.9 [CLANG]; renamed sm_110 in 13.0 [CU13]. Its own family [FAMILY].
	{Chip: sm(101, ""), First: cu(12, 8), Last: cu(12, 9), MinPTX: px(8, 6), Family: "sm_101",
		RenamedTo: sm(110, ""), Products: "Jetson Thor (named sm_101 before CUDA 13.0)"},
	{Chip: sm(101, "a"), First: cu(12, 8), Last: cu(12, 9), MinPTX: px(8, 6), Family: "sm_101",
		RenamedTo: sm(110, "a")},
	{Chip: sm(101, "f"), First: cu(12, 9), Last: cu(12, 9), MinPTX: px(8, 8), Family: "sm_101",
		RenamedTo: sm(110, "f")},
	// sm_103 (Blackwell Ultra): PTX88 [TD], CUDA 12.9 [CLANG]; in the sm_10x family [FAMILY].
	{Chip: sm(103, ""), First: cu(12, 9), MinPTX: px(8, 8), Family: "sm_10x",
		Products: "B300, GB300"},
	{Chip: sm(103, "a"), First: cu(12, 9), MinPTX: px(8, 8), Family: "sm_10x"},
	{Chip: sm(103, "f"), First: cu(12, 9), MinPTX: px(8, 8), Family: "sm_10x"},

	// sm_110 (Jetson Thor from CUDA 13.0): PTX90 [TD], CUDA 13.0 [CLANG][CU13]. Family "sm_11x" [TD].
	{Chip: sm(110, ""), First: cu(13, 0), MinPTX: px(9, 0), Family: "sm_11x",
		Products: "Jetson T5000, T4000 (Thor)"},
	{Chip: sm(110, "a"), First: cu(13, 0), MinPTX: px(9, 0), Family: "sm_11x"},
	{Chip: sm(110, "f"), First: cu(13, 0), MinPTX: px(9, 0), Family: "sm_11x"},

	// Blackwell workstation / consumer. sm_120/120a PTX87, CUDA 12.8; sm_120f, sm_121/a/f PTX88, CUDA 12.9
	// [TD][CLANG]; "sm_12x family: sm_120f, sm_121f" [FAMILY].
	{Chip: sm(120, ""), First: cu(12, 8), MinPTX: px(8, 7), Family: "sm_12x",
		Products: "RTX PRO 6000 Blackwell, GeForce RTX 5090"},
	{Chip: sm(120, "a"), First: cu(12, 8), MinPTX: px(8, 7), Family: "sm_12x"},
	{Chip: sm(120, "f"), First: cu(12, 9), MinPTX: px(8, 8), Family: "sm_12x"},
	{Chip: sm(121, ""), First: cu(12, 9), MinPTX: px(8, 8), Family: "sm_12x",
		Products: "GB10 (DGX Spark)"},
	{Chip: sm(121, "a"), First: cu(12, 9), MinPTX: px(8, 8), Family: "sm_12x"},
	{Chip: sm(121, "f"), First: cu(12, 9), MinPTX: px(8, 8), Family: "sm_12x"},
}

// toolkitRow is one CUDA toolkit release that the table covers.
type toolkitRow struct {
	V Toolkit
	// Unverified says what about this release is inferred; "" if nothing.
	Unverified string
}

// toolkits are the CUDA toolkit releases the table covers, oldest first. Which chips each compiles for
// follows from the arches' First and Last; the newest PTX ISA each emits from ptxReleases. Releases
// [ARCHIVE]; 12.7 was never released as a toolkit (its version number exists only as the CUDA version
// of drivers, and as PTX ISA 8.6's release) [ARCHIVE][PTXMAP]. Toolkits before 11.0 are out of scope:
// First may name them, but Check refuses them.
var toolkits = []toolkitRow{
	{V: cu(11, 0)}, {V: cu(11, 1)}, {V: cu(11, 2)}, {V: cu(11, 3)}, {V: cu(11, 4)},
	{V: cu(11, 5)}, {V: cu(11, 6)}, {V: cu(11, 7)}, {V: cu(11, 8)},
	{V: cu(12, 0)}, {V: cu(12, 1)}, {V: cu(12, 2)}, {V: cu(12, 3)}, {V: cu(12, 4)},
	{V: cu(12, 5)}, {V: cu(12, 6)}, {V: cu(12, 8)}, {V: cu(12, 9)},
	{V: cu(13, 0)},
	// 13.1 exists and emits PTX ISA 9.1 [PTXMAP][ARCHIVE]; its target list was not checked.
	{V: cu(13, 1), Unverified: "target list assumed to equal 13.0's"},
}

// ptxRelease pairs a PTX ISA version with the CUDA release that introduced it.
type ptxRelease struct {
	PTX  PTX
	CUDA Toolkit
}

// ptxReleases is the PTX ISA release history [PTXMAP] (which copies [PTXDOC]'s table), oldest first.
// A toolkit emits, and a driver JITs, PTX ISA versions up to the newest whose CUDA release is not newer
// than its own CUDA version: CUDA 12.6 still emits 8.5 [XLA], driver 12.7 is the first to load 8.6.
var ptxReleases = []ptxRelease{
	{px(1, 0), cu(1, 0)}, {px(1, 1), cu(1, 1)}, {px(1, 2), cu(2, 0)}, {px(1, 3), cu(2, 1)},
	{px(1, 4), cu(2, 2)}, {px(2, 0), cu(3, 0)}, {px(2, 1), cu(3, 1)}, {px(2, 2), cu(3, 2)},
	{px(2, 3), cu(4, 0)}, {px(3, 0), cu(4, 1)}, {px(3, 1), cu(5, 0)}, {px(3, 2), cu(5, 5)},
	{px(4, 0), cu(6, 0)}, {px(4, 1), cu(6, 5)}, {px(4, 2), cu(7, 0)}, {px(4, 3), cu(7, 5)},
	{px(5, 0), cu(8, 0)},
	{px(6, 0), cu(9, 0)}, {px(6, 1), cu(9, 1)}, {px(6, 2), cu(9, 2)},
	{px(6, 3), cu(10, 0)}, {px(6, 4), cu(10, 1)}, {px(6, 5), cu(10, 2)},
	{px(7, 0), cu(11, 0)}, {px(7, 1), cu(11, 1)}, {px(7, 2), cu(11, 2)}, {px(7, 3), cu(11, 3)},
	{px(7, 4), cu(11, 4)}, {px(7, 5), cu(11, 5)}, {px(7, 6), cu(11, 6)}, {px(7, 7), cu(11, 7)},
	{px(7, 8), cu(11, 8)},
	{px(8, 0), cu(12, 0)}, {px(8, 1), cu(12, 1)}, {px(8, 2), cu(12, 2)}, {px(8, 3), cu(12, 3)},
	{px(8, 4), cu(12, 4)}, {px(8, 5), cu(12, 5)}, {px(8, 6), cu(12, 7)}, {px(8, 7), cu(12, 8)},
	{px(8, 8), cu(12, 9)},
	{px(9, 0), cu(13, 0)}, {px(9, 1), cu(13, 1)},
}

// The rules of compatibility that RunsOn applies to the table, with their sources:
//
//   - A cubin for plain sm_XY runs on chips of the same major version and equal or higher minor
//     ("Binary compatibility is guaranteed from one minor revision to the next one, but not from one
//     minor revision to the previous one or across major revisions", nvcc docs, quoted at
//     https://zengbs.github.io/notes/Compilation_with_NVCC). UNVERIFIED for a plain sm_100 cubin on
//     the sm_101 chip (Thor under CUDA 12.x drivers), which LLVM keeps out of the sm_10x family.
//   - Architecture-specific ('a') code, SASS or PTX, runs only on exactly its chip [FAMILY][TD]
//     ("PTX for these is not compatible with any other architectures").
//   - Family-specific ('f') code, SASS or PTX, runs on the chips of its Family with equal or higher
//     minor version [FAMILY] ("compute_100f ... compatible only with 10.0 and 10.3"; [TD]: "sm_103f
//     implies sm_100f").
//   - Plain PTX (compute_XY) JIT-compiles for every chip of equal or higher compute capability, across
//     major versions, when the driver knows its PTX ISA version [PTXDOC][PTXMAP].
//   - The driver takes a matching cubin over PTX, the cubin of the highest compatible chip first.
//     UNVERIFIED: which of sm_90 and sm_90a it takes when both match exactly; RunsOn ranks the
//     architecture-specific one first, then the family one, then the plain one.
//   - Cubins built by CUDA X.y load on drivers of CUDA X.0 and newer, not on drivers of an older major
//     version [MVC].
