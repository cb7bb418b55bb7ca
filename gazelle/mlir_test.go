package gazelle

import (
	"reflect"
	"strings"
	"testing"
)

func TestReadMLIR(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      mlirFile
		kind      mlirKind
	}{
		{"one module", `gpu.module @kernels {
  gpu.func @saxpy(%a: f32) kernel { gpu.return }
}`, mlirFile{Modules: []string{"kernels"}}, mlirModules},
		{"two modules in a builtin module", `module attributes {gpu.container_module} {
  gpu.module @a [#nvvm.target<chip = "sm_90", flags = {fast}>] { }
  gpu.module @b <#gpu.select_object<0>> attributes {x = {y}} { }
}`, mlirFile{Modules: []string{"a", "b"}}, mlirModules},
		{"quoted and dotted names", "gpu.module @\"k 1\" {}\ngpu.module @m.with.dots{}\n",
			mlirFile{Modules: []string{"k 1", "m.with.dots"}}, mlirModules},
		// As tools/mlir/testdata/decoys.mlir: comments and strings hide nothing.
		{"decoys", `// gpu.module @in_comment { -- not a module
module attributes {gpu.container_module, test.s = "gpu.module @in_string { // not a comment"} {
  gpu.module @"k 1" {
    gpu.func @f() kernel attributes {test.a = "} gpu.module @q {", test.b = "escaped \"quote\" \\ gpu.module @r {"} {
      gpu.return // } ] ) unbalanced, in a comment
    }
  }
  func.func @uses_strings() attributes {test.gpu = "gpu.module @s {", test.m = "func.func @main"} {
    return
  }
}`, mlirFile{Modules: []string{"k 1"}}, mlirModules},
		// As tools/mlir/testdata/nested.mlir: only direct children of the top-level module.
		{"nested builtin modules", `module @outer {
  gpu.module @top {
  }
  builtin.module @inner {
    gpu.module @deep {
    }
  }
}`, mlirFile{Modules: []string{"top"}}, mlirModules},
		{"a program with gpu.launch", `module attributes {gpu.container_module} {
  func.func @main() {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    return
  }
}`, mlirFile{Main: true, Launch: true}, mlirProgram},
		{"a test: launch_func and CHECK lines", `module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @main() {
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // CHECK-NEXT: [1, 2]
    return
  }
}`, mlirFile{Modules: []string{"kernels"}, Main: true, Launch: true, Check: true}, mlirTest},
		{"CHECK: alone", "func.func @main() {\n  gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)\n  return\n}\n// CHECK: 42\n",
			mlirFile{Main: true, Launch: true, Check: true}, mlirTest},
		{"main without a launch: its modules", "gpu.module @m {}\nfunc.func @main() { return }\n",
			mlirFile{Modules: []string{"m"}, Main: true}, mlirModules},
		{"a launch without main", "gpu.module @m {}\nfunc.func @run() {\n gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)\n return\n}\n",
			mlirFile{Modules: []string{"m"}, Launch: true}, mlirModules},
		{"private main is still main", "func.func private @main() { gpu.launch blocks(%a, %b, %c) in (%x = %c1, %y = %c1, %z = %c1) threads(%d, %e, %f) in (%u = %c1, %v = %c1, %w = %c1) { gpu.terminator } return }",
			mlirFile{Main: true, Launch: true}, mlirProgram},
		{"a main inside a gpu.module is device code", "gpu.module @m {\n  func.func @main() { gpu.launch_func @x::@y blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) }\n}\n",
			mlirFile{Modules: []string{"m"}}, mlirModules},
		{"host code only", "func.func @main() {\n  return\n}\n// CHECK: nothing\n", mlirFile{Main: true, Check: true}, mlirNone},
		{"not CHECK lines", "// RUN: mlir-opt %s\n// CHECKS: no\n// MYCHECK: no\ngpu.module @m {}\n", mlirFile{Modules: []string{"m"}}, mlirModules},
		{"value names are not ops", "func.func @main() {\n  %gpu.launch = arith.constant 0 : index\n  return\n}\n", mlirFile{Main: true}, mlirNone},
		{"empty", "", mlirFile{}, mlirNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readMLIR([]byte(tc.src))
			if err != nil {
				t.Fatalf("readMLIR: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("readMLIR\n got %+v\nwant %+v", got, tc.want)
			}
			if k := got.Kind(); k != tc.kind {
				t.Errorf("Kind() = %v, want %v", k, tc.kind)
			}
		})
	}
}

func TestReadMLIRErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"an unterminated string", "gpu.module @m {}\nfunc.func @f() attributes {s = \"open\n", "2:32: unterminated string"},
		{"unbalanced braces", "gpu.module @m {\n", "1:15: '{' is never closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readMLIR([]byte(tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("readMLIR: %v, want an error starting %q", err, tc.want)
			}
		})
	}
}
