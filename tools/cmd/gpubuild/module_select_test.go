package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

// selectSource has several gpu.modules, each with one kernel named after it, and one gpu.module
// nested in another builtin.module: neither verb ever selects it (MLIR's passes only look at the
// direct children of the top-level module).
const selectSource = `module attributes {gpu.container_module} {
  gpu.module @kernels_a {
    gpu.func @k_kernels_a() kernel {
      gpu.return
    }
  }
  gpu.module @kernels_b {
    gpu.func @k_kernels_b() kernel {
      gpu.return
    }
  }
  gpu.module @other {
    gpu.func @k_other() kernel {
      gpu.return
    }
  }
  gpu.module @x.y {
    gpu.func @k_x.y() kernel {
      gpu.return
    }
  }
  gpu.module @xzy {
    gpu.func @k_xzy() kernel {
      gpu.return
    }
  }
  module @inner {
    gpu.module @kernels_c {
      gpu.func @k_kernels_c() kernel {
        gpu.return
      }
    }
  }
}
`

// selectCases: a pattern and the gpu.modules of selectSource it selects, in both verbs; invalid
// patterns are rejected by both.
var selectCases = []struct {
	pattern string
	want    []string
	invalid bool
}{
	{pattern: "kernels_a", want: []string{"kernels_a"}},
	{pattern: "kernels", want: []string{"kernels_a", "kernels_b"}}, // anywhere in the name; not the nested kernels_c
	{pattern: "^kernels_b$", want: []string{"kernels_b"}},
	{pattern: "^kernels$"},
	{pattern: "_a$|^o", want: []string{"kernels_a", "other"}},
	{pattern: "^(other|xzy)$", want: []string{"other", "xzy"}},
	{pattern: "kernels_[b-z]", want: []string{"kernels_b"}},
	{pattern: "[^a-z_.]"},
	{pattern: "x.y", want: []string{"x.y", "xzy"}},
	{pattern: `x\.y`, want: []string{"x.y"}},
	{pattern: "^x[.]y$", want: []string{"x.y"}},
	{pattern: "ot(h)+er", want: []string{"other"}},
	{pattern: "kernels_c"},
	{pattern: "none"},
	{pattern: "", want: []string{"kernels_a", "kernels_b", "other", "x.y", "xzy"}},
	{pattern: `kernels_\w`, invalid: true}, // \w is a plain w for MLIR, a class for Go
	{pattern: "other|", invalid: true},     // an empty alternative
	{pattern: "(kernels", invalid: true},
}

// selectRun runs the helper as its main does and returns the exit code and what it printed.
func selectRun(args ...string) (int, string) {
	var stdout, stderr bytes.Buffer
	rc := run(context.Background(), args, &stdout, &stderr)
	return rc, stdout.String() + stderr.String()
}

// TestModuleSelectAttach: attach --module P attaches the target to exactly the selected modules,
// and fails when none is selected or P is invalid.
func TestModuleSelectAttach(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "k.mlir")
	if err := os.WriteFile(in, []byte(selectSource), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, tc := range selectCases {
		t.Run(fmt.Sprintf("%q", tc.pattern), func(t *testing.T) {
			got, err := attachSelects(filepath.Join(dir, fmt.Sprintf("out%d.mlir", i)), in, tc.pattern)
			switch {
			case tc.invalid:
				if err == nil || !strings.Contains(err.Error(), "module regex") {
					t.Errorf("attach: %v, want the pattern rejected", err)
				}
			case err != nil:
				t.Error(err)
			case !reflect.DeepEqual(got, tc.want):
				t.Errorf("attach selects %q, want %q", got, tc.want)
			}
		})
	}
}

// attachSelects runs gpubuild attach --module pattern and returns the modules that got the target
// (none when it fails saying that no module matched).
func attachSelects(out, in, pattern string) ([]string, error) {
	rc, msg := selectRun("attach", "--chip", "sm_90", "--module", pattern, "-o", out, in)
	if rc != 0 {
		if strings.Contains(msg, fmt.Sprintf("no gpu.module matched --module %q", pattern)) {
			return nil, nil
		}
		return nil, fmt.Errorf("attach --module %q: exit %d: %s", pattern, rc, msg)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	mods, err := mlir.Modules(text)
	if err != nil {
		return nil, fmt.Errorf("attach --module %q wrote unreadable MLIR: %w", pattern, err)
	}
	var got []string
	for _, m := range mods {
		if len(m.Targets) > 0 {
			got = append(got, m.Name)
		}
	}
	return got, nil
}

// TestModuleSelectSameInBothVerbs: for every pattern, compile --module P selects the modules
// attach --module P selects: it compiles the one module (its kernel is in the LLVM IR), or fails
// saying that none or how many match; an invalid pattern fails in both.
func TestModuleSelectSameInBothVerbs(t *testing.T) {
	mlirOpt := testtool.LLVM(t, "mlir-opt")
	mlirTranslate := testtool.LLVM(t, "mlir-translate")
	dir := t.TempDir()
	in := filepath.Join(dir, "k.mlir")
	if err := os.WriteFile(in, []byte(selectSource), 0o644); err != nil {
		t.Fatal(err)
	}
	defined := regexp.MustCompile(`(?m)^define .*@"?k_([\w.]+?)"?\(`)
	for i, tc := range selectCases {
		t.Run(fmt.Sprintf("%q", tc.pattern), func(t *testing.T) {
			attached, aerr := attachSelects(filepath.Join(dir, fmt.Sprintf("a%d.mlir", i)), in, tc.pattern)
			out := filepath.Join(dir, fmt.Sprintf("c%d.ll", i))
			rc, msg := selectRun("compile", "--format", "llvm", "--module", tc.pattern,
				"--mlir-opt", mlirOpt, "--mlir-translate", mlirTranslate, "--out", out, in)
			if tc.invalid {
				if aerr == nil || rc == 0 || !strings.Contains(msg, fmt.Sprintf("--module %q", tc.pattern)) {
					t.Errorf("an invalid pattern: attach %v; compile exit %d: %s", aerr, rc, msg)
				}
				return
			}
			if aerr != nil {
				t.Fatal(aerr)
			}
			switch len(attached) {
			case 0:
				if want := fmt.Sprintf("no gpu.module matches --module %q", tc.pattern); rc == 0 || !strings.Contains(msg, want) {
					t.Errorf("attach selects no module; compile exit %d: %s\nwant an error containing %q", rc, msg, want)
				}
			case 1:
				if rc != 0 {
					t.Fatalf("attach selects %q; compile exit %d: %s", attached, rc, msg)
				}
				ll, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				var compiled []string
				for _, m := range defined.FindAllSubmatch(ll, -1) {
					compiled = append(compiled, string(m[1]))
				}
				if !reflect.DeepEqual(compiled, attached) {
					t.Errorf("attach selects %q; compile compiles the kernels of %q:\n%s", attached, compiled, ll)
				}
			default:
				if want := fmt.Sprintf("%d gpu.modules match --module %q", len(attached), tc.pattern); rc == 0 || !strings.Contains(msg, want) {
					t.Errorf("attach selects %q; compile exit %d: %s\nwant an error containing %q", attached, rc, msg, want)
				}
			}
			if !reflect.DeepEqual(attached, tc.want) {
				t.Errorf("both select %q, want %q", attached, tc.want)
			}
		})
	}
}
