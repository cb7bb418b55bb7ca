package gazelle

import (
	"reflect"
	"testing"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/rule"

	"github.com/rulesgpu/rules_gpu/tools/cudalib"
)

// Imports: the paths an #include may name each header of a cc_library, cuda_library or cuda_objects by.
func TestImports(t *testing.T) {
	for _, tc := range []struct {
		name, pkg, build string
		want             []string
	}{
		{"hdrs from the repository root", "lib", `cc_library(name = "l", hdrs = ["a.h", ":b.h", "//lib:c.h", "sub/d.h"])`,
			[]string{"lib/a.h", "lib/b.h", "lib/c.h", "lib/sub/d.h"}},
		{"textual_hdrs too", "lib", `cc_library(name = "l", textual_hdrs = ["a.inc"])`, []string{"lib/a.inc"}},
		{"a header of another package, by label", "lib", `cc_library(name = "l", hdrs = ["//other:x.h", "@ext//:y.h"])`,
			[]string{"other/x.h"}},
		{"includes", "lib", `cc_library(name = "l", hdrs = ["include/x/a.h", "b.h"], includes = ["include", "."])`,
			[]string{"lib/include/x/a.h", "x/a.h", "include/x/a.h", "lib/b.h", "b.h"}},
		{"strip_include_prefix, relative", "lib", `cc_library(name = "l", hdrs = ["include/a.h"], strip_include_prefix = "include")`,
			[]string{"lib/include/a.h", "a.h"}},
		{"strip_include_prefix, absolute, and include_prefix", "lib", `cc_library(name = "l", hdrs = ["include/a.h"], strip_include_prefix = "/lib/include", include_prefix = "v1")`,
			[]string{"lib/include/a.h", "v1/a.h"}},
		{"include_prefix alone", "lib", `cc_library(name = "l", hdrs = ["a.h"], include_prefix = "lib2")`, []string{"lib/a.h", "lib2/a.h"}},
		{"a cuda_library", "k", `cuda_library(name = "k", srcs = ["k.cu"], hdrs = ["k.cuh"], includes = ["."])`, []string{"k/k.cuh", "k.cuh"}},
		{"a cuda_objects", "k", `cuda_objects(name = "o", srcs = ["o.cu"], hdrs = ["o.cuh"])`, []string{"k/o.cuh"}},
		{"the root package", "", `cuda_library(name = "k", srcs = ["k.cu"], hdrs = ["k.cuh"])`, []string{"k.cuh"}},
		{"other kinds provide nothing", "k", `gpu_module(name = "m", srcs = ["m.cu"], hdrs = ["m.cuh"])`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := rule.LoadData("/repo/"+tc.pkg+"/BUILD.bazel", tc.pkg, []byte(tc.build))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range NewLanguage().(*gpuLang).Imports(config.New(), f.Rules[0], f) {
				if s.Lang != languageName {
					t.Errorf("import spec %v: language %q, want %q", s, s.Lang, languageName)
				}
				got = append(got, s.Imp)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Imports = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSystemHeader(t *testing.T) {
	for p, want := range map[string]bool{
		"cuda_runtime.h": true, "cuda_fp16.h": true, "curand_kernel.h": true, "cupti_activity.h": true,
		"cub/cub.cuh": true, "thrust/device_vector.h": true, "cuda/std/atomic": true, "nvtx3/nvToolsExt.h": true,
		"cooperative_groups/reduce.h": true, "stdio.h": true, "vector": true, "cstdint": true,
		"cublas_v2.h": true, "cusparse.h": true, "nvrtc.h": true, "nvToolsExtCudaRt.h": true, "crt/host_defines.h": true,
		"vec.h": false, "cuda_helpers.h": false, "kernels/cuda.h": false, "device_utils.h": false, "mylib/vector": false,
	} {
		if got := systemHeader(p); got != want {
			t.Errorf("systemHeader(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestTargetName(t *testing.T) {
	for in, want := range map[string]string{
		"kernels": "kernels", "k 1": "k_1", "m.with.dots": "m.with.dots", "a/b": "a_b", " ": "module", `k"q`: "k_q",
	} {
		if got := targetName(in); got != want {
			t.Errorf("targetName(%q) = %q, want %q", in, got, want)
		}
	}
}

// The toolkit's own headers are listed here only where package cudalib does not resolve them to a
// library: a header is a library's in one place.
func TestToolkitHeadersNotLibraries(t *testing.T) {
	for h := range toolkitHeaders {
		if lib, ok := cudalib.ForInclude(h); ok {
			t.Errorf("toolkitHeaders lists %s, which cudalib resolves to the library %s: remove it from the list", h, lib.Name)
		}
	}
	for d := range systemDirs {
		if lib, ok := cudalib.ForInclude(d + "/x.h"); ok {
			t.Errorf("systemDirs lists %s/, which cudalib resolves to the library %s: remove it from the list", d, lib.Name)
		}
	}
}
