package migrate

import (
	"fmt"
	"strings"

	"github.com/bazelbuild/buildtools/build"
)

// The rules_gpu module that replaces rules_cuda's, as items about MODULE.bazel and WORKSPACE say.
const rulesGPUDep = `bazel_dep(name = "rules_gpu", version = ...)`

// scanOthers lists what of rules_cuda the files that Migrate does not rewrite hold: MODULE.bazel's
// bazel_dep of rules_cuda, its use_extension and overrides of it; the root WORKSPACE files' loads of
// rules_cuda and the repository rules that fetch it; and the loads of rules_cuda in .bzl files, whose
// macros call its rules.
func scanOthers(r *repository) ([]Item, error) {
	var items []Item
	if r.module != "" {
		f, err := parseFile(r, r.module, build.ParseModule)
		if err != nil {
			return nil, err
		}
		for _, stmt := range f.Stmt {
			call, ok := stmt.(*build.CallExpr)
			if as, isAssign := stmt.(*build.AssignExpr); isAssign {
				call, ok = as.RHS.(*build.CallExpr)
			}
			if !ok {
				continue
			}
			it := Item{File: r.module, Line: start(call).Line}
			switch fn := calleeName(call); {
			case fn == "bazel_dep" && stringArg(call, "name") == "rules_cuda":
				it.What = `bazel_dep(name = "rules_cuda")`
				it.Why = "is left as it is: MODULE.bazel is not rewritten"
				it.Fix = "once nothing uses rules_cuda, replace it with " + rulesGPUDep + " and rules_gpu's toolchains (docs/toolchains.md)"
			case fn == "use_extension" && len(call.List) > 0 && isRulesCudaLabel(stringValue(call.List[0])):
				it.What = source(call)
				it.Why = "is rules_cuda's CUDA toolchain, left as it is"
				it.Fix = "once nothing uses rules_cuda, remove it with the use_repo and register_toolchains of its repositories; rules_gpu's CUDA toolchain: docs/toolchains.md"
			case strings.HasSuffix(fn, "_override") && stringArg(call, "module_name") == "rules_cuda":
				it.What = fmt.Sprintf(`%s(module_name = "rules_cuda")`, fn)
				it.Why = "is left as it is"
				it.Fix = "remove it with the bazel_dep of rules_cuda"
			default:
				continue
			}
			items = append(items, it)
		}
	}
	for _, rel := range r.workspaces {
		f, err := parseFile(r, rel, build.ParseWorkspace)
		if err != nil {
			return nil, err
		}
		for _, stmt := range f.Stmt {
			it := Item{File: rel}
			switch s := stmt.(type) {
			case *build.LoadStmt:
				if _, ok := rulesCudaModule(s.Module.Value); !ok {
					continue
				}
				it.Line = s.Load.Line
				it.What = fmt.Sprintf("load(%q, ...)", s.Module.Value)
				it.Why = "is rules_cuda's, left as it is"
				it.Fix = "once nothing uses rules_cuda, remove it and what it sets up (rules_cuda_dependencies, register_detected_cuda_toolchains); rules_gpu is set up in MODULE.bazel: " + rulesGPUDep
			case *build.CallExpr:
				if stringArg(s, "name") != "rules_cuda" {
					continue
				}
				it.Line = start(s).Line
				it.What = fmt.Sprintf(`%s(name = "rules_cuda")`, calleeName(s))
				it.Why = "fetches rules_cuda, left as it is"
				it.Fix = "once nothing uses rules_cuda, remove it; rules_gpu is set up in MODULE.bazel: " + rulesGPUDep
			default:
				continue
			}
			items = append(items, it)
		}
	}
	for _, rel := range r.bzls {
		f, err := parseFile(r, rel, build.ParseBzl)
		if err != nil {
			return nil, err
		}
		for _, stmt := range f.Stmt {
			l, ok := stmt.(*build.LoadStmt)
			if !ok {
				continue
			}
			if _, ok := rulesCudaModule(l.Module.Value); !ok {
				continue
			}
			items = append(items, Item{File: rel, Line: l.Load.Line,
				What: fmt.Sprintf("load(%q, ...)", l.Module.Value),
				Why:  "is in a .bzl file, whose macros are not translated",
				Fix:  "translate the macros by hand: rules_gpu's rules are loaded from @rules_gpu//rules:defs.bzl (cuda_library, gpu_cc_test); gpubuild migrate translates the BUILD files that call rules_cuda's rules themselves",
			})
		}
	}
	return items, nil
}

// parseFile reads and parses one file of the repository; a build.ParseError reads FILE:LINE:COL: message.
func parseFile(r *repository, rel string, parse func(string, []byte) (*build.File, error)) (*build.File, error) {
	data, err := r.read(rel)
	if err != nil {
		return nil, err
	}
	return parse(rel, data)
}

// rulesCudaModule reports whether a load's module is a file of rules_cuda, and whether it is
// cuda/defs.bzl, the one that holds its rules.
func rulesCudaModule(module string) (defs, ok bool) {
	repo, rest, found := strings.Cut(module, "//")
	if !found || !isRulesCudaRepo(repo) {
		return false, false
	}
	return rest == "cuda:defs.bzl", true
}

// isRulesCudaLabel reports whether a label is in rules_cuda's repository.
func isRulesCudaLabel(label string) bool {
	repo, _, found := strings.Cut(label, "//")
	return found && isRulesCudaRepo(repo)
}

// isRulesCudaRepo reports whether @repo names rules_cuda: @rules_cuda, @@rules_cuda, or its
// canonical names @@rules_cuda+ and @@rules_cuda~.
func isRulesCudaRepo(repo string) bool {
	switch repo {
	case "@rules_cuda", "@@rules_cuda", "@@rules_cuda+", "@@rules_cuda~":
		return true
	}
	return false
}

// isRulesGPUDefs reports whether a load's module is rules_gpu's rules/defs.bzl.
func isRulesGPUDefs(module string) bool {
	switch module {
	case "@rules_gpu//rules:defs.bzl", "@@rules_gpu//rules:defs.bzl", "@@rules_gpu+//rules:defs.bzl", "@@rules_gpu~//rules:defs.bzl":
		return true
	}
	return false
}

// calleeName is the name a call calls, "" unless it is a plain identifier.
func calleeName(c *build.CallExpr) string {
	if id, ok := c.X.(*build.Ident); ok {
		return id.Name
	}
	return ""
}

// stringArg is the value of a call's keyword argument key when it is a string literal, else "".
func stringArg(c *build.CallExpr, key string) string {
	return (&build.Rule{Call: c}).AttrString(key)
}

// stringValue is the value of a string literal, "" for anything else.
func stringValue(x build.Expr) string {
	if s, ok := x.(*build.StringExpr); ok {
		return s.Value
	}
	return ""
}

// start is where an expression starts in the file as it was read.
func start(x build.Expr) build.Position {
	pos, _ := x.Span()
	return pos
}

// source is the Starlark source of x on one line.
func source(x build.Expr) string {
	s := strings.Join(strings.Fields(build.FormatString(x)), " ")
	return strings.NewReplacer("( ", "(", "[ ", "[", "{ ", "{", ", )", ")", ", ]", "]", ", }", "}").Replace(s)
}
