package gazelle

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/rule"
	bzl "github.com/bazelbuild/buildtools/build"
)

// cppSources are the extensions of C++ sources: one with main() is a program (cc_binary) over the
// package's GPU libraries.
var cppSources = set(".cc", ".cpp", ".cxx")

// headerExts are the extensions of headers a CUDA C++ source may include from its package.
var headerExts = set(".cuh", ".h", ".hh", ".hpp", ".hxx", ".inc", ".inl")

// sourceExts are the extensions of the files whose disappearance the extension notices in the
// srcs, hdrs and src of its kinds (other entries, such as labels of rules, are left as written).
var sourceExts = set(".cu", ".cuh", ".h", ".hh", ".hpp", ".hxx", ".inc", ".inl", ".mlir", ".ptx", ".ll", ".bc")

// rootLibrary is the name of the cuda_library of the repository's root package (elsewhere it is the
// directory's name).
const rootLibrary = "kernels"

// GenerateRules makes the rules of one directory (see the package documentation): it brings the
// sources of the GPU rules already there up to date, and makes rules for the GPU sources that no
// rule lists yet.
func (l *gpuLang) GenerateRules(args language.GenerateArgs) language.GenerateResult {
	for _, f := range args.RegularFiles {
		if headerExts[path.Ext(f)] {
			l.headers.add(path.Join(args.Rel, f))
		}
	}
	gc := getConfig(args.Config)
	if !gc.enabled {
		return language.GenerateResult{}
	}
	p := newPackage(l, args, gc)
	p.refreshExisting()
	p.cudaLibraries()
	p.modulesAndPrograms()
	return p.result()
}

// pkg is one directory's generation.
type pkg struct {
	l    *gpuLang
	args language.GenerateArgs
	gc   *gpuConfig
	// files: the directory's regular and generated files.
	files map[string]bool
	// owner: for each file that a rule of the BUILD file lists (srcs, hdrs, textual_hdrs, src),
	// the first such rule.
	owner map[string]*rule.Rule
	// handsOffCuda: a cuda_library whose srcs or hdrs gazelle cannot read (a glob, a select)
	// may own any file, so no cuda_library is made for the package's unlisted CUDA files.
	handsOffCuda bool
	names        map[string]bool // the names of the file's rules and of the rules made
	libs         []*library      // the cuda_library rules, in order
	others       []*rule.Rule    // the other rules made, in order
	empty        []*rule.Rule
	includes     map[string][]include // by file name, once read
}

// library is a cuda_library being made: one already in the BUILD file (existing), or a new one.
type library struct {
	name       string
	existing   *rule.Rule // nil for a new one
	srcs, hdrs []string
	// textual are its textual_hdrs: the package's .cu files that another file includes
	// (#include "impl.cu"), which are not compiled on their own.
	textual []string
	roots   []string // its include directories, from the repository root
	// kind is kindCudaLibrary; kindCudaBinary or kindCudaTest for a program (a source with main()); kindCcLibrary
	// for the headers that several programs of the package include (sharedHeaders).
	kind string
}

func newPackage(l *gpuLang, args language.GenerateArgs, gc *gpuConfig) *pkg {
	p := &pkg{l: l, args: args, gc: gc, files: map[string]bool{}, owner: map[string]*rule.Rule{},
		names: map[string]bool{}, includes: map[string][]include{}}
	for _, f := range args.RegularFiles {
		p.files[f] = true
	}
	for _, f := range args.GenFiles {
		p.files[f] = true
	}
	if args.File == nil {
		return p
	}
	for _, r := range args.File.Rules {
		p.names[r.Name()] = true
		for _, attr := range []string{"srcs", "hdrs", "textual_hdrs"} {
			list, ok := literalStrings(r, attr)
			if !ok && p.kindOf(r) == kindCudaLibrary {
				p.handsOffCuda = true
			}
			for _, e := range list {
				if f := p.fileOf(e); f != "" && p.owner[f] == nil {
					p.owner[f] = r
				}
			}
		}
		if f := p.fileOf(r.AttrString("src")); f != "" && p.owner[f] == nil {
			p.owner[f] = r
		}
	}
	return p
}

// kindOf is a rule's kind as the extension knows it, through `# gazelle:map_kind` and
// `# gazelle:alias_kind`.
func (p *pkg) kindOf(r *rule.Rule) string {
	k := r.Kind()
	if from, ok := p.args.Config.AliasMap[k]; ok {
		k = from
	}
	for from, m := range p.args.Config.KindMap {
		if m.KindName == k {
			return from
		}
	}
	return k
}

// fileOf is the file of this package that a srcs or hdrs entry names (see fileInPackage).
func (p *pkg) fileOf(entry string) string { return fileInPackage(entry, p.args.Rel) }

// literalStrings is a rule's attribute when it is absent (nil, true) or a list of strings; ok is
// false for anything else (a glob, a select, a concatenation).
func literalStrings(r *rule.Rule, attr string) (list []string, ok bool) {
	e := r.Attr(attr)
	if e == nil {
		return nil, true
	}
	l, isList := e.(*bzl.ListExpr)
	if !isList {
		return nil, false
	}
	for _, x := range l.List {
		s, isString := x.(*bzl.StringExpr)
		if !isString {
			return nil, false
		}
		list = append(list, s.Value)
	}
	return list, true
}

// present drops the entries that name a source file of this package that is no longer there.
func (p *pkg) present(entries []string) []string {
	var out []string
	for _, e := range entries {
		f := p.fileOf(e)
		if f != "" && sourceExts[path.Ext(f)] && !p.files[f] && !p.existsBelow(f) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// existsBelow reports whether a file named by a path with directories (sub/k.h) exists: such files
// are not among the directory's files.
func (p *pkg) existsBelow(f string) bool {
	if !strings.Contains(f, "/") {
		return false
	}
	_, err := os.Stat(filepath.Join(p.args.Dir, filepath.FromSlash(f)))
	return err == nil
}

// refreshExisting brings the sources of the extension's rules in the BUILD file up to date: files
// that are gone leave srcs and hdrs (a rule left with no sources is deleted). Rules marked # keep,
// and those whose sources are not a list of strings, are left alone.
func (p *pkg) refreshExisting() {
	if p.args.File == nil {
		return
	}
	for _, r := range p.args.File.Rules {
		if r.ShouldKeep() {
			continue
		}
		kind := p.kindOf(r)
		switch kind {
		case kindCudaLibrary, kindCudaBinary, kindCudaTest:
			srcs, ok1 := literalStrings(r, "srcs")
			hdrs, ok2 := literalStrings(r, "hdrs")
			if !ok1 || !ok2 {
				continue
			}
			textual, _ := literalStrings(r, "textual_hdrs")
			lib := &library{name: r.Name(), existing: r, srcs: p.present(srcs), hdrs: p.present(hdrs), textual: p.present(textual), kind: kind}
			includes, _ := literalStrings(r, "includes")
			for _, inc := range includes {
				lib.roots = append(lib.roots, path.Join(p.args.Rel, inc))
			}
			p.libs = append(p.libs, lib)
		case kindModule:
			srcs, ok := literalStrings(r, "srcs")
			if !ok {
				continue
			}
			if srcs = p.present(srcs); len(srcs) == 0 {
				p.empty = append(p.empty, rule.NewRule(kind, r.Name()))
				continue
			}
			g := rule.NewRule(kind, r.Name())
			g.SetAttr("srcs", srcs)
			p.others = append(p.others, g)
		case kindBinary, kindTest:
			src := r.AttrString("src")
			if src == "" {
				continue
			}
			if len(p.present([]string{src})) == 0 {
				p.empty = append(p.empty, rule.NewRule(kind, r.Name()))
				continue
			}
			g := rule.NewRule(kind, r.Name())
			g.SetAttr("src", src)
			p.others = append(p.others, g)
		}
	}
}

// unlisted are the directory's files with one of the extensions that no rule lists, sorted.
func (p *pkg) unlisted(exts ...string) []string {
	var out []string
	for f := range p.files {
		if slices.Contains(exts, path.Ext(f)) && p.owner[f] == nil {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// cudaLibraries puts the package's unlisted .cu files into cuda_library rules (the package's one,
// or one per file) and its unlisted headers into the hdrs of the library that includes them.
func (p *pkg) cudaLibraries() {
	if p.handsOffCuda {
		return
	}
	// The package's library: the one cuda_library the BUILD file has, or the one named after
	// the package.
	pkgName := path.Base(p.args.Rel)
	if p.args.Rel == "" {
		pkgName = rootLibrary
	}
	var pkgLib *library
	var libraries []*library
	for _, lib := range p.libs {
		if lib.kind == kindCudaLibrary {
			libraries = append(libraries, lib)
		}
	}
	if len(libraries) == 1 {
		pkgLib = libraries[0]
	}
	for _, lib := range libraries {
		if lib.name == pkgName {
			pkgLib = lib
		}
	}
	included := p.includedCu()
	for _, f := range p.unlisted(".cu") {
		stem := strings.TrimSuffix(f, ".cu")
		switch {
		case included[f]:
			continue // a textual header of the library that includes it (below)
		case p.hasMain(f):
			// A program: rules_cuda's cuda_binary, its source alone (its library's, and its own
			// headers, it reaches through includes).
			var name string
			if p.gc.programKind == kindCudaTest {
				// Named as gpu_test's are: FILE_test, unless the file's name says test already.
				n := stem
				if !strings.HasSuffix(n, "_test") {
					n += "_test"
				}
				name = p.newName(n, stem+"_cuda_test")
			} else {
				name = p.newName(stem, stem+"_bin")
			}
			p.libs = append(p.libs, &library{name: name, srcs: []string{f}, kind: p.gc.programKind})
		case p.gc.perFile:
			p.libs = append(p.libs, &library{name: p.newName(stem, stem+"_cu"), srcs: []string{f}, kind: kindCudaLibrary})
		case pkgLib != nil:
			pkgLib.srcs = append(pkgLib.srcs, f)
		default:
			pkgLib = &library{name: p.newName(pkgName, pkgName+"_cuda"), srcs: []string{f}, kind: kindCudaLibrary}
			p.libs = append(p.libs, pkgLib)
		}
	}
	for _, f := range p.unlisted(".cc", ".cpp", ".cxx") {
		if p.hasMain(f) {
			stem := strings.TrimSuffix(f, path.Ext(f))
			p.libs = append(p.libs, &library{name: p.newName(stem, stem+"_bin"), srcs: []string{f}, kind: kindCcBinary})
		}
	}
	if p.gc.perFile {
		pkgLib = nil
	}
	// Headers: a .cuh goes to the library of the .cu of the same name, else the package's
	// library, else the first library that includes it; another header (and an included .cu,
	// as a textual header) only when a library includes it. Each header's includes may reach
	// more, so until nothing changes.
	assigned := map[string]bool{}
	for changed := true; changed; {
		changed = false
		reach := map[string][]*library{}
		for _, lib := range p.libs {
			for f := range p.reached(lib) {
				reach[f] = append(reach[f], lib)
			}
		}
		for _, h := range append(p.unlisted(keys(headerExts)...), sortedKeys(included)...) {
			if assigned[h] || p.owner[h] != nil || path.Ext(h) != ".cuh" && len(reach[h]) == 0 {
				continue
			}
			var to *library
			stem := strings.TrimSuffix(h, path.Ext(h))
			for _, lib := range p.libs {
				if slices.Contains(lib.srcs, stem+".cu") {
					to = lib
				}
			}
			if to == nil {
				to = pkgLib
			}
			if to == nil && len(reach[h]) > 0 {
				to = reach[h][0]
			}
			if to != nil && to.program() && len(reach[h]) > 1 {
				// A program is no library: a header that other targets include too is a library
				// of its own, which each depends on.
				to = p.sharedHeaders()
			}
			switch {
			case to != nil && path.Ext(h) == ".cu":
				if to.kind == kindCcBinary {
					to = p.sharedHeaders() // cc_binary has no textual_hdrs
				}
				to.textual = append(to.textual, h)
				assigned[h], changed = true, true
			case to != nil && to.kind == kindCcBinary:
				to.srcs = append(to.srcs, h) // cc_binary has no hdrs: its own headers are srcs
				assigned[h], changed = true, true
			case to != nil:
				to.hdrs = append(to.hdrs, h)
				assigned[h], changed = true, true
			}
		}
	}
}

// program says whether the library is a program's (a cuda_binary, a cuda_test or a cc_binary).
func (lib *library) program() bool {
	return lib.kind == kindCudaBinary || lib.kind == kindCudaTest || lib.kind == kindCcBinary
}

// sharedHeaders is the package's cc_library of the headers that several of its targets include and
// no library of theirs holds (a program's header that another program includes), made the first
// time one is met.
func (p *pkg) sharedHeaders() *library {
	for _, lib := range p.libs {
		if lib.kind == kindCcLibrary {
			return lib
		}
	}
	pkgName := path.Base(p.args.Rel)
	if p.args.Rel == "" {
		pkgName = rootLibrary
	}
	lib := &library{name: p.newName(pkgName+"_hdrs", pkgName+"_headers"), kind: kindCcLibrary}
	p.libs = append(p.libs, lib)
	return lib
}

// mainFunc is the start of a definition of main() at the start of a line: int main(, auto main(.
var mainFunc = regexp.MustCompile(`(?m)^[ \t]*(?:int|auto)[ \t]+main[ \t]*\(`)

// hasMain says whether a CUDA C++ or C++ source of the package defines main(): a program's.
func (p *pkg) hasMain(f string) bool {
	src, err := os.ReadFile(filepath.Join(p.args.Dir, filepath.FromSlash(f)))
	return err == nil && mainFunc.Match(src)
}

// includedCu are the package's .cu files that another file of the package includes with a quoted
// include (#include "impl.cu"): textual headers, never compiled on their own (compiled alone too,
// their definitions would be defined twice).
func (p *pkg) includedCu() map[string]bool {
	out := map[string]bool{}
	for f := range p.files {
		for _, in := range p.read(f) { // none for files that are not CUDA C++ or C++
			if !in.Quoted || path.Ext(in.Path) != ".cu" {
				continue
			}
			if c := path.Join(path.Dir(f), in.Path); c != f && p.files[c] {
				out[c] = true
			}
		}
	}
	return out
}

// reached are the package's files that a library's sources and headers include, directly or
// through each other, with the library's own.
func (p *pkg) reached(lib *library) map[string]bool {
	seen := map[string]bool{}
	todo := slices.Concat(lib.srcs, lib.hdrs, lib.textual)
	for len(todo) > 0 {
		f := p.fileOf(todo[0])
		todo = todo[1:]
		if f == "" || seen[f] {
			continue
		}
		seen[f] = true
		for _, in := range p.read(f) {
			if !in.Quoted {
				continue
			}
			for _, c := range in.candidates(lib.roots) {
				if dir, name := path.Split(c); strings.TrimSuffix(dir, "/") == p.args.Rel && p.files[name] {
					todo = append(todo, name)
					break
				}
			}
		}
	}
	return seen
}

// read returns the includes of a CUDA C++ file of the package (none for other files), reading it
// once. A file that cannot be read is a problem.
func (p *pkg) read(f string) []include {
	if in, ok := p.includes[f]; ok {
		return in
	}
	var out []include
	if ext := path.Ext(f); ext == ".cu" || headerExts[ext] || cppSources[ext] {
		src, err := os.ReadFile(filepath.Join(p.args.Dir, filepath.FromSlash(f)))
		if err != nil && !os.IsNotExist(err) {
			p.l.problems.add("%s: %v", path.Join(p.args.Rel, f), err)
		}
		out = parseIncludes(path.Join(p.args.Rel, f), src)
	}
	p.includes[f] = out
	return out
}

// modulesAndPrograms makes the targets of the unlisted .mlir and .ptx files.
func (p *pkg) modulesAndPrograms() {
	for _, f := range p.unlisted(".mlir", ".ptx") {
		ext := path.Ext(f)
		stem := strings.TrimSuffix(f, ext)
		if ext == ".ptx" {
			p.others = append(p.others, p.newRule(kindModule, p.newName(stem, stem+"_ptx"), "srcs", f))
			continue
		}
		src, err := os.ReadFile(filepath.Join(p.args.Dir, f))
		if err != nil {
			p.l.problems.add("%s: %v", path.Join(p.args.Rel, f), err)
			continue
		}
		m, err := readMLIR(src)
		if err != nil {
			p.l.problems.add("%s:%v (gazelle reads MLIR text as gpu_module does: fix the file, or write its target by hand)", path.Join(p.args.Rel, f), err)
			continue
		}
		switch m.Kind() {
		case mlirModules:
			if len(m.Modules) == 1 {
				p.others = append(p.others, p.newRule(kindModule, p.newName(stem, stem+"_mlir"), "srcs", f))
				break
			}
			// gpu_module builds one gpu.module of a file: one target for each, by module.
			for _, mod := range m.Modules {
				n := stem + "_" + targetName(mod)
				r := p.newRule(kindModule, p.newName(n, n+"_mlir"), "srcs", f)
				r.SetAttr("module", "^"+regexp.QuoteMeta(mod)+"$")
				p.others = append(p.others, r)
			}
		case mlirProgram:
			p.others = append(p.others, p.newRule(kindBinary, p.newName(stem, stem+"_bin"), "src", f))
		case mlirTest:
			name := stem
			if !strings.HasSuffix(name, "_test") {
				name += "_test"
			}
			p.others = append(p.others, p.newRule(kindTest, p.newName(name, stem+"_gpu_test"), "src", f))
		}
	}
}

// nonName is what a target name made from a module name may not hold.
var nonName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// targetName makes a gpu.module's name (@"my kernels") part of a target name (my_kernels).
func targetName(module string) string {
	if n := strings.Trim(nonName.ReplaceAllString(module, "_"), "_"); n != "" {
		return n
	}
	return "module"
}

// newName is the first of the names that no rule of the BUILD file has and no rule made has, or
// the last one with a number.
func (p *pkg) newName(names ...string) string {
	for _, n := range names {
		if !p.names[n] {
			p.names[n] = true
			return n
		}
	}
	last := names[len(names)-1]
	for i := 2; ; i++ {
		if n := last + "_" + strconv.Itoa(i); !p.names[n] {
			p.names[n] = true
			return n
		}
	}
}

// newRule is a rule that gazelle creates: its source, and the directory's defaults.
func (p *pkg) newRule(kind, name, srcAttr, src string) *rule.Rule {
	r := rule.NewRule(kind, name)
	if srcAttr == "src" {
		r.SetAttr("src", src)
	} else {
		r.SetAttr(srcAttr, []string{src})
	}
	p.setDefaults(r)
	return r
}

// setDefaults gives a rule gazelle creates the directory's chips, runs_on and (cuda_library,
// cuda_binary) compiler, and makes libraries visible to the packages that gazelle may make depend
// on them; a cc_library of shared headers gets only the visibility.
func (p *pkg) setDefaults(r *rule.Rule) {
	switch r.Kind() {
	case kindCcLibrary:
		r.SetAttr("visibility", []string{"//visibility:public"})
		return
	case kindCcBinary:
		return // a C++ program: no GPU attribute
	}
	if p.gc.chips != nil {
		r.SetAttr("chips", p.gc.chips)
	}
	if p.gc.runsOn != nil {
		r.SetAttr("runs_on", p.gc.runsOn)
	}
	if (r.Kind() == kindCudaLibrary || r.Kind() == kindCudaBinary || r.Kind() == kindCudaTest) && p.gc.compiler != "" {
		r.SetAttr("compiler", p.gc.compiler)
	}
	if r.Kind() == kindCudaLibrary || r.Kind() == kindModule {
		r.SetAttr("visibility", []string{"//visibility:public"})
	}
}

// result is what GenerateRules returns: the libraries with the includes to resolve, then the other
// rules; libraries left with no sources are empty rules, which gazelle deletes.
func (p *pkg) result() language.GenerateResult {
	var res language.GenerateResult
	for _, lib := range p.libs {
		if len(lib.srcs) == 0 && lib.kind != kindCcLibrary {
			if lib.existing != nil {
				p.empty = append(p.empty, rule.NewRule(lib.kind, lib.name))
			}
			continue
		}
		r := rule.NewRule(lib.kind, lib.name)
		if len(lib.srcs) > 0 {
			r.SetAttr("srcs", sorted(lib.srcs))
		}
		if len(lib.hdrs) > 0 {
			r.SetAttr("hdrs", sorted(lib.hdrs))
		}
		if len(lib.textual) > 0 {
			r.SetAttr("textual_hdrs", sorted(lib.textual))
		}
		// The includes to resolve are those of its own sources and headers; a header of the
		// package that is another rule's is resolved to that rule.
		imps := &cudaImports{own: map[string]bool{}, roots: lib.roots}
		openmp := false
		for _, e := range sorted(slices.Concat(lib.srcs, lib.hdrs, lib.textual)) {
			if f := p.fileOf(e); f != "" && !imps.own[path.Join(p.args.Rel, f)] {
				imps.own[path.Join(p.args.Rel, f)] = true
				for _, in := range p.read(f) {
					openmp = openmp || !in.Quoted && in.Path == "omp.h"
				}
				imps.includes = append(imps.includes, p.read(f)...)
			}
		}
		if lib.existing == nil {
			p.setDefaults(r)
			if openmp && lib.kind != kindCcLibrary && lib.kind != kindCcBinary {
				// OpenMP host code: clang's option, or with nvcc its host compiler's; the
				// library then links the OpenMP runtime (docs/cuda.md).
				r.SetAttr("host_copts", []string{"-fopenmp"})
			}
		}
		res.Gen = append(res.Gen, r)
		res.Imports = append(res.Imports, imps)
	}
	for _, r := range p.others {
		res.Gen = append(res.Gen, r)
		res.Imports = append(res.Imports, nil)
	}
	res.Empty = p.empty
	if p.args.Config.IndexLazy {
		res.RelsToIndex = p.relsToIndex(res.Imports)
	}
	return res
}

// relsToIndex are the directories that gazelle's lazy index (-index=lazy) must read for the
// includes to resolve: the directory of every path an include may name (a header that only an
// include directory, strip_include_prefix or include_prefix makes includable needs
// `# gazelle:resolve` there).
func (p *pkg) relsToIndex(imports []any) []string {
	seen := map[string]bool{}
	var rels []string
	for _, imp := range imports {
		imps, ok := imp.(*cudaImports)
		if !ok {
			continue
		}
		for _, in := range imps.includes {
			for _, c := range in.candidates(imps.roots) {
				dir := path.Dir(c)
				if dir == "." {
					dir = ""
				}
				if dir != p.args.Rel && !seen[dir] {
					seen[dir] = true
					rels = append(rels, dir)
				}
			}
		}
	}
	return rels
}

func sorted(list []string) []string {
	out := slices.Clone(list)
	sort.Strings(out)
	return slices.Compact(out)
}

func sortedKeys(m map[string]bool) []string {
	out := keys(m)
	sort.Strings(out)
	return out
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
