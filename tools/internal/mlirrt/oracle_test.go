package mlirrt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The oracle test runs printCases, and the scalar printers, through upstream's own libraries:
// mlir-runner-21 with LLVM 21's libmlir_runner_utils, libmlir_c_runner_utils and
// libmlir_float16_utils (MLIR_RUNNER_UTILS, MLIR_C_RUNNER_UTILS, MLIR_FLOAT16_UTILS, or Debian's
// paths under /usr/lib/llvm-21/lib), and compares their output with ours.

const llvmLib = "/usr/lib/llvm-21/lib/"

// mlirType is the MLIR element type of each kind.
var mlirType = map[Kind]string{I8: "i8", I16: "i16", I32: "i32", I64: "i64", Index: "index", F16: "f16",
	BF16: "bf16", F32: "f32", F64: "f64", C32: "complex<f32>", C64: "complex<f64>"}

// literal is element e of kind k as a dense attribute element: floats as their bits, complex parts
// with enough digits to round-trip (MLIR's float literals need a decimal point).
func literal(k Kind, e []byte) string {
	ne := binary.NativeEndian
	switch k {
	case I8:
		return strconv.Itoa(int(int8(e[0])))
	case I16:
		return strconv.Itoa(int(int16(ne.Uint16(e))))
	case I32:
		return strconv.Itoa(int(int32(ne.Uint32(e))))
	case I64, Index:
		return strconv.FormatInt(int64(ne.Uint64(e)), 10)
	case F16, BF16:
		return fmt.Sprintf("0x%04X", ne.Uint16(e))
	case F32:
		return fmt.Sprintf("0x%08X", ne.Uint32(e))
	case F64:
		return fmt.Sprintf("0x%016X", ne.Uint64(e))
	case C32:
		re, im := math.Float32frombits(ne.Uint32(e)), math.Float32frombits(ne.Uint32(e[4:]))
		return fmt.Sprintf("(%s, %s)", strconv.FormatFloat(float64(re), 'e', 8, 32), strconv.FormatFloat(float64(im), 'e', 8, 32))
	case C64:
		re, im := math.Float64frombits(ne.Uint64(e)), math.Float64frombits(ne.Uint64(e[8:]))
		return fmt.Sprintf("(%s, %s)", strconv.FormatFloat(re, 'e', 16, 64), strconv.FormatFloat(im, 'e', 16, 64))
	}
	panic(k)
}

func join(xs []int64) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.FormatInt(x, 10))
	}
	return strings.Join(s, ", ")
}

// oracleProgram is an MLIR program that prints every case and scalar, each after a marker line
// (printI64 of -1000 - its number), and the text we expect from it.
func oracleProgram(t *testing.T, cases []printCase) (string, []string) {
	var globals, body bytes.Buffer
	decls := map[string]string{}
	var want []string
	mark := func(i int) {
		fmt.Fprintf(&body, "  %%mark%d = arith.constant %d : i64\n  call @printI64(%%mark%d) : (i64) -> ()\n  call @printNewline() : () -> ()\n", i, -1000-i, i)
	}
	decls["printI64"] = "(i64)"
	decls["printNewline"] = "()"
	for i, c := range cases {
		m := c.m
		if m.Start != 0 {
			t.Fatalf("%s: the oracle prints views of a buffer from its start", c.name)
		}
		mark(i)
		elt, size := mlirType[m.Kind], m.Kind.Size()
		var lits []string
		for j := 0; j < len(m.Data); j += size {
			lits = append(lits, literal(m.Kind, m.Data[j:j+size]))
		}
		buf := fmt.Sprintf("memref<%dx%s>", len(lits), elt)
		fmt.Fprintf(&globals, "memref.global \"private\" constant @g%d : %s = dense<[%s]>\n", i, buf, strings.Join(lits, ", "))
		shape := ""
		for _, s := range m.Sizes {
			shape += strconv.FormatInt(s, 10) + "x"
		}
		view := fmt.Sprintf("memref<%s%s, strided<[%s], offset: %d>>", shape, elt, join(m.Strides), m.Offset)
		fmt.Fprintf(&body, "  %%g%d = memref.get_global @g%d : %s\n", i, i, buf)
		fmt.Fprintf(&body, "  %%v%d = memref.reinterpret_cast %%g%d to offset: [%d], sizes: [%s], strides: [%s] : %s to %s\n",
			i, i, m.Offset, join(m.Sizes), join(m.Strides), buf, view)
		arg, fn := fmt.Sprintf("memref<*x%s>", elt), "printMemref"+m.Kind.String()
		switch {
		case c.shape:
			fn = "printMemrefShape" + m.Kind.String()
		case m.Ranked:
			// The ranked printers take a descriptor of their rank; a dynamic layout fits every view.
			arg = fmt.Sprintf("memref<%s%s, strided<[%s], offset: ?>>", strings.Repeat("?x", len(m.Sizes)),
				elt, strings.TrimSuffix(strings.Repeat("?, ", len(m.Sizes)), ", "))
			fn = fmt.Sprintf("printMemref%dd%s", len(m.Sizes), m.Kind)
		}
		fmt.Fprintf(&body, "  %%c%d = memref.cast %%v%d : %s to %s\n  call @%s(%%c%d) : (%s) -> ()\n", i, i, view, arg, fn, i, arg)
		decls[fn] = "(" + arg + ") attributes {llvm.emit_c_interface}"
		var w bytes.Buffer
		printer := Print
		if c.shape {
			printer = PrintShape
		}
		if err := printer(&w, &c.m); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want = append(want, w.String())
	}

	// The scalar printers of vector.print's lowering.
	n := len(cases)
	scalar := func(fn, typ, value, text string) {
		mark(n)
		fmt.Fprintf(&body, "  %%s%d = arith.constant %s : %s\n  call @%s(%%s%d) : (%s) -> ()\n", n, value, typ, fn, n, typ)
		decls[fn] = "(" + typ + ")"
		want = append(want, text)
		n++
	}
	for _, f := range []float32{0.1, 1e20, math.MaxFloat32, 1234565, -0.0, float32(math.Inf(-1)), negNaN32} {
		scalar("printF32", "f32", fmt.Sprintf("0x%08X", math.Float32bits(f)), string(AppendFloat(nil, float64(f))))
	}
	for _, f := range []float64{1.0 / 3, 1e-300, 5e-324, math.NaN()} {
		scalar("printF64", "f64", fmt.Sprintf("0x%016X", math.Float64bits(f)), string(AppendFloat(nil, f)))
	}
	for _, i := range []int64{0, -1, math.MinInt64} {
		scalar("printI64", "i64", strconv.FormatInt(i, 10), strconv.FormatInt(i, 10))
		scalar("printU64", "i64", strconv.FormatInt(i, 10), strconv.FormatUint(uint64(i), 10))
	}
	for _, h := range []uint16{0x3555, 0xfe00, 0x0001} {
		scalar("printF16", "i16", strconv.Itoa(int(int16(h))), string(AppendFloat(nil, float64(F16ToFloat32(h)))))
		scalar("printBF16", "i16", strconv.Itoa(int(int16(h))), string(AppendFloat(nil, float64(BF16ToFloat32(h)))))
	}
	for _, p := range []struct{ fn, text string }{{"printOpen", Open}, {"printClose", Close}, {"printComma", Comma}, {"printNewline", Newline}} {
		mark(n)
		fmt.Fprintf(&body, "  call @%s() : () -> ()\n", p.fn)
		decls[p.fn] = "()"
		want = append(want, p.text)
		n++
	}
	mark(n)

	var prog bytes.Buffer
	prog.Write(globals.Bytes())
	for fn, sig := range decls {
		fmt.Fprintf(&prog, "func.func private @%s%s\n", fn, sig)
	}
	fmt.Fprintf(&prog, "func.func @main() {\n%s  return\n}\n", body.String())
	return prog.String(), want
}

var oracleBase = regexp.MustCompile(`base@ = (0x[0-9a-f]+|0) `)

func TestOracle(t *testing.T) {
	l := findLLVM(t)
	opt, runner := l.mlirOpt, l.runner
	libs := runnerLibs(t, "mlir_runner_utils", "mlir_c_runner_utils", "mlir_float16_utils")
	prog, want := oracleProgram(t, printCases)
	dir := t.TempDir()
	src, lowered := filepath.Join(dir, "oracle.mlir"), filepath.Join(dir, "oracle.llvm.mlir")
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(opt, src, "--expand-strided-metadata", "--finalize-memref-to-llvm", "--convert-func-to-llvm",
		"--convert-arith-to-llvm", "--reconcile-unrealized-casts", "-o", lowered).CombinedOutput()
	if err != nil {
		t.Fatalf("mlir-opt: %v\n%s\n%s", err, out, prog)
	}
	cmd := exec.Command(runner, lowered, "-e", "main", "-entry-point-result=void", "-shared-libs="+strings.Join(libs, ","))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("mlir-runner: %v\n%s", err, stderr.Bytes())
	}
	// Split the output at the markers: part i follows "-100i\n".
	parts := make([]string, len(want))
	rest := string(got)
	for i := range len(want) + 1 {
		m := strconv.Itoa(-1000-i) + "\n"
		if !strings.HasPrefix(rest, m) {
			t.Fatalf("marker %s not found at\n%q", m, rest)
		}
		rest = rest[len(m):]
		if i == len(want) {
			break
		}
		next := strings.Index(rest, strconv.Itoa(-1000-i-1)+"\n")
		if next < 0 {
			t.Fatalf("marker %d not found after\n%q", -1000-i-1, rest)
		}
		parts[i], rest = rest[:next], rest[next:]
	}
	for i, w := range want {
		name := "scalar"
		if i < len(printCases) {
			name = printCases[i].name
		}
		g := oracleBase.ReplaceAllString(parts[i], "base@ = B ")
		w = oracleBase.ReplaceAllString(w, "base@ = B ")
		if g != w {
			t.Errorf("%d (%s): upstream printed\n%q\nwe print\n%q", i, name, g, w)
		}
	}
}
