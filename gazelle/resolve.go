package gazelle

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/label"
	"github.com/bazelbuild/bazel-gazelle/repo"
	"github.com/bazelbuild/bazel-gazelle/resolve"
	"github.com/bazelbuild/bazel-gazelle/rule"

	"github.com/rulesgpu/rules_gpu/tools/cudalib"
)

// cudaImports is what a generated cuda_library needs resolved: the includes of its sources and
// headers, its own files (which need no dependency), and its include directories.
type cudaImports struct {
	includes []include
	own      map[string]bool // repository paths of its srcs and hdrs
	roots    []string        // its includes attribute, from the repository root
}

// Imports indexes the headers a cuda_library, cuda_objects or cc_library provides (its hdrs and textual_hdrs,
// files of its package or, by label, of another package; a glob() of them evaluated over the
// package's files, attrEntries), under every path an #include may name
// them by: from the repository root (kernels/vec.cuh), and from each of the rule's include
// directories (includes), or by the virtual path strip_include_prefix and include_prefix give a
// cc_library's headers.
func (*gpuLang) Imports(c *config.Config, r *rule.Rule, f *rule.File) []resolve.ImportSpec {
	if r.Kind() != kindCudaLibrary && r.Kind() != kindCcLibrary && r.Kind() != kindCudaObjects {
		return nil
	}
	var specs []resolve.ImportSpec
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && p != "." && !seen[p] {
			seen[p] = true
			specs = append(specs, resolve.ImportSpec{Lang: languageName, Imp: p})
		}
	}
	includes := r.AttrStrings("includes")
	strip, prefix := r.AttrString("strip_include_prefix"), r.AttrString("include_prefix")
	dir := ""
	if f != nil && f.Path != "" {
		dir = filepath.Dir(f.Path)
	}
	for _, attr := range []string{"hdrs", "textual_hdrs"} {
		for _, h := range attrEntries(r, attr, dir) {
			p := headerPath(h, f.Pkg)
			if p == "" {
				continue
			}
			add(p)
			for _, inc := range includes {
				add(under(p, path.Join(f.Pkg, inc)))
			}
			if strip != "" || prefix != "" {
				root := f.Pkg
				if strings.HasPrefix(strip, "/") {
					root = strings.TrimPrefix(strip, "/")
				} else if strip != "" {
					root = path.Join(f.Pkg, strip)
				}
				if v := under(p, root); v != "" {
					add(path.Join(prefix, v))
				}
			}
		}
	}
	return specs
}

// fileInPackage is the file of package pkg that a srcs or hdrs entry of one of its rules names
// ("k.h", ":k.h", "//pkg:k.h"; "sub/k.h" for a file below), or "" when the entry names something
// elsewhere (a label of another package or repository).
func fileInPackage(entry, pkg string) string {
	if entry == "" {
		return ""
	}
	if !strings.HasPrefix(entry, ":") && !strings.HasPrefix(entry, "//") && !strings.HasPrefix(entry, "@") {
		return entry
	}
	l, err := label.Parse(entry)
	if err != nil || l.Repo != "" || !l.Relative && l.Pkg != pkg {
		return ""
	}
	return l.Name
}

// headerPath is the repository path of the file that a hdrs entry of a rule in package pkg names:
// a file of the package ("k.h", ":k.h", "sub/k.h") or, by its label, of another package of the
// repository ("//other:k.h", exported there). It is "" for a label of another repository.
func headerPath(entry, pkg string) string {
	if f := fileInPackage(entry, pkg); f != "" {
		return path.Join(pkg, f)
	}
	if l, err := label.Parse(entry); err == nil && l.Repo == "" && !l.Relative {
		return path.Join(l.Pkg, l.Name)
	}
	return ""
}

// under is p relative to dir when p is below dir ("" otherwise, or when dir is the root and p
// would not change).
func under(p, dir string) string {
	if dir == "" || dir == "." {
		return p
	}
	if rest, ok := strings.CutPrefix(p, dir+"/"); ok {
		return rest
	}
	return ""
}

// Resolve sets a generated cuda_library's deps from its includes (see resolveInclude); the other
// kinds have nothing to resolve.
func (l *gpuLang) Resolve(c *config.Config, ix *resolve.RuleIndex, rc *repo.RemoteCache, r *rule.Rule, imports interface{}, from label.Label) {
	imps, ok := imports.(*cudaImports)
	if !ok || imps == nil {
		return
	}
	deps := map[string]bool{}
	for _, in := range imps.includes {
		for _, dep := range l.resolveInclude(c, ix, in, imps, from) {
			deps[dep.Rel(from.Repo, from.Pkg).String()] = true
		}
	}
	if len(deps) == 0 {
		r.DelAttr("deps")
		return
	}
	list := make([]string, 0, len(deps))
	for d := range deps {
		list = append(list, d)
	}
	sort.Strings(list)
	r.SetAttr("deps", list)
}

// resolveInclude finds the target that provides an included header, trying the paths the
// compiler would (include.candidates): the library's own files need nothing; then a `# gazelle:resolve
// gpu HEADER LABEL` directive for the header as written or any of its paths; then gazelle's index;
// then the CUDA toolkit's libraries (cudalib.ForInclude: <cublas_v2.h> is @rules_gpu//cuda:cublas).
// What nothing provides is fine for the CUDA toolkit's and the standard libraries' headers and for
// an angle include of a file the repository does not have (the system's), and a problem for any
// other include, as is a header that several targets provide.
func (l *gpuLang) resolveInclude(c *config.Config, ix *resolve.RuleIndex, in include, imps *cudaImports, from label.Label) []label.Label {
	cands := in.candidates(imps.roots)
	for _, p := range cands {
		if imps.own[p] {
			return nil
		}
	}
	for _, p := range append([]string{in.Path}, cands...) {
		if dep, ok := resolve.FindRuleWithOverride(c, resolve.ImportSpec{Lang: languageName, Imp: p}, languageName); ok {
			return []label.Label{dep}
		}
	}
	for _, p := range cands {
		var found []label.Label
		self := false
		for _, res := range ix.FindRulesByImportWithConfig(c, resolve.ImportSpec{Lang: languageName, Imp: p}, languageName) {
			if res.IsSelfImport(from) {
				self = true
			} else {
				found = append(found, res.Label)
			}
		}
		switch {
		case self:
			return nil
		case len(found) == 1:
			return found
		case len(found) > 1:
			names := make([]string, len(found))
			for i, f := range found {
				names[i] = f.String()
			}
			sort.Strings(names)
			l.problems.add("%s: %s: %s is in the hdrs of %d targets (%s); fix: keep it in one, or choose with # gazelle:resolve gpu %s LABEL",
				in.where(), in.written(), p, len(found), strings.Join(names, ", "), in.Path)
			return nil
		}
	}
	if lib, ok := cudalib.ForInclude(in.Path); ok {
		// A header of one of the CUDA toolkit's libraries: the library, which links it.
		return []label.Label{label.New(l.rulesGPU, "cuda", lib.Name)}
	}
	if systemHeader(in.Path) {
		return nil
	}
	if !in.Quoted {
		// The system's, unless the repository has it: then a target must provide it.
		if where := l.headers.find(in.Path); len(where) > 0 {
			l.problems.add("%s: %s: no target provides this header, which the repository has (%s), so it is not the system's; fix: declare it in the hdrs of a cc_library with its directory in includes (includes = [\".\"] beside it; gazelle then adds that library to deps), or name the target that provides it with # gazelle:resolve gpu %s LABEL",
				in.where(), in.written(), strings.Join(where, ", "), in.Path)
		}
		return nil
	}
	what := "no file or target provides this header"
	for _, p := range cands {
		if _, err := os.Stat(filepath.Join(c.RepoRoot, filepath.FromSlash(p))); err == nil {
			what = "no target provides this header (" + p + " is in no cc_library's or cuda_library's hdrs)"
			break
		}
	}
	l.problems.add("%s: %s: %s; fix: declare it in the hdrs of a cc_library (gazelle then adds that library to deps), or name the target that provides it with # gazelle:resolve gpu %s LABEL",
		in.where(), in.written(), what, in.Path)
	return nil
}
