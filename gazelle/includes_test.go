package gazelle

import (
	"reflect"
	"testing"
)

func TestParseIncludes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []include
	}{
		{"quoted and angle", "#include \"a/b.h\"\n#include <cuda_runtime.h>\n",
			[]include{{Line: 1, Path: "a/b.h", Quoted: true}, {Line: 2, Path: "cuda_runtime.h"}}},
		{"blanks around the hash", "  #  include \"x.cuh\"\n\t#\tinclude<y.h>\n",
			[]include{{Line: 1, Path: "x.cuh", Quoted: true}, {Line: 2, Path: "y.h"}}},
		{"trailing comments", "#include \"x.h\" // why\n#include \"y.h\" /* and */\n",
			[]include{{Line: 1, Path: "x.h", Quoted: true}, {Line: 2, Path: "y.h", Quoted: true}}},
		{"line comment", "// #include \"no.h\"\n#include \"yes.h\"\n",
			[]include{{Line: 2, Path: "yes.h", Quoted: true}}},
		// The comment becomes one space: the # then starts the line it ends on.
		{"block comment over lines", "/* start\n#include \"no.h\"\nend */ #include \"after.h\"\n#include \"yes.h\"\n",
			[]include{{Line: 3, Path: "after.h", Quoted: true}, {Line: 4, Path: "yes.h", Quoted: true}}},
		{"comment between hash and include", "#/**/include \"x.h\"\n",
			[]include{{Line: 1, Path: "x.h", Quoted: true}}},
		{"comment markers in a string", "const char *s = \"/*\";\n#include \"x.h\"\n",
			[]include{{Line: 2, Path: "x.h", Quoted: true}}},
		{"continued line", "#include \\\n  \"x.h\"\n#include \"y.h\"\n",
			[]include{{Line: 1, Path: "x.h", Quoted: true}, {Line: 3, Path: "y.h", Quoted: true}}},
		{"every branch of #if counts", "#ifdef __CUDACC__\n#include \"dev.cuh\"\n#else\n#include \"host.h\"\n#endif\n",
			[]include{{Line: 2, Path: "dev.cuh", Quoted: true}, {Line: 4, Path: "host.h", Quoted: true}}},
		{"CRLF", "#include \"x.h\"\r\n", []include{{Line: 1, Path: "x.h", Quoted: true}}},
		{"not includes", "#include HEADER\n#include_next <x.h>\n#define include \"no.h\"\nint include = 0;\n#include \"\"\n#include \"open\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range tc.want {
				tc.want[i].File = "pkg/k.cu"
			}
			got := parseIncludes("pkg/k.cu", []byte(tc.src))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parseIncludes(%q)\n got %+v\nwant %+v", tc.src, got, tc.want)
			}
		})
	}
}

func TestIncludeCandidates(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    include
		roots []string
		want  []string
	}{
		{"beside the file, then the root", include{File: "kernels/k.cu", Path: "common/vec.h", Quoted: true}, nil,
			[]string{"kernels/common/vec.h", "common/vec.h"}},
		{"a file at the root", include{File: "k.cu", Path: "vec.h", Quoted: true}, nil, []string{"vec.h"}},
		{"angle: include roots only", include{File: "kernels/k.cu", Path: "common/vec.h"}, nil, []string{"common/vec.h"}},
		{"include directories", include{File: "kernels/k.cu", Path: "vec.h", Quoted: true}, []string{"kernels/include", "third/inc"},
			[]string{"kernels/vec.h", "vec.h", "kernels/include/vec.h", "third/inc/vec.h"}},
		{"parent directory", include{File: "kernels/sub/k.cu", Path: "../common.h", Quoted: true}, nil, []string{"kernels/common.h"}},
		{"out of the repository", include{File: "k.cu", Path: "../../x.h", Quoted: true}, nil, nil},
		{"duplicates once", include{File: "k.cu", Path: "./x.h", Quoted: true}, []string{"."}, []string{"x.h"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.in.candidates(tc.roots); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("candidates(%v) = %q, want %q", tc.roots, got, tc.want)
			}
		})
	}
}
