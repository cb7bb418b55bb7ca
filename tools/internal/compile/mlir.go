package compile

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// lowerPipeline lowers the device code of every gpu.module to the LLVM and NVVM dialects, as MLIR's
// own gpu-lower-to-nvvm-pipeline does for the device side.
const lowerPipeline = "builtin.module(gpu.module(strip-debuginfo,convert-scf-to-cf,convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts))"

var gpuModuleLine = regexp.MustCompile(`^(\s*)gpu\.module @("(?:[^"\\]|\\.)*"|[\w$.-]+)`)

// mlirToLLVM lowers the selected gpu.module with mlir-opt, wraps its body in a builtin module and
// translates that to LLVM IR with mlir-translate.
func (t Tools) mlirToLLVM(ctx context.Context, job Job, src string, step func(string) string) (string, error) {
	lowered := step("lowered.mlir")
	if err := job.exec(ctx, "lower to NVVM", t.MLIROpt, "--pass-pipeline="+lowerPipeline, src, "-o", lowered); err != nil {
		return "", err
	}
	text, err := os.ReadFile(lowered)
	if err != nil {
		return "", job.fail(nil, "", err)
	}
	body, err := moduleBody(text, job.Module)
	if err != nil {
		return "", job.fail(nil, "", err)
	}
	wrapped := step("device.mlir")
	doc := "module attributes {llvm.target_triple = \"nvptx64-nvidia-cuda\"} {\n" + body + "}\n"
	if err := os.WriteFile(wrapped, []byte(doc), 0o644); err != nil {
		return "", job.fail(nil, "", err)
	}
	out := step("device.ll")
	if err := job.exec(ctx, "translate to LLVM IR", t.MLIRTranslate, "--mlir-to-llvmir", wrapped, "-o", out); err != nil {
		return "", err
	}
	return out, nil
}

// moduleBody returns the body of the one gpu.module of mlir-opt's printed output whose name matches
// the pattern (all modules when empty). mlir-opt prints each op on its own lines, indented by
// nesting, with no raw newline inside strings, so a module ends at the first "}" line at its own
// indentation.
func moduleBody(printed []byte, pattern string) (string, error) {
	var re *regexp.Regexp
	if pattern != "" {
		var err error
		if re, err = regexp.Compile(pattern); err != nil {
			return "", fmt.Errorf("--module %q: %w", pattern, err)
		}
	}
	type mod struct {
		name string
		body strings.Builder
	}
	var all, picked []*mod
	var cur *mod
	var closing string
	sc := bufio.NewScanner(bytes.NewReader(printed))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		line := sc.Text()
		if cur != nil {
			if line == closing {
				cur = nil
				continue
			}
			cur.body.WriteString(line)
			cur.body.WriteByte('\n')
			continue
		}
		if m := gpuModuleLine.FindStringSubmatch(line); m != nil {
			if !strings.HasSuffix(line, "{") {
				return "", fmt.Errorf("cannot read gpu.module @%s as printed by mlir-opt: %q", m[2], line)
			}
			cur = &mod{name: strings.Trim(m[2], `"`)}
			closing = m[1] + "}"
			all = append(all, cur)
			if re == nil || re.MatchString(cur.name) {
				picked = append(picked, cur)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	var names []string
	for _, m := range all {
		names = append(names, "@"+m.name)
	}
	switch {
	case len(all) == 0:
		return "", fmt.Errorf("no gpu.module in the source: kernels must be inside a gpu.module")
	case len(picked) == 0:
		return "", fmt.Errorf("no gpu.module matches --module %q (the source has %s)", pattern, strings.Join(names, ", "))
	case len(picked) > 1:
		return "", fmt.Errorf("%d gpu.modules match --module %q (%s): select one module per target", len(picked), pattern, strings.Join(names, ", "))
	}
	return picked[0].body.String(), nil
}
