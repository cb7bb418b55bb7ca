package gazelle

import (
	"flag"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/rule"
	bzl "github.com/bazelbuild/buildtools/build"

	"github.com/rulesgpu/rules_gpu/tools/chip"
)

// The directives, each inherited by subdirectories until a BUILD file there says otherwise.
const (
	// gpu_extension enabled|disabled: whether to generate GPU targets here and below.
	directiveExtension = "gpu_extension"
	// gpu_chips sm_80,sm_90: the chips of the targets gazelle creates (empty: none, so the rules'
	// default --@rules_gpu//gpu:chips).
	directiveChips = "gpu_chips"
	// gpu_runs_on sm_90: their runs_on (empty: none, so --@rules_gpu//gpu:runners).
	directiveRunsOn = "gpu_runs_on"
	// gpu_compiler clang|nvcc: the compiler of the cuda_library targets gazelle creates (empty:
	// none, so the CUDA toolchain's).
	directiveCompiler = "gpu_compiler"
	// gpu_cuda_library package|file: one cuda_library for a package's .cu files, or one per file.
	directiveCudaLibrary = "gpu_cuda_library"
	// gpu_program binary|test: what a .cu with main() becomes, a cuda_binary or a cuda_test.
	directiveProgram = "gpu_program"
)

// gpuConfig is the extension's configuration of one directory.
type gpuConfig struct {
	enabled bool
	chips   []string // nil: no chips attribute
	runsOn  []string // nil: no runs_on attribute
	// compiler is "" (no attribute), "clang" or "nvcc".
	compiler string
	// perFile: one cuda_library per .cu file rather than one per package.
	perFile bool
	// programKind is the kind of the programs gazelle creates: kindCudaBinary or kindCudaTest.
	programKind string
}

func getConfig(c *config.Config) *gpuConfig {
	if gc, ok := c.Exts[languageName].(*gpuConfig); ok {
		return gc
	}
	return &gpuConfig{enabled: true, programKind: kindCudaBinary}
}

// RegisterFlags registers no flags: the extension is configured by directives.
func (*gpuLang) RegisterFlags(fs *flag.FlagSet, cmd string, c *config.Config) {
	c.Exts[languageName] = &gpuConfig{enabled: true, programKind: kindCudaBinary}
}

// CheckFlags has no flags to check.
func (*gpuLang) CheckFlags(fs *flag.FlagSet, c *config.Config) error { return nil }

// KnownDirectives lists the gpu_ directives.
func (*gpuLang) KnownDirectives() []string {
	return []string{directiveExtension, directiveChips, directiveRunsOn, directiveCompiler, directiveCudaLibrary, directiveProgram}
}

// Configure applies the directives of the directory's BUILD file to a copy of its parent's
// configuration. A directive with a bad value is reported (see problems) and leaves the setting
// as it was.
func (l *gpuLang) Configure(c *config.Config, rel string, f *rule.File) {
	gc := *getConfig(c)
	c.Exts[languageName] = &gc
	if f == nil {
		return
	}
	for _, d := range f.Directives {
		var err error
		switch d.Key {
		case directiveExtension:
			switch d.Value {
			case "enabled":
				gc.enabled = true
			case "disabled":
				gc.enabled = false
			default:
				err = fmt.Errorf("want enabled or disabled")
			}
		case directiveChips:
			var chips []string
			if chips, err = chipList(d.Value); err == nil {
				gc.chips = chips
			}
		case directiveRunsOn:
			var chips []string
			if chips, err = chipList(d.Value); err == nil {
				gc.runsOn = chips
			}
		case directiveCompiler:
			switch d.Value {
			case "", "clang", "nvcc":
				gc.compiler = d.Value
			default:
				err = fmt.Errorf("unknown compiler %q: want clang or nvcc (or nothing, for the CUDA toolchain's)", d.Value)
			}
		case directiveCudaLibrary:
			switch d.Value {
			case "package":
				gc.perFile = false
			case "file":
				gc.perFile = true
			default:
				err = fmt.Errorf("want package (one cuda_library for the package's .cu files) or file (one per .cu file)")
			}
		case directiveProgram:
			switch d.Value {
			case "binary":
				gc.programKind = kindCudaBinary
			case "test":
				gc.programKind = kindCudaTest
			default:
				err = fmt.Errorf("want binary (a .cu with main() becomes a cuda_binary) or test (a cuda_test, a gpu_cc_test)")
			}
		}
		if err != nil {
			l.problems.add("%s: # gazelle:%s %s: %v", directiveWhere(f, d), d.Key, d.Value, err)
		}
	}
}

// chipList reads a directive's chips: names separated by commas (blanks allowed), each a real chip
// of the chip table; an empty value is no list.
func chipList(value string) ([]string, error) {
	if strings.TrimSpace(value) == "" {
		return nil, nil
	}
	var out []string
	for _, name := range strings.Split(value, ",") {
		name = strings.TrimSpace(name)
		if _, err := chip.ParseReal(name); err != nil {
			return nil, err
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// directiveWhere is FILE:LINE of a directive's comment in its BUILD file, FILE when it cannot be
// found (the path is relative to the repository root, as a user reads it).
func directiveWhere(f *rule.File, d rule.Directive) string {
	where := path.Join(f.Pkg, filepath.Base(f.Path))
	if f.File == nil {
		return where
	}
	re := regexp.MustCompile(`^#\s*gazelle:` + regexp.QuoteMeta(d.Key) + `\s*` + regexp.QuoteMeta(d.Value) + `\s*$`)
	for _, s := range f.File.Stmt {
		cs := s.Comment()
		for _, list := range [][]bzl.Comment{cs.Before, cs.After} {
			for _, com := range list {
				if re.MatchString(com.Token) {
					return fmt.Sprintf("%s:%d", where, com.Start.Line)
				}
			}
		}
	}
	return where
}
