package mlir

import (
	"os"
	"slices"
	"testing"
)

func TestReadOutline(t *testing.T) {
	decoys, err := os.ReadFile("testdata/decoys.mlir")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, src             string
		modules               []string // every module's name, and * after those at the top level
		main, launch, regions bool
	}{
		{"kernels only", "gpu.module @k {\n gpu.func @f() kernel { gpu.return }\n}\n", []string{"k*"}, false, false, false},
		{"a program", `module attributes {gpu.container_module} {
  gpu.module @k { gpu.func @f() kernel { gpu.return } }
  func.func @main() {
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}`, []string{"k*"}, true, true, false},
		{"a quoted main", "func.func nested @\"main\"() { gpu.launch blocks(%a, %b, %c) in (%x = %c1, %y = %c1, %z = %c1) threads(%d, %e, %f) in (%u = %c1, %v = %c1, %w = %c1) { gpu.terminator } return }",
			nil, true, true, true},
		{"host code after a nested module", `module {
  gpu.module @outer { builtin.module { gpu.module @inner { func.func @main() { gpu.launch_func @a::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) } } } }
  func.func @main() { return }
}`, []string{"outer*", "inner"}, true, false, false},
		{"names that are not ops", `func.func @mainly() attributes {gpu.launch = 1, tags = [gpu.launch_func]} {
  %gpu.launch = arith.constant 0 : index
  "test.op"() {s = "gpu.launch_func @k::@f"} : () -> ()
  return
}
// func.func @main() { gpu.launch_func }`, nil, false, false, false},
		{"testdata/decoys.mlir", string(decoys), []string{"k 1*", "k\"q*", "m.with.dots*"}, false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := ReadOutline([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range o.Modules {
				n := m.Name
				if m.TopLevel {
					n += "*"
				}
				got = append(got, n)
			}
			if !slices.Equal(got, tc.modules) || o.Main != tc.main || o.Launch != tc.launch || o.Regions != tc.regions {
				t.Errorf("ReadOutline: modules %q main %v launch %v regions %v, want %q %v %v %v", got, o.Main, o.Launch, o.Regions, tc.modules, tc.main, tc.launch, tc.regions)
			}
		})
	}
	if _, err := ReadOutline([]byte("func.func @main() {\n")); err == nil {
		t.Error("ReadOutline of an unclosed body: no error")
	}
}
