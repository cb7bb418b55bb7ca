package migrate

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/bazelbuild/buildtools/build"
	"github.com/rulesgpu/rules_gpu/tools/internal/version"
)

// The rules_gpu module that replaces rules_cuda's, as items about MODULE.bazel and WORKSPACE say.
const rulesGPUDep = `bazel_dep(name = "rules_gpu", version = ...)`

// scanOthers lists what of rules_cuda the files that Migrate does not rewrite hold: the root
// WORKSPACE files' loads of rules_cuda and the repository rules that fetch it; and the loads of
// rules_cuda in .bzl files, whose macros call its rules. (MODULE.bazel is migrateModule's.)
func scanOthers(r *repository) ([]Item, error) {
	var items []Item
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

// usesRulesCuda matches what refers to rules_cuda in a file: its repository in a label or a load.
var usesRulesCuda = regexp.MustCompile(`@@?rules_cuda[+~]?\b`)

// The toolchains of rules_gpu that MODULE.bazel gets, as the README's start has them: {cuda} and
// {llvm} are the names of the extensions' proxies.
const rulesGPUToolchains = `{cuda} = use_extension("@rules_gpu//toolchain:extensions.bzl", "cuda")
{cuda}.local()
use_repo({cuda}, "cuda_toolkit")

{llvm} = use_extension("@rules_gpu//toolchain:extensions.bzl", "llvm")
{llvm}.local()
use_repo({llvm}, "llvm_toolchain")

register_toolchains("@cuda_toolkit//:all", "@llvm_toolchain//:all")
`

// migrateModule rewrites MODULE.bazel: it gets rules_gpu's bazel_dep and toolchains unless it has
// the bazel_dep; rules_cuda's bazel_dep, its overrides, its extension (with the proxy's tags and
// use_repo) and the register_toolchains of that extension's repositories are removed when nothing
// else in the repository uses rules_cuda any more (used: the files as migrated), else listed as
// scanOthers lists them.
func migrateModule(r *repository, used bool) (change *Change, notes, untranslated []Item, err error) {
	if r.module == "" {
		return nil, nil, nil, nil
	}
	orig, err := r.read(r.module)
	if err != nil {
		return nil, nil, nil, err
	}
	f, err := build.ParseModule(r.module, orig)
	if err != nil {
		return nil, nil, nil, err
	}
	hasGPU := false
	proxies := map[string]bool{} // the names of rules_cuda's extension proxies
	names := map[string]bool{}   // every name the file assigns
	for _, stmt := range f.Stmt {
		if as, ok := stmt.(*build.AssignExpr); ok {
			if id, ok := as.LHS.(*build.Ident); ok {
				names[id.Name] = true
				if call, ok := as.RHS.(*build.CallExpr); ok && calleeName(call) == "use_extension" && len(call.List) > 0 && isRulesCudaLabel(stringValue(call.List[0])) {
					proxies[id.Name] = true
				}
			}
			continue
		}
		if call, ok := stmt.(*build.CallExpr); ok && calleeName(call) == "bazel_dep" && stringArg(call, "name") == "rules_gpu" {
			hasGPU = true
		}
	}
	if !hasGPU {
		if hasGPU, err = includesRulesGPU(r, f); err != nil {
			return nil, nil, nil, err
		}
	}
	repos := map[string]bool{} // the repositories rules_cuda's extension makes visible
	for _, stmt := range f.Stmt {
		if call, ok := stmt.(*build.CallExpr); ok && calleeName(call) == "use_repo" && len(call.List) > 0 {
			if id, ok := call.List[0].(*build.Ident); ok && proxies[id.Name] {
				for _, a := range call.List[1:] {
					if s := stringValue(a); s != "" {
						repos[s] = true
					}
					if as, ok := a.(*build.AssignExpr); ok {
						if id, ok := as.LHS.(*build.Ident); ok {
							repos[id.Name] = true
						}
					}
				}
			}
		}
	}
	// rulesCuda says whether a statement is rules_cuda's, and names it for the note.
	rulesCuda := func(stmt build.Expr) (string, bool) {
		if as, ok := stmt.(*build.AssignExpr); ok {
			if id, ok := as.LHS.(*build.Ident); ok && proxies[id.Name] {
				return source(as.RHS), true
			}
			return "", false
		}
		call, ok := stmt.(*build.CallExpr)
		if !ok {
			return "", false
		}
		switch fn := calleeName(call); {
		case fn == "bazel_dep" && stringArg(call, "name") == "rules_cuda":
			return `bazel_dep(name = "rules_cuda")`, true
		case strings.HasSuffix(fn, "_override") && stringArg(call, "module_name") == "rules_cuda":
			return fmt.Sprintf(`%s(module_name = "rules_cuda")`, fn), true
		case fn == "use_repo" && len(call.List) > 0:
			id, ok := call.List[0].(*build.Ident)
			return source(call), ok && proxies[id.Name]
		case fn == "register_toolchains":
			for _, a := range call.List {
				repo, _, _ := strings.Cut(strings.TrimLeft(stringValue(a), "@"), "//")
				if repos[repo] {
					return source(call), true
				}
			}
			return "", false
		}
		if dot, ok := call.X.(*build.DotExpr); ok {
			if id, ok := dot.X.(*build.Ident); ok && proxies[id.Name] {
				return source(call), true
			}
		}
		return "", false
	}
	edited := false
	if !used {
		var keep []build.Expr
		for _, stmt := range f.Stmt {
			if what, ok := rulesCuda(stmt); ok {
				line := start(stmt).Line
				notes = append(notes, Item{File: r.module, Line: line, What: what, Why: "removed: nothing in the repository uses rules_cuda now"})
				edited = true
				continue
			}
			keep = append(keep, stmt)
		}
		f.Stmt = keep
		for n := range proxies {
			delete(names, n) // free for rules_gpu's proxies
		}
	}
	if !hasGPU {
		free := func(name string) string {
			for names[name] {
				name = "rules_gpu_" + name
			}
			return name
		}
		text := strings.NewReplacer("{cuda}", free("cuda"), "{llvm}", free("llvm")).Replace(rulesGPUToolchains)
		block, err := build.ParseModule(r.module, []byte(text))
		if err != nil {
			return nil, nil, nil, err
		}
		dep, err := build.ParseModule(r.module, []byte(fmt.Sprintf("bazel_dep(name = \"rules_gpu\", version = %q)\n", version.Version)))
		if err != nil {
			return nil, nil, nil, err
		}
		// After the last bazel_dep (or the module() call), the toolchains at the end.
		at := 0
		for i, stmt := range f.Stmt {
			if call, ok := stmt.(*build.CallExpr); ok && (calleeName(call) == "bazel_dep" || calleeName(call) == "module") {
				at = i + 1
			}
		}
		line := 1 // where the bazel_dep goes, in the file as it was
		if at > 0 {
			_, end := f.Stmt[at-1].Span()
			line = end.Line + 1
		}
		stmts := append(append(slices.Clone(f.Stmt[:at]), dep.Stmt...), f.Stmt[at:]...)
		f.Stmt = append(stmts, block.Stmt...)
		edited = true
		notes = append(notes, Item{File: r.module, Line: line, What: fmt.Sprintf("bazel_dep(name = \"rules_gpu\", version = %q)", version.Version),
			Why: "added, with rules_gpu's CUDA and LLVM toolchains found on the machine (cuda.local(), llvm.local(); docs/toolchains.md); rules_gpu is in no registry yet: add an archive_override or local_path_override of it (docs/getting-started.md)"})
	}
	if used {
		for _, stmt := range f.Stmt {
			what, ok := rulesCuda(stmt)
			if !ok {
				continue
			}
			untranslated = append(untranslated, Item{File: r.module, Line: start(stmt).Line, What: what,
				Why: "is kept: the repository still uses rules_cuda (the other items)",
				Fix: "once nothing uses rules_cuda, run gpubuild migrate again, which removes it"})
		}
	}
	if !edited {
		return nil, notes, untranslated, nil
	}
	out := build.Format(f)
	if bytes.Equal(out, orig) {
		return nil, notes, untranslated, nil
	}
	return &Change{Path: r.module, Old: orig, New: out}, notes, untranslated, nil
}

// includesRulesGPU says whether a file that MODULE.bazel include()s (the root's own files:
// include("//:deps.MODULE.bazel"), include("//third_party:gpu.MODULE.bazel")) has rules_gpu's
// bazel_dep, which MODULE.bazel then has too.
func includesRulesGPU(r *repository, f *build.File) (bool, error) {
	for _, stmt := range f.Stmt {
		call, ok := stmt.(*build.CallExpr)
		if !ok || calleeName(call) != "include" || len(call.List) != 1 {
			continue
		}
		label := stringValue(call.List[0])
		pkg, name, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(label, "@"), "//"), ":")
		if !ok || strings.HasPrefix(label, "@") && !strings.HasPrefix(label, "@//") {
			continue // another repository's file: not rewritten, not read
		}
		rel := path.Join(pkg, name)
		inc, err := parseFile(r, rel, build.ParseModule)
		if err != nil {
			return false, err
		}
		for _, s := range inc.Stmt {
			if c, ok := s.(*build.CallExpr); ok && calleeName(c) == "bazel_dep" && stringArg(c, "name") == "rules_gpu" {
				return true, nil
			}
		}
	}
	return false, nil
}
