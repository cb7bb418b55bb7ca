package migrate

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/bazelbuild/buildtools/build"
)

// buildResult is what migrateBuildFiles did.
type buildResult struct {
	changes             []Change
	notes, untranslated []Item
	// attrsWritten counts the cuda_library targets that got the .bazelrc archs' format and ptx.
	attrsWritten int
	// first is the first target translated, in path and line order; nil when none was.
	first *target
}

// The modules rules_gpu's rules and cc_binary are loaded from.
const (
	rulesGPUDefs = "@rules_gpu//rules:defs.bzl"
	rulesCCDefs  = "@rules_cc//cc:defs.bzl"
)

// migrateBuildFiles translates the rules_cuda targets of every BUILD file (see the package
// documentation); attrs, when not nil, are the format and ptx that every migrated cuda_library gets.
func migrateBuildFiles(r *repository, attrs *Attrs) (buildResult, error) {
	var res buildResult
	var files []*buildFile
	for _, pkg := range sortedPackages(r) {
		f, err := parseBuildFile(r, pkg)
		if err != nil {
			return res, err
		}
		files = append(files, f)
	}
	plan(files)
	for _, f := range files {
		written, edited := f.apply(attrs)
		edited = f.toolkitLabels() || edited
		res.attrsWritten += written
		res.notes = append(res.notes, f.notes...)
		res.untranslated = append(res.untranslated, f.items...)
		for _, t := range f.targets {
			if t.ok() && res.first == nil {
				res.first = t
			}
			if t.ok() {
				res.notes = append(res.notes, t.notes...)
			} else {
				res.untranslated = append(res.untranslated, t.problems...)
			}
		}
		if !edited {
			continue
		}
		if out := build.Format(f.ast); !bytes.Equal(out, f.orig) {
			res.changes = append(res.changes, Change{Path: f.rel, Old: f.orig, New: out})
		}
	}
	return res, nil
}

// apply makes the file's translatable targets rules_gpu's and fixes its loads. It returns how many
// cuda_library targets got attrs, and whether it edited the file.
func (f *buildFile) apply(attrs *Attrs) (attrsWritten int, edited bool) {
	// The names of rules_cuda that the file still needs: those of targets, calls and uses that stay
	// (but of the symbols rules_gpu has too, which it loads from rules_gpu).
	needed := map[string]bool{}
	var same []*build.Ident
	for _, stmt := range f.ast.Stmt {
		if _, ok := stmt.(*build.LoadStmt); ok {
			continue
		}
		build.Walk(stmt, func(x build.Expr, stk []build.Expr) {
			if id, ok := x.(*build.Ident); ok && f.cuda[id.Name] != "" && !isKeyword(id, stk) {
				if sameSymbols[f.cuda[id.Name]] {
					same = append(same, id)
				} else if t := f.calls[id]; t == nil || !t.ok() {
					needed[id.Name] = true
				}
			}
		})
	}
	var todo []*target
	for _, t := range f.targets {
		if t.ok() {
			todo = append(todo, t)
		}
	}
	dropsNames := false
	for name := range f.cuda {
		dropsNames = dropsNames || !needed[name]
	}
	if len(todo) == 0 && !dropsNames {
		return 0, false
	}

	ln := newLoadNames(f, needed)
	// The uses of a symbol rules_gpu has too: the same function, loaded from rules_gpu.
	renames := map[*build.Ident]string{}
	for _, id := range same {
		symbol := f.cuda[id.Name]
		renames[id] = ln.gpu(symbol, id.Name, true)
		f.notes = append(f.notes, Item{File: f.rel, Line: id.NamePos.Line, What: id.Name + "()",
			Why: "is rules_gpu's " + symbol + " now, loaded from " + rulesGPUDefs})
	}
	for id, name := range renames {
		id.Name = name
	}
	// Translated cuda_library targets keep the name they call the rule by, unless the file's other
	// targets still call rules_cuda's rule by it.
	callee := map[*target]string{}
	for _, t := range todo {
		if t.kind == cudaLibrary || t.kind == cudaObjects {
			callee[t] = ln.gpu(t.kind, calleeName(t.call), false)
		}
	}
	for _, t := range todo {
		switch t.kind {
		case cudaTest:
			callee[t] = ln.gpu("gpu_cc_test", "gpu_cc_test", true)
		case cudaBinary:
			callee[t] = ln.ccBinary()
		}
	}
	for _, t := range todo {
		t.applyLibrary(attrs)
		if attrs != nil {
			attrsWritten++
		}
		if t.kind == cudaLibrary || t.kind == cudaObjects {
			if calleeName(t.call) != callee[t] {
				t.rule.SetKind(callee[t])
			}
			continue
		}
		f.split(t, ln.gpu("cuda_library", "cuda_library", true), callee[t])
	}
	ln.apply()
	return attrsWritten, true
}

// applyLibrary makes the target's library attributes rules_gpu's: headers move from srcs to hdrs,
// nvcc's copts become attributes, ptxasopts and host_linkopts are renamed, and attrs (the archs'
// format and ptx) are set.
func (t *target) applyLibrary(attrs *Attrs) {
	r := t.rule
	if len(t.srcs.headers) > 0 {
		moving := map[build.Expr]bool{}
		var hdrs []build.Expr
		for _, h := range t.srcs.headers {
			moving[h] = true
			hdrs = append(hdrs, h)
		}
		var keep []build.Expr
		for _, e := range t.srcs.list.List {
			if !moving[e] {
				keep = append(keep, e)
			}
		}
		t.srcs.list.List = keep
		addAll(r, t.f.pkg, "hdrs", &build.ListExpr{List: hdrs})
	}
	if t.copts.changed {
		if len(t.copts.keep) == 0 {
			r.DelAttr("copts")
		} else {
			t.copts.list.List = t.copts.keep
		}
		if t.copts.fastMath {
			r.SetAttr("fast_math", &build.Ident{Name: "True"})
		}
		if t.copts.ftz {
			r.SetAttr("ftz", &build.Ident{Name: "True"})
		}
		if t.copts.optLevel >= 0 {
			r.SetAttr("opt_level", &build.LiteralExpr{Token: strconv.Itoa(t.copts.optLevel)})
		}
	}
	rename(r, "ptxasopts", "ptxas_opts")
	rename(r, "host_linkopts", "linkopts")
	if attrs != nil {
		if attrs.Format != "" {
			r.SetAttr("format", &build.StringExpr{Value: attrs.Format})
		}
		if attrs.PTX != nil {
			r.SetAttr("ptx", stringList(attrs.PTX...))
		}
	}
}

// replaceStmt removes the statement stmt from the file; comments, if any, stay in its place.
func (f *buildFile) replaceStmt(stmt build.Expr, comments []build.Comment) {
	var out []build.Expr
	for _, s := range f.ast.Stmt {
		switch {
		case s != stmt:
			out = append(out, s)
		case len(comments) > 0:
			out = append(out, &build.CommentBlock{Comments: build.Comments{After: comments}, Start: start(stmt)})
		}
	}
	f.ast.Stmt = out
}

// split makes a cuda_test or cuda_binary two targets: a cuda_library NAME_lib of its sources and
// library attributes, called by libCallee and placed before it, and the test or binary itself,
// called by callee, which depends on it. Attributes of both (tags, compatibility) are copied to
// the library.
func (f *buildFile) split(t *target, libCallee, callee string) {
	libName := t.name + "_lib"
	lib := &build.CallExpr{X: &build.Ident{Name: libCallee}, ForceMultiLine: true}
	lib.List = append(lib.List, assign("name", &build.StringExpr{Value: libName}))
	var rest []build.Expr
	for _, arg := range t.call.List {
		as := arg.(*build.AssignExpr) // analyse refused anything else
		key := as.LHS.(*build.Ident).Name
		switch {
		case libraryKeys[key]:
			lib.List = append(lib.List, as)
		case bothAttrs[key]:
			lib.List = append(lib.List, assign(key, clone(as.RHS)))
			rest = append(rest, as)
		case key == "testonly" && t.kind == cudaTest:
			// A test is test-only anyway; its library is made so below.
		case key == "testonly":
			lib.List = append(lib.List, assign(key, clone(as.RHS)))
			rest = append(rest, as)
		default:
			rest = append(rest, as)
		}
	}
	libRule := &build.Rule{Call: lib}
	if t.kind == cudaTest {
		libRule.SetAttr("testonly", &build.Ident{Name: "True"})
	}
	if libRule.Attr("alwayslink") == nil {
		libRule.SetAttr("alwayslink", &build.Ident{Name: "True"})
	}
	t.call.List = rest
	t.rule.SetAttr("deps", stringList(":"+libName))
	t.rule.SetKind(callee)
	lib.Comments.Before, t.call.Comments.Before = t.call.Comments.Before, nil

	var out []build.Expr
	for _, s := range f.ast.Stmt {
		if s == build.Expr(t.call) {
			out = append(out, lib)
		}
		out = append(out, s)
	}
	f.ast.Stmt = out
	what := map[string]string{cudaTest: "gpu_cc_test", cudaBinary: "cc_binary"}[t.kind]
	t.notes = append(t.notes, Item{File: t.f.rel, Line: t.line, Target: t.label(), What: t.kind,
		Why: fmt.Sprintf("became cuda_library //%s:%s (its sources and library attributes, alwayslink) and %s %s, which depends on it", t.f.pkg, libName, what, t.label())})
}

// addAll adds add (a list, or any expression of one) to the attribute key of r: the elements of a
// list to a list, except those that name what the list names already; else as a concatenation.
func addAll(r *build.Rule, pkg, key string, add build.Expr) {
	if l, ok := add.(*build.ListExpr); ok && len(l.List) == 0 {
		return
	}
	cur := r.Attr(key)
	if cur == nil {
		r.SetAttr(key, add)
		return
	}
	curList, ok1 := cur.(*build.ListExpr)
	addList, ok2 := add.(*build.ListExpr)
	if !ok1 || !ok2 {
		r.SetAttr(key, &build.BinaryExpr{X: cur, Op: "+", Y: add})
		return
	}
	have := map[string]bool{}
	for _, e := range curList.List {
		have[labelOf(pkg, e)] = true
	}
	for _, e := range addList.List {
		if k := labelOf(pkg, e); k == "" || !have[k] {
			curList.List = append(curList.List, e)
			have[k] = true
		}
	}
}

// labelOf is what a string of a list names, to tell repeats apart; "" for what is not a string.
func labelOf(pkg string, e build.Expr) string {
	s, ok := e.(*build.StringExpr)
	if !ok {
		return ""
	}
	if k, ok := resolve(pkg, s.Value); ok {
		return "//" + k.pkg + ":" + k.name
	}
	return s.Value
}

// rename renames the attribute from of r to, keeping its value and comments.
func rename(r *build.Rule, from, to string) {
	if as := r.AttrDefn(from); as != nil {
		pos := start(as.LHS)
		as.LHS = &build.Ident{Name: to, NamePos: pos}
	}
}

func assign(key string, value build.Expr) *build.AssignExpr {
	return &build.AssignExpr{LHS: &build.Ident{Name: key}, Op: "=", RHS: value}
}

func stringList(values ...string) *build.ListExpr {
	l := &build.ListExpr{}
	for _, v := range values {
		l.List = append(l.List, &build.StringExpr{Value: v})
	}
	return l
}

// clone copies an expression, with its comments.
func clone(x build.Expr) build.Expr {
	f, err := build.ParseBuild("clone", []byte("x = "+build.FormatString(x)+"\n"))
	if err != nil || len(f.Stmt) != 1 {
		return x
	}
	return f.Stmt[0].(*build.AssignExpr).RHS
}

// loadNames plans the file's loads: which names of rules_cuda stay loaded, and under which names
// rules_gpu's rules and cc_binary are.
type loadNames struct {
	f      *buildFile
	needed map[string]bool
	// gpuLoad is the file's load of rules_gpu's defs.bzl, if it has one.
	gpuLoad *build.LoadStmt
	// adds are the names to load from rules_gpu's defs.bzl (to) and what they name (from).
	adds   []binding
	ccName string
	addCC  bool
}

type binding struct{ to, from string }

func newLoadNames(f *buildFile, needed map[string]bool) *loadNames {
	ln := &loadNames{f: f, needed: needed}
	for _, stmt := range f.ast.Stmt {
		if l, ok := stmt.(*build.LoadStmt); ok && isRulesGPUDefs(l.Module.Value) && ln.gpuLoad == nil {
			ln.gpuLoad = l
		}
	}
	return ln
}

// taken reports whether the file binds name already, once the names of rules_cuda it no longer
// needs are gone, or is planned to.
func (ln *loadNames) taken(name string) bool {
	for _, stmt := range ln.f.ast.Stmt {
		switch s := stmt.(type) {
		case *build.LoadStmt:
			defs, _ := rulesCudaModule(s.Module.Value)
			for _, to := range s.To {
				if to.Name == name && !(defs && !ln.needed[name]) {
					return true
				}
			}
		case *build.AssignExpr:
			if id, ok := s.LHS.(*build.Ident); ok && id.Name == name {
				return true
			}
		}
	}
	for _, b := range ln.adds {
		if b.to == name {
			return true
		}
	}
	return false
}

// gpu is the name the file calls rules_gpu's rule symbol by: the one its load of rules_gpu binds
// already; else want, if it is planned for symbol or free; else one planned for symbol; else
// gpu_SYMBOL (with a number, if that is taken). With reuse, a name planned for symbol is preferred
// to a free want.
func (ln *loadNames) gpu(symbol, want string, reuse bool) string {
	if ln.gpuLoad != nil {
		for i, from := range ln.gpuLoad.From {
			if from.Name == symbol {
				return ln.gpuLoad.To[i].Name
			}
		}
	}
	planned := ""
	for _, b := range ln.adds {
		if b.from == symbol && b.to == want {
			return want
		}
		if b.from == symbol && planned == "" {
			planned = b.to
		}
	}
	if planned != "" && (reuse || ln.taken(want)) {
		return planned
	}
	name := want
	for i := 1; ln.taken(name); i++ {
		name = "gpu_" + symbol
		if i > 1 {
			name += strconv.Itoa(i)
		}
	}
	ln.adds = append(ln.adds, binding{to: name, from: symbol})
	return name
}

// ccBinary is the name the file calls cc_binary by: the one a load binds, else cc_binary, loaded
// from rules_cc.
func (ln *loadNames) ccBinary() string {
	if ln.ccName != "" {
		return ln.ccName
	}
	for _, stmt := range ln.f.ast.Stmt {
		if l, ok := stmt.(*build.LoadStmt); ok {
			for i, from := range l.From {
				if from.Name == "cc_binary" && (l.To[i].Name == "cc_binary" || l.Module.Value == rulesCCDefs) {
					ln.ccName = l.To[i].Name
					return ln.ccName
				}
			}
		}
	}
	ln.ccName, ln.addCC = "cc_binary", true
	return ln.ccName
}

// apply edits the loads: the rules_cuda loads keep the names still needed (and go when none is),
// rules_gpu's load gets the planned names (the first rules_cuda load becomes it if the file has
// none), and cc_binary is loaded from rules_cc if planned.
func (ln *loadNames) apply() {
	f := ln.f
	var emptied []*build.LoadStmt
	for _, l := range f.defsLoads {
		var from, to []*build.Ident
		for i := range l.To {
			if ln.needed[l.To[i].Name] {
				from, to = append(from, l.From[i]), append(to, l.To[i])
			}
		}
		l.From, l.To = from, to
		if len(to) == 0 {
			emptied = append(emptied, l)
		}
	}
	gpuLoad := ln.gpuLoad
	if gpuLoad == nil && len(ln.adds) > 0 {
		if len(emptied) > 0 {
			gpuLoad, emptied = emptied[0], emptied[1:]
			gpuLoad.Module.Value = rulesGPUDefs
		} else {
			gpuLoad = &build.LoadStmt{Module: &build.StringExpr{Value: rulesGPUDefs}, ForceCompact: true}
			f.insertAfter(f.defsLoads[0], gpuLoad)
		}
	}
	for _, b := range ln.adds {
		gpuLoad.From = append(gpuLoad.From, &build.Ident{Name: b.from})
		gpuLoad.To = append(gpuLoad.To, &build.Ident{Name: b.to})
	}
	for _, l := range emptied {
		f.replaceStmt(l, l.Comments.Before)
	}
	if !ln.addCC {
		return
	}
	for _, stmt := range f.ast.Stmt {
		if l, ok := stmt.(*build.LoadStmt); ok && l.Module.Value == rulesCCDefs {
			l.From = append(l.From, &build.Ident{Name: "cc_binary"})
			l.To = append(l.To, &build.Ident{Name: "cc_binary"})
			return
		}
	}
	cc := &build.LoadStmt{Module: &build.StringExpr{Value: rulesCCDefs}, ForceCompact: true,
		From: []*build.Ident{{Name: "cc_binary"}}, To: []*build.Ident{{Name: "cc_binary"}}}
	if gpuLoad != nil {
		f.insertAfter(gpuLoad, cc)
	} else {
		f.insertAfter(f.defsLoads[0], cc)
	}
}

// insertAfter inserts the statement add after stmt.
func (f *buildFile) insertAfter(stmt, add build.Expr) {
	var out []build.Expr
	for _, s := range f.ast.Stmt {
		out = append(out, s)
		if s == stmt {
			out = append(out, add)
		}
	}
	f.ast.Stmt = out
}
