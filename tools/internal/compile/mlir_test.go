package compile

import (
	"fmt"
	"strings"
	"testing"
)

// printed is mlir-opt's output for a source with several gpu.modules, lowered by lowerPipeline:
// the top-level ones, one in a nested builtin.module (not lowered, never a candidate), and
// decoys in a comment and a string.
const printed = `#loc = loc("k.mlir":1:1)
module attributes {gpu.container_module} {
  gpu.module @kernels_a {
    llvm.func @ka(%arg0: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  gpu.module @kernels_b [#nvvm.target<chip = "sm_90">] {
    llvm.func @kb() attributes {gpu.kernel, nvvm.kernel, note = "gpu.module @decoy {\0A}"} {
      llvm.return
    }
  }
  gpu.module @other {
  }
  gpu.module @x.y {
    llvm.func @kxy() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  gpu.module @xzy {
    llvm.func @kxzy() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  gpu.module @"k 1" {
    llvm.func @k1() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  // gpu.module @commented {
  module @inner {
    gpu.module @kernels_c {
      gpu.func @kc() kernel {
        gpu.return
      }
    }
  }
}
{-#
  dialect_resources: {builtin: {}}
#-}
`

const all = "(@kernels_a, @kernels_b, @other, @x.y, @xzy, @k 1)"

func TestModuleBody(t *testing.T) {
	body := func(kernel string) string {
		return "    llvm.func @" + kernel + "() attributes {gpu.kernel, nvvm.kernel} {\n      llvm.return\n    }\n"
	}
	bodyA := "    llvm.func @ka(%arg0: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {\n      llvm.return\n    }\n"
	bodyB := "    llvm.func @kb() attributes {gpu.kernel, nvvm.kernel, note = \"gpu.module @decoy {\\0A}\"} {\n      llvm.return\n    }\n"
	for _, tc := range []struct {
		name, pattern string
		want          string // the body, or with err the error
		err           bool
	}{
		{"literal", "kernels_a", bodyA, false},
		{"with targets, a decoy in a string", "^kernels_b$", bodyB, false},
		{"empty body", "^other$", "", false},
		{"escaped dot", `x\.y`, body("kxy"), false},
		{"bracket dot", `^x[.]y$`, body("kxy"), false},
		{"anchored at the end", "zy$", body("kxzy"), false},
		{"quoted name", "^k 1$", body("k1"), false},
		{"character class", "[[:digit:]]", body("k1"), false},
		{"alternation", "^(other|nothing)$", "", false},
		{"bracket range", "kernels_[b-z]", bodyB, false},

		{"several", "kernels", `2 gpu.modules match --module "kernels" ` + all + `: select one module per target`, true},
		{"dot is any byte", "x.y", `2 gpu.modules match --module "x.y" ` + all, true},
		{"every module", "", `6 gpu.modules match --module "" ` + all, true},
		{"alternation, several", "_a$|^o", `2 gpu.modules match --module "_a$|^o"`, true},
		{"none", "^ther", `no gpu.module matches --module "^ther" (the source has @kernels_a, @kernels_b, @other, @x.y, @xzy, @k 1)`, true},
		{"nested is no candidate", "kernels_c", `no gpu.module matches --module "kernels_c"`, true},
		{"comment is no module", "commented", `no gpu.module matches --module "commented"`, true},
		{"perl escape", `k\d`, `--module "k\\d": "k\\d" at offset 1: \d is a plain d`, true},
		{"empty alternative", "other|", `--module "other|"`, true},
		{"invalid", "(", `--module "("`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := moduleBody([]byte(printed), MLIROptions{Module: tc.pattern})
			switch {
			case tc.err && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("moduleBody(%q): %v, want an error containing %q", tc.pattern, err, tc.want)
			case !tc.err && err != nil:
				t.Errorf("moduleBody(%q): %v", tc.pattern, err)
			case !tc.err && got != tc.want:
				t.Errorf("moduleBody(%q) =\n%q\nwant\n%q", tc.pattern, got, tc.want)
			}
		})
	}
	// A rule's module attribute is named as the attribute, not as the helper's flag.
	for _, pattern := range []string{"nomatch", "(", "kernels_"} {
		_, err := moduleBody([]byte(printed), MLIROptions{Module: pattern, Attribute: true})
		if want := fmt.Sprintf("module = %q", pattern); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "--module") {
			t.Errorf("module attribute %q: %v, want an error naming %s and not --module", pattern, err, want)
		}
	}
}

func TestModuleBodyNoCandidates(t *testing.T) {
	for _, tc := range []struct{ name, printed, want string }{
		{"no module", "module {\n  llvm.func @f() {\n    llvm.return\n  }\n}\n", "no gpu.module or gpu.launch in the source: kernels must be inside a gpu.module, or be gpu.launch regions"},
		{"only decoys", "module {\n  // gpu.module @c {\n  llvm.mlir.global internal constant @s(\"gpu.module @s {\") : !llvm.array<15 x i8>\n}\n", "no gpu.module or gpu.launch in the source"},
		{"only nested", "module {\n  module @m {\n    gpu.module @k {\n    }\n  }\n}\n", "no gpu.module is a direct child of the top-level module (nested: @k)"},
		{"unreadable", "module {\n  gpu.module @k {\n", "cannot read mlir-opt's output: 2:17: '{' is never closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := moduleBody([]byte(tc.printed), MLIROptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
