package migrate

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/bazelbuild/buildtools/build"

	"github.com/rulesgpu/rules_gpu/tools/cudalib"
)

// toolkitLabel matches a label of rules_cuda's toolkit repository: @local_cuda//:NAME (the name
// rules_cuda's toolchain extension and WORKSPACE macros give it; @cuda in some repositories), with
// one @ or two.
var toolkitLabel = regexp.MustCompile(`^@@?(local_cuda|cuda)//:([A-Za-z0-9_.+-]+)$`)

// settingLabels are rules_cuda's build setting and config_setting labels (without their @ or @@)
// that rules_gpu has, and rules_gpu's: CUDA on or off (docs/migrate.md).
var settingLabels = map[string]string{
	"rules_cuda//cuda:is_enabled": "@rules_gpu//gpu:is_enabled",
	"rules_cuda//cuda:enable":     "@rules_gpu//gpu:enable",
}

// rulesCudaRuntime are rules_cuda's names of the CUDA runtime, which is @rules_gpu//cuda:runtime.
var rulesCudaRuntime = map[string]bool{"cuda_runtime": true, "cuda_runtime_static": true, "cuda_headers": true}

// toolkitTarget is the rules_gpu label of rules_cuda's toolkit target name, or "".
func toolkitTarget(name string) string {
	if rulesCudaRuntime[name] {
		return "@rules_gpu//cuda:runtime"
	}
	if l, ok := cudalib.FromRulesCUDA(name); ok {
		return "@rules_gpu//cuda:" + l.Name
	}
	return ""
}

// toolkitLabels rewrites the file's labels of rules_cuda's toolkit repository (in any target's
// attributes) to rules_gpu's targets of the same library (@rules_gpu//cuda:cublas, ...), noting each,
// and lists those that have none; and rules_cuda's CUDA switch (settingLabels) to rules_gpu's. It
// reports whether it changed the file.
func (f *buildFile) toolkitLabels() (edited bool) {
	for _, stmt := range f.ast.Stmt {
		if _, ok := stmt.(*build.LoadStmt); ok {
			continue
		}
		build.Walk(stmt, func(x build.Expr, _ []build.Expr) {
			s, ok := x.(*build.StringExpr)
			if !ok {
				return
			}
			if to, ok := settingLabels[strings.TrimLeft(s.Value, "@")]; ok {
				f.notes = append(f.notes, Item{File: f.rel, Line: s.Start.Line, What: s.Value, Why: "became " + to + ", rules_gpu's"})
				s.Value = to
				edited = true
				return
			}
			m := toolkitLabel.FindStringSubmatch(s.Value)
			if m == nil {
				return
			}
			to := toolkitTarget(m[2])
			if to == "" {
				f.item(s.Start.Line, s.Value, "is a library of rules_cuda's toolkit repository that rules_gpu has no target for",
					"depend on a cc_library of your own that links it (linkopts) and holds its headers; docs/cuda-libraries.md lists the toolkit's libraries rules_gpu has")
				return
			}
			f.notes = append(f.notes, Item{File: f.rel, Line: s.Start.Line, What: s.Value,
				Why: fmt.Sprintf("became %s, the CUDA toolchain's library (docs/cuda-libraries.md)", to)})
			s.Value = to
			edited = true
		})
	}
	return edited
}

// migrateBzlFiles rewrites the labels toolkitLabels rewrites in the repository's .bzl files, whose
// macros name them too (a select on @rules_cuda//cuda:is_enabled, a dependency on
// @local_cuda//:cublas); their loads of rules_cuda are scanOthers' to list.
func migrateBzlFiles(r *repository) (buildResult, error) {
	var res buildResult
	for _, rel := range r.bzls {
		data, err := r.read(rel)
		if err != nil {
			return res, err
		}
		ast, err := build.ParseBzl(rel, data)
		if err != nil {
			return res, err
		}
		f := &buildFile{rel: rel, orig: data, ast: ast}
		edited := f.toolkitLabels()
		res.notes = append(res.notes, f.notes...)
		res.untranslated = append(res.untranslated, f.items...)
		if out := build.Format(ast); edited && !bytes.Equal(out, data) {
			res.changes = append(res.changes, Change{Path: rel, Old: data, New: out})
		}
	}
	return res, nil
}
