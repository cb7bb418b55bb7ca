package gazelle

import (
	"flag"
	"reflect"
	"strings"
	"testing"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// configure applies BUILD files' directives from the root down, one per directory, as gazelle's
// walk does, and returns the last directory's configuration and the problems reported.
func configure(t *testing.T, builds ...string) (*gpuConfig, []string) {
	t.Helper()
	l := NewLanguage().(*gpuLang)
	c := config.New()
	l.RegisterFlags(flag.NewFlagSet("gazelle", flag.ContinueOnError), "update", c)
	rel := ""
	for i, b := range builds {
		if i > 0 {
			rel = strings.TrimPrefix(rel+"/d", "/")
			c = c.Clone()
		}
		f, err := rule.LoadData("/repo/"+strings.TrimPrefix(rel+"/BUILD.bazel", "/"), rel, []byte(b))
		if err != nil {
			t.Fatal(err)
		}
		l.Configure(c, rel, f)
	}
	return getConfig(c), l.problems.take()
}

func TestConfigure(t *testing.T) {
	for _, tc := range []struct {
		name     string
		builds   []string
		want     gpuConfig
		problems []string
	}{
		{name: "defaults", builds: []string{""}, want: gpuConfig{enabled: true, programKind: kindCudaBinary}},
		{name: "every directive", builds: []string{`# gazelle:gpu_chips sm_80, sm_90,sm_80
# gazelle:gpu_runs_on sm_90a
# gazelle:gpu_compiler nvcc
# gazelle:gpu_cuda_library file
# gazelle:gpu_extension disabled
# gazelle:gpu_program test
`}, want: gpuConfig{chips: []string{"sm_80", "sm_90"}, runsOn: []string{"sm_90a"}, compiler: "nvcc", perFile: true, programKind: kindCudaTest}},
		{name: "inherited, then changed and reset", builds: []string{
			"# gazelle:gpu_chips sm_80\n# gazelle:gpu_runs_on sm_80\n# gazelle:gpu_compiler nvcc\n# gazelle:gpu_extension disabled\n# gazelle:gpu_program test\n",
			"# gazelle:gpu_cuda_library file\n",
			"# gazelle:gpu_chips sm_86\n# gazelle:gpu_runs_on\n# gazelle:gpu_compiler\n# gazelle:gpu_cuda_library package\n# gazelle:gpu_extension enabled\n# gazelle:gpu_program binary\n",
		}, want: gpuConfig{enabled: true, chips: []string{"sm_86"}, programKind: kindCudaBinary}},
		{name: "an unknown chip leaves the setting as it was", builds: []string{"# gazelle:gpu_chips sm_80", "\n\n# gazelle:gpu_chips sm_80,sm_91"},
			want:     gpuConfig{enabled: true, chips: []string{"sm_80"}, programKind: kindCudaBinary},
			problems: []string{`d/BUILD.bazel:3: # gazelle:gpu_chips sm_80,sm_91: unknown chip "sm_91": not in the chip table; the chips are sm_35,`}},
		{name: "a virtual chip", builds: []string{"# gazelle:gpu_runs_on compute_90"}, want: gpuConfig{enabled: true, programKind: kindCudaBinary},
			problems: []string{"BUILD.bazel:1: # gazelle:gpu_runs_on compute_90: compute_90 is a virtual chip (PTX); name real chips, such as sm_90"}},
		{name: "an empty chip", builds: []string{"# gazelle:gpu_chips sm_80,,sm_90"}, want: gpuConfig{enabled: true, programKind: kindCudaBinary},
			problems: []string{`BUILD.bazel:1: # gazelle:gpu_chips sm_80,,sm_90: unknown chip ""`}},
		{name: "bad values", builds: []string{"# gazelle:gpu_compiler gcc\n# gazelle:gpu_cuda_library target\n# gazelle:gpu_extension off\n# gazelle:gpu_program app\n"},
			want: gpuConfig{enabled: true, programKind: kindCudaBinary},
			problems: []string{
				`BUILD.bazel:1: # gazelle:gpu_compiler gcc: unknown compiler "gcc": want clang or nvcc`,
				"BUILD.bazel:2: # gazelle:gpu_cuda_library target: want package (one cuda_library for the package's .cu files) or file (one per .cu file)",
				"BUILD.bazel:3: # gazelle:gpu_extension off: want enabled or disabled",
				"BUILD.bazel:4: # gazelle:gpu_program app: want binary (a .cu with main() becomes a cuda_binary) or test",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, problems := configure(t, tc.builds...)
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("config %+v, want %+v", *got, tc.want)
			}
			if len(problems) != len(tc.problems) {
				t.Fatalf("problems %q, want %d", problems, len(tc.problems))
			}
			for i, p := range problems {
				if !strings.HasPrefix(p, tc.problems[i]) {
					t.Errorf("problem %q\nwant it to start %q", p, tc.problems[i])
				}
			}
		})
	}
}
