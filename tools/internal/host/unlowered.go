package host

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
)

// The messages of mlir-opt and mlir-translate that mean an op of the program is still there once
// its host code is lowered: the host pipeline has no lowering for it.
var unloweredOp = []*regexp.Regexp{
	regexp.MustCompile(`unsupported GPU operation: ([a-z_][a-z0-9_]*\.[a-z_][a-z0-9_.]*)`),
	regexp.MustCompile("Dialect `([a-z_][a-z0-9_]*)' not found for custom op '([a-z_][a-z0-9_]*\\.[a-z_][a-z0-9_.]*)'"),
	regexp.MustCompile(`failed to legalize operation '([a-z_][a-z0-9_]*\.[a-z_][a-z0-9_.]*)'`),
	regexp.MustCompile(`LLVM Translation failed for operation: ([a-z_][a-z0-9_]*\.[a-z_][a-z0-9_.]*)`),
}

// unloweredFixes say what to write instead of the ops the host lowering leaves, by op or by dialect.
var unloweredFixes = map[string]string{
	"gpu.alloc":   syncGPUFix,
	"gpu.dealloc": syncGPUFix,
	"gpu.memcpy":  syncGPUFix,
	"gpu.memset":  syncGPUFix,
	"async":       asyncFix,
}

const asyncFix = "rules_gpu lowers async.execute, async.await and async groups in func.func bodies before the host " +
	"lowering (MLIR's async-to-async-runtime and convert-async-to-llvm; the runtime is package mlirrt's), and that " +
	"lowering left this op: keep the async ops in func.func, and pass memrefs, scalars and GPU tokens through async values"

const syncGPUFix = "MLIR's host lowering (gpu-to-llvm) lowers only its async form: give it a token " +
	"(%t = gpu.wait async, then OP async [%t]) and wait for the result (gpu.wait [%r]), or use host memory " +
	"registered with gpu.host_register"

// explainUnlowered turns the failure of a host lowering step whose tool says an op was left
// unlowered into one that names the op, the first line of the program's source that uses it, and
// what to do; pipeline names the lowering (its mlir-opt options). Other failures are returned as
// they are.
func explainUnlowered(err error, src []byte, srcName, pipeline string) error {
	var e *compile.Error
	if !errors.As(err, &e) {
		return err
	}
	op := ""
	for _, re := range unloweredOp {
		if m := re.FindStringSubmatch(e.Stderr); m != nil {
			op = m[len(m)-1]
			break
		}
	}
	if op == "" {
		return err
	}
	dialect, _, _ := strings.Cut(op, ".")
	fix, ok := unloweredFixes[op]
	if !ok {
		fix, ok = unloweredFixes[dialect]
	}
	if !ok {
		fix = fmt.Sprintf("lower the %s dialect's ops before (to func, arith, memref, scf, cf, gpu and llvm), or write the host code with those", dialect)
	}
	where := srcName
	if line := firstUse(src, op); line > 0 {
		where = fmt.Sprintf("%s:%d", srcName, line)
	}
	out := *e
	out.Err = fmt.Errorf("%s: %s is left after the host lowering (%s, MLIR's GPU integration tests' pipeline), which has no lowering for it; fix: %s (%w)", where, op, pipeline, fix, e.Err)
	return &out
}

// firstUse is the 1-based line of the first use of op in MLIR source text outside comments, or 0.
func firstUse(src []byte, op string) int {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_.])` + regexp.QuoteMeta(op) + `($|[^A-Za-z0-9_])`)
	for i, line := range bytes.Split(src, []byte("\n")) {
		if c := bytes.Index(line, []byte("//")); c >= 0 {
			line = line[:c]
		}
		if re.Match(line) {
			return i + 1
		}
	}
	return 0
}
