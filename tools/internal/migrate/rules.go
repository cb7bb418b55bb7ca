package migrate

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/bazelbuild/buildtools/build"
)

// The rules of rules_cuda that Migrate translates.
const (
	cudaLibrary = "cuda_library"
	cudaObjects = "cuda_objects"
	cudaTest    = "cuda_test"
	cudaBinary  = "cuda_binary"
)

// sameSymbols are the symbols of rules_cuda's defs.bzl that rules_gpu's defs.bzl has too, used the
// same way: a file's uses stay, and the name is loaded from rules_gpu.
var sameSymbols = map[string]bool{"requires_cuda": true}

func isRule(symbol string) bool {
	return symbol == cudaLibrary || symbol == cudaObjects || symbol == cudaTest || symbol == cudaBinary
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

var (
	// libraryAttrs are rules_cuda's attributes of the library itself, which rules_gpu's cuda_library
	// has too (ptxasopts under the name ptxas_opts).
	libraryAttrs = set("srcs", "hdrs", "textual_hdrs", "deps", "includes", "defines", "rdc", "alwayslink", "copts", "host_copts", "ptxasopts")
	// commonAttrs are Bazel's attributes of every rule.
	commonAttrs = set("visibility", "testonly", "tags", "features", "compatible_with", "restricted_to", "target_compatible_with",
		"exec_compatible_with", "exec_properties", "deprecation", "licenses", "applicable_licenses", "package_metadata")
	// testAttrs and binaryAttrs are those of cc_test and cc_binary that cuda_test and cuda_binary pass on.
	testAttrs   = set("data", "size", "timeout", "flaky", "shard_count", "local", "args", "env", "env_inherit", "host_linkopts", "linkstatic", "malloc", "stamp")
	binaryAttrs = set("data", "args", "env", "output_licenses", "host_linkopts", "linkstatic", "malloc", "stamp")
	// bothAttrs go both to the library and to the test or binary that a cuda_test or cuda_binary becomes.
	bothAttrs = set("tags", "features", "compatible_with", "restricted_to", "target_compatible_with")
	// libraryKeys are the attributes, as rules_gpu names them, that go to the library of a cuda_test
	// or cuda_binary.
	libraryKeys = set("srcs", "hdrs", "textual_hdrs", "deps", "includes", "defines", "rdc", "alwayslink", "copts", "host_copts", "ptxas_opts",
		"fast_math", "opt_level", "ftz", "format", "ptx")
)

// allowed reports whether a rule of kind takes the attribute key (other than name).
func allowed(kind, key string) bool {
	switch {
	case commonAttrs[key]:
		return true
	case kind == cudaObjects:
		return libraryAttrs[key] && key != "rdc" && key != "alwayslink"
	case libraryAttrs[key]:
		return true
	case kind == cudaLibrary:
		return key == "host_linkopts"
	case kind == cudaTest:
		return testAttrs[key]
	}
	return binaryAttrs[key]
}

// unsupported says why rules_cuda attributes that rules_gpu lacks are not translated, and what to do.
var unsupported = map[string][2]string{
	"local_defines": {"has no rules_gpu equivalent",
		"move them to defines (which also reach the targets that depend on it), or #define them in the sources"},
	"host_defines": {"(defines of the host compile alone) has no rules_gpu equivalent",
		"move them to defines, which reach the device and the host compiles and the targets that depend on it"},
	"host_local_defines": {"(defines of this target's host compile alone) has no rules_gpu equivalent",
		"move them to defines, or #define them in the sources"},
	"linkopts": {"(options of nvcc's device link) has no rules_gpu equivalent: rules_gpu links device code itself",
		"remove it; options of the host link go in host_linkopts, which becomes rules_gpu's linkopts"},
	"implementation_deps": {"has no rules_gpu equivalent", "move them to deps"},
}

// Extensions of the sources rules_cuda takes in srcs that rules_gpu's cuda_library takes in hdrs.
var headerExts = set(".h", ".hh", ".hpp", ".hxx", ".cuh", ".inc", ".inl")

// buildFile is one BUILD file, parsed, and what Migrate makes of it.
type buildFile struct {
	rel, pkg string
	orig     []byte
	ast      *build.File
	// defsLoads are the file's loads of rules_cuda's cuda/defs.bzl; cuda maps each name they bind
	// to the symbol it loads.
	defsLoads []*build.LoadStmt
	cuda      map[string]string
	// names are the names of the file's rules that are string literals.
	names   map[string]bool
	targets []*target
	// calls maps each target's callee to it.
	calls map[*build.Ident]*target
	// items are what the file holds of rules_cuda that is no target: other loads, calls inside
	// expressions, other rules, uses of the rules as values.
	items []Item
	// notes are what was done to the file outside its targets: labels of the toolkit rewritten.
	notes []Item
}

// target is one rules_cuda target of a BUILD file.
type target struct {
	f    *buildFile
	call *build.CallExpr
	rule *build.Rule
	kind string // the rules_cuda rule it calls: cuda_library, cuda_objects, cuda_test or cuda_binary
	name string
	line int
	// problems say why it is not translated; notes, what its translation drops or moves.
	problems, notes []Item
	srcs            srcsPlan
	copts           coptsPlan
}

func (t *target) label() string { return "//" + t.f.pkg + ":" + t.name }

func (t *target) ok() bool { return len(t.problems) == 0 }

// problem lists what of the target does not translate, at the target's line.
func (t *target) problem(what, why, fix string) { t.problemAt(nil, what, why, fix) }

// problemAt lists what of the target does not translate, at the line of x (an attribute, a source).
func (t *target) problemAt(x build.Expr, what, why, fix string) {
	t.problems = append(t.problems, Item{File: t.f.rel, Line: t.lineOf(x), Target: t.label(), What: what, Why: why, Fix: fix})
}

// noteAt notes what the target's translation drops or moves, at the line of x.
func (t *target) noteAt(x build.Expr, what, why string) {
	t.notes = append(t.notes, Item{File: t.f.rel, Line: t.lineOf(x), Target: t.label(), What: what, Why: why})
}

// lineOf is the line x starts on, or the target's when x is nil or new.
func (t *target) lineOf(x build.Expr) int {
	if x != nil {
		if line := start(x).Line; line > 0 {
			return line
		}
	}
	return t.line
}

// attr is the definition of the target's attribute key (nil if none), where items about it point.
func (t *target) attr(key string) build.Expr {
	if as := t.rule.AttrDefn(key); as != nil {
		return as
	}
	return nil
}

// isTrue reports whether the attribute is set to the literal True (or 1).
func (t *target) isTrue(key string) bool {
	switch x := t.rule.Attr(key).(type) {
	case *build.Ident:
		return x.Name == "True"
	case *build.LiteralExpr:
		return x.Token == "1" // Bazel takes 1 for True (rules_cuda's examples write rdc = 1)
	}
	return false
}

// parseBuildFile reads a BUILD file and finds its rules_cuda loads, targets and other uses.
func parseBuildFile(r *repository, pkg string) (*buildFile, error) {
	rel := r.builds[pkg]
	data, err := r.read(rel)
	if err != nil {
		return nil, err
	}
	ast, err := build.ParseBuild(rel, data) // a build.ParseError reads FILE:LINE:COL: message
	if err != nil {
		return nil, err
	}
	f := &buildFile{rel: rel, pkg: pkg, orig: data, ast: ast, cuda: map[string]string{}, names: map[string]bool{},
		calls: map[*build.Ident]*target{}}
	f.scan()
	return f, nil
}

func (f *buildFile) item(line int, what, why, fix string) {
	f.items = append(f.items, Item{File: f.rel, Line: line, What: what, Why: why, Fix: fix})
}

// scan finds the file's loads of rules_cuda, its targets and its other uses of rules_cuda's names.
func (f *buildFile) scan() {
	for _, stmt := range f.ast.Stmt {
		switch s := stmt.(type) {
		case *build.LoadStmt:
			defs, ok := rulesCudaModule(s.Module.Value)
			if !ok {
				continue
			}
			if !defs {
				f.item(s.Load.Line, fmt.Sprintf("load(%q, ...)", s.Module.Value), "has no rules_gpu equivalent",
					"translate what uses it by hand; rules_gpu's rules are loaded from @rules_gpu//rules:defs.bzl")
				continue
			}
			f.defsLoads = append(f.defsLoads, s)
			for i, to := range s.To {
				f.cuda[to.Name] = s.From[i].Name
			}
		case *build.CallExpr:
			if name := stringArg(s, "name"); name != "" {
				f.names[name] = true
			}
		}
	}
	for _, stmt := range f.ast.Stmt {
		call, ok := stmt.(*build.CallExpr)
		if !ok {
			continue
		}
		id, ok := call.X.(*build.Ident)
		if !ok || !isRule(f.cuda[id.Name]) {
			continue
		}
		name, ok := (&build.Rule{Call: call}).Attr("name").(*build.StringExpr)
		if !ok || name.Value == "" {
			continue // reported below
		}
		t := &target{f: f, call: call, rule: &build.Rule{Call: call}, kind: f.cuda[id.Name], name: name.Value, line: start(call).Line}
		f.targets = append(f.targets, t)
		f.calls[id] = t
		t.analyse()
	}
	for _, stmt := range f.ast.Stmt {
		if _, ok := stmt.(*build.LoadStmt); ok {
			continue
		}
		build.Walk(stmt, func(x build.Expr, stk []build.Expr) {
			id, ok := x.(*build.Ident)
			if !ok || f.cuda[id.Name] == "" || f.calls[id] != nil || isKeyword(id, stk) {
				return
			}
			symbol := f.cuda[id.Name]
			if sameSymbols[symbol] {
				return // loaded from rules_gpu's defs instead (apply)
			}
			what := fmt.Sprintf("%s (rules_cuda's %s)", id.Name, symbol)
			if id.Name == symbol {
				what = "rules_cuda's " + symbol
			}
			call, isCall := parent(stk).(*build.CallExpr)
			switch {
			case isCall && call.X == x && len(stk) == 1 && isRule(symbol):
				f.item(id.NamePos.Line, "call of "+what, "has no literal name: it cannot be translated statically", "write its name out as a string")
			case isCall && call.X == x && len(stk) == 1:
				f.item(id.NamePos.Line, "call of "+what, "has no rules_gpu equivalent",
					"remove it; rules_gpu's chips are --@rules_gpu//gpu:chips or a target's chips, its toolchains are set up in MODULE.bazel (docs/toolchains.md)")
			case isCall && call.X == x:
				f.item(id.NamePos.Line, "call of "+what, "inside an expression (a list comprehension, a function's argument) cannot be translated statically",
					"write the targets out, or translate them by hand")
			default:
				f.item(id.NamePos.Line, what, "is used as a value: it cannot be translated statically", "translate it by hand")
			}
		})
	}
}

// parent is the innermost expression of a Walk stack, nil if none.
func parent(stk []build.Expr) build.Expr {
	if len(stk) == 0 {
		return nil
	}
	return stk[len(stk)-1]
}

// isKeyword reports whether id is the name of a keyword argument of a call (f(cuda_library = 1)).
func isKeyword(id *build.Ident, stk []build.Expr) bool {
	as, ok := parent(stk).(*build.AssignExpr)
	return ok && as.LHS == id && len(stk) >= 2
}

// analyse finds what of the target translates, and what does not.
func (t *target) analyse() {
	for _, arg := range t.call.List {
		as, ok := arg.(*build.AssignExpr)
		key := ""
		if ok && as.Op == "=" {
			if id, isIdent := as.LHS.(*build.Ident); isIdent {
				key = id.Name
			}
		}
		switch {
		case key == "":
			t.problemAt(arg, "argument "+source(arg), "is not an attribute: the call cannot be read statically", "write its attributes out as name = value")
		case key == "name":
		case allowed(t.kind, key):
		case unsupported[key] != [2]string{}:
			t.problemAt(arg, "attribute "+key, unsupported[key][0], unsupported[key][1])
		default:
			t.problemAt(arg, "attribute "+key, "has no rules_gpu equivalent", "remove it, or translate the target by hand")
		}
	}
	t.analyseSrcs()
	t.analyseCopts()
	if t.kind == cudaTest || t.kind == cudaBinary {
		if lib := t.name + "_lib"; t.f.names[lib] {
			t.problem("name", fmt.Sprintf("leaves no name for its library: the package has a target named %s already", lib),
				fmt.Sprintf("rename that target, or translate the %s by hand", t.kind))
		}
	}
}

// srcsPlan is what becomes of a target's srcs: the headers move to hdrs.
type srcsPlan struct {
	list    *build.ListExpr // srcs, when it is a list
	headers []*build.StringExpr
	// hasCU says whether srcs has a CUDA C++ source, or a rule's output that may be one.
	hasCU bool
	// unread says that srcs could not be read statically (and is listed).
	unread bool
}

// analyseSrcs sorts the sources: .cu (or a rule's output) stays, headers move to hdrs, anything else
// is not translated. srcs may be a list of strings or a glob of .cu files.
func (t *target) analyseSrcs() {
	x := t.rule.Attr("srcs")
	switch v := x.(type) {
	case nil:
	case *build.ListExpr:
		t.srcs.list = v
		for _, e := range v.List {
			s, ok := e.(*build.StringExpr)
			if !ok {
				t.problemAt(e, "srcs", fmt.Sprintf("holds %s, not a string: its files cannot be read statically", source(e)),
					"write the sources out, or translate the target by hand")
				t.srcs.unread = true
				continue
			}
			switch sourceKind(s.Value) {
			case "cu", "rule":
				t.srcs.hasCU = true
			case "header":
				t.srcs.headers = append(t.srcs.headers, s)
			default:
				t.problemAt(s, "source "+s.Value, "is not CUDA C++ (.cu): rules_gpu's cuda_library compiles .cu sources, and takes headers in hdrs",
					"move it to a cc_library that the target depends on, or rename it .cu if it is CUDA C++")
			}
		}
	case *build.CallExpr:
		if !isCUGlob(v) {
			t.problemAt(t.attr("srcs"), "srcs", fmt.Sprintf("is %s, which may give other files than .cu sources: they cannot be sorted statically", source(v)),
				"list the .cu sources in srcs (glob([\"*.cu\"]) is kept as it is) and the headers in hdrs")
			t.srcs.unread = true
			return
		}
		t.srcs.hasCU = true
	default:
		t.problemAt(t.attr("srcs"), "srcs", fmt.Sprintf("is %s, not a list of strings: which of its files are CUDA C++ and which headers cannot be read statically", source(x)),
			"write the sources out, or translate the target by hand")
		t.srcs.unread = true
	}
	if len(t.srcs.headers) > 0 {
		var hs []string
		for _, h := range t.srcs.headers {
			hs = append(hs, h.Value)
		}
		t.noteAt(t.srcs.headers[0], "srcs "+strings.Join(hs, ", "), "moved to hdrs: rules_gpu's srcs are the sources it compiles")
	}
}

// sourceKind says what a source of srcs is: "cu", "header", "rule" (a label without extension, a
// rule's output that may be a .cu file) or "other".
func sourceKind(label string) string {
	name := label
	if i := strings.LastIndex(label, ":"); i >= 0 {
		name = label[i+1:]
	}
	switch ext := path.Ext(path.Base(name)); {
	case ext == ".cu":
		return "cu"
	case headerExts[ext]:
		return "header"
	case ext == "":
		return "rule"
	}
	return "other"
}

// isCUGlob reports whether x is glob([...]) of patterns that all end in .cu (with, maybe, exclude and
// allow_empty).
func isCUGlob(c *build.CallExpr) bool {
	if calleeName(c) != "glob" {
		return false
	}
	includes := 0
	for _, arg := range c.List {
		var list build.Expr = arg
		if as, ok := arg.(*build.AssignExpr); ok {
			switch key, _ := as.LHS.(*build.Ident); {
			case key != nil && key.Name == "include":
				list = as.RHS
			case key != nil && (key.Name == "exclude" || key.Name == "allow_empty" || key.Name == "exclude_directories"):
				continue
			default:
				return false
			}
		}
		patterns := build.Strings(list)
		if len(patterns) == 0 {
			return false
		}
		for _, p := range patterns {
			if !strings.HasSuffix(p, ".cu") {
				return false
			}
		}
		includes++
	}
	return includes == 1
}

// coptsPlan is what becomes of a target's copts.
type coptsPlan struct {
	list          *build.ListExpr
	keep          []build.Expr
	fastMath, ftz bool
	optLevel      int // -1: none
	changed       bool
}

var optRE = regexp.MustCompile(`^-O([0-3])$`)

// dropped are nvcc options that clang needs no equivalent of.
var dropped = map[string]string{
	"--expt-relaxed-constexpr": "dropped: clang calls constexpr host functions from device code without it",
	"-expt-relaxed-constexpr":  "dropped: clang calls constexpr host functions from device code without it",
	"--expt-extended-lambda":   "dropped: clang compiles __device__ lambdas without it",
	"-expt-extended-lambda":    "dropped: clang compiles __device__ lambdas without it",
	"--extended-lambda":        "dropped: clang compiles __device__ lambdas without it",
	"-extended-lambda":         "dropped: clang compiles __device__ lambdas without it",
	"-ftz=false":               "dropped: it is the default (ftz = False)",
	"--ftz=false":              "dropped: it is the default (ftz = False)",
}

// nvccOnly are nvcc options (the name before any '=') that clang does not take, with what to do
// instead; "" for the generic advice.
var nvccOnly = map[string]string{
	"-arch": "remove it: the chips are --@rules_gpu//gpu:chips, or the target's chips", "--gpu-architecture": "",
	"-gencode": "", "--generate-code": "", "-code": "", "--gpu-code": "",
	"-rdc": "use rdc = True", "--relocatable-device-code": "use rdc = True", "-dc": "use rdc = True", "--device-c": "use rdc = True",
	"-maxrregcount": "pass it to ptxas: ptxas_opts = [\"--maxrregcount=N\"]", "--maxrregcount": "pass it to ptxas: ptxas_opts = [\"--maxrregcount=N\"]",
	"-Xptxas": "put the ptxas options in ptxas_opts", "--ptxas-options": "put the ptxas options in ptxas_opts",
	"-Xcompiler": "put the host compiler's options in host_copts", "--compiler-options": "put the host compiler's options in host_copts",
	"-Xnvlink": "remove it: rules_gpu links device code itself", "--nvlink-options": "remove it: rules_gpu links device code itself",
	"-lineinfo": "", "--generate-line-info": "", "-G": "", "--device-debug": "",
	"-dw": "", "-dlink": "", "-dlto": "", "-lto": "", "-prec-div": "", "-prec-sqrt": "", "-fmad": "", "-ftz": "",
	"-keep": "", "-keep-dir": "", "-res-usage": "", "-ccbin": "", "-default-stream": "", "-restrict": "",
	"-split-compile": "", "-t": "", "-threads": "", "-diag-suppress": "", "-Wno-deprecated-gpu-targets": "",
	"-src-in-ptx": "", "-extra-device-vectorization": "", "-cudart": "", "-cudadevrt": "", "-allow-unsupported-compiler": "",
}

func init() {
	for _, flag := range []string{"--gpu-architecture", "-gencode", "--generate-code", "-code", "--gpu-code"} {
		nvccOnly[flag] = nvccOnly["-arch"]
	}
}

// analyseCopts sorts copts: nvcc's options with a rules_gpu attribute become it, those clang does not
// need are dropped, other nvcc options are not translated, and the rest stays for clang.
func (t *target) analyseCopts() {
	t.copts.optLevel = -1
	x := t.rule.Attr("copts")
	if x == nil {
		return
	}
	list, ok := x.(*build.ListExpr)
	if !ok {
		t.problemAt(t.attr("copts"), "copts", fmt.Sprintf("is %s, not a list of strings: the nvcc options in it cannot be found statically", source(x)),
			"write the options out, or translate the target by hand")
		return
	}
	t.copts.list = list
	for _, e := range list.List {
		s, ok := e.(*build.StringExpr)
		if !ok {
			t.problemAt(e, "copts", fmt.Sprintf("holds %s, not a string: the nvcc options in it cannot be found statically", source(e)),
				"write the options out, or translate the target by hand")
			continue
		}
		v := s.Value
		flag, _, _ := strings.Cut(v, "=")
		fix, nvcc := nvccOnly[flag]
		switch m := optRE.FindStringSubmatch(v); {
		case v == "--use_fast_math" || v == "-use_fast_math":
			t.copts.fastMath = true
		case v == "-ftz=true" || v == "--ftz=true":
			t.copts.ftz = true
		case m != nil:
			t.copts.optLevel, _ = strconv.Atoi(m[1])
		case dropped[v] != "":
			t.noteAt(s, "copt "+v, dropped[v])
		case nvcc || strings.HasPrefix(v, "-X") || strings.HasPrefix(v, "--"):
			if fix == "" {
				fix = "remove it, or write clang's equivalent (https://llvm.org/docs/CompileCudaWithLLVM.html)"
			}
			t.problemAt(s, "copt "+v, "is an option of nvcc, which clang does not take", fix)
			continue
		default:
			t.copts.keep = append(t.copts.keep, e)
			continue
		}
		t.copts.changed = true
	}
}

// labelKey is a target of the repository: its package and name.
type labelKey struct{ pkg, name string }

// resolve reads label, as a BUILD file of package pkg writes it, as a target of the repository;
// false for a label of another repository or one it cannot read.
func resolve(pkg, label string) (labelKey, bool) {
	if strings.HasPrefix(label, "@") {
		repo, rest, ok := strings.Cut(label, "//")
		if !ok || (repo != "@" && repo != "@@") {
			return labelKey{}, false
		}
		label = "//" + rest
	}
	if rest, ok := strings.CutPrefix(label, "//"); ok {
		p, name, hasName := strings.Cut(rest, ":")
		if !hasName {
			name = path.Base(p)
		}
		return labelKey{p, name}, name != "" && name != "."
	}
	if name, ok := strings.CutPrefix(label, ":"); ok {
		return labelKey{pkg, name}, name != ""
	}
	if strings.Contains(label, ":") || label == "" {
		return labelKey{}, false
	}
	return labelKey{pkg, label}, true
}

// ref is one string of a BUILD file that names a target of the repository.
type ref struct {
	f    *buildFile
	stmt build.Expr // the top-level statement that holds it
	key  string     // the attribute (or variable) it is in
	str  *build.StringExpr
	// list is the list literal it is directly in, when that is the attribute's value.
	list *build.ListExpr
}

// refs lists, for every target of the repository, the strings of the BUILD files that may name it
// (any string that reads as its label, wherever it is: a dependency, a data file, an alias), except
// the names of the targets themselves.
func refs(files []*buildFile) map[labelKey][]ref {
	idx := map[labelKey][]ref{}
	for _, f := range files {
		for _, stmt := range f.ast.Stmt {
			if _, ok := stmt.(*build.LoadStmt); ok {
				continue
			}
			build.Walk(stmt, func(x build.Expr, stk []build.Expr) {
				s, ok := x.(*build.StringExpr)
				if !ok {
					return
				}
				r := ref{f: f, stmt: stmt, str: s}
				for _, e := range stk {
					if as, ok := e.(*build.AssignExpr); ok {
						if id, ok := as.LHS.(*build.Ident); ok {
							r.key = id.Name
						}
						break
					}
				}
				if as, ok := parent(stk).(*build.AssignExpr); ok && as.RHS == x && r.key == "name" {
					return
				}
				if len(stk) >= 2 {
					l, isList := stk[len(stk)-1].(*build.ListExpr)
					as, isAssign := stk[len(stk)-2].(*build.AssignExpr)
					if isList && isAssign && as.RHS == l {
						r.list = l
					}
				}
				if k, ok := resolve(f.pkg, s.Value); ok {
					idx[k] = append(idx[k], r)
				}
			})
		}
	}
	return idx
}

// plan decides, over all the repository's targets, which translate: a target that depends on a
// cuda_objects that does not translate is not translated either; an rdc target that depends on
// another rdc cuda_library is not translated; a library must compile a .cu source.
func plan(files []*buildFile) {
	idx := refs(files)
	byLabel := map[labelKey]*target{}
	byStmt := map[build.Expr]*target{}
	var all []*target
	for _, f := range files {
		for _, t := range f.targets {
			byLabel[labelKey{f.pkg, t.name}] = t
			byStmt[t.call] = t
			all = append(all, t)
		}
	}
	// linksObjects says whether t's deps name a cuda_objects of the repository, which a
	// cuda_library without sources of its own links (rules_cuda's rdc form).
	linksObjects := func(t *target) bool {
		deps, _ := t.rule.Attr("deps").(*build.ListExpr)
		if deps == nil {
			return false
		}
		for _, e := range deps.List {
			if k, ok := resolve(t.f.pkg, stringValue(e)); ok && byLabel[k] != nil && byLabel[k].kind == cudaObjects {
				return true
			}
		}
		return false
	}
	for _, t := range all {
		if !t.srcs.hasCU && !t.srcs.unread && !(t.kind == cudaLibrary && linksObjects(t)) {
			t.problemAt(t.attr("srcs"), "srcs", "holds no .cu source, and rules_gpu's "+t.kind+" compiles at least one",
				"make a target of headers alone a cc_library")
		}
		if !t.isTrue("rdc") {
			continue
		}
		deps, _ := t.rule.Attr("deps").(*build.ListExpr)
		if deps == nil {
			continue
		}
		for _, e := range deps.List {
			dep := stringValue(e)
			k, ok := resolve(t.f.pkg, dep)
			if d := byLabel[k]; ok && dep != "" && d != nil && d != t && d.kind == cudaLibrary && d.isTrue("rdc") {
				t.problemAt(e, "dep "+dep, "is an rdc cuda_library too: rules_cuda links their device code together, rules_gpu links each cuda_library's own",
					fmt.Sprintf("if the device code of %s calls that of %s, make them one rdc cuda_library, or make %s a cuda_objects; if not, translate the two by hand", t.label(), d.label(), d.label()))
				d.problemAt(d.attr("rdc"), "rdc", fmt.Sprintf("code is device-linked by rules_cuda with %s's, an rdc cuda_library that depends on it (listed here)", t.label()),
					"translate the two together, by hand")
			}
		}
	}
	// A target that depends on a cuda_objects that stays rules_cuda's would lose its objects:
	// rules_gpu's rules link only rules_gpu's.
	for changed := true; changed; {
		changed = false
		for _, x := range all {
			if x.kind != cudaObjects || x.ok() {
				continue
			}
			for _, r := range idx[labelKey{x.f.pkg, x.name}] {
				if u := byStmt[r.stmt]; u != nil && u != x && u.ok() {
					u.problemAt(r.str, "dep "+r.str.Value, "is a cuda_objects that is not translated (listed here): without it the target would lose its objects",
						"translate "+x.label()+" first")
					changed = true
				}
			}
		}
	}
}

// sortedPackages are the repository's packages in order.
func sortedPackages(r *repository) []string {
	pkgs := make([]string, 0, len(r.builds))
	for pkg := range r.builds {
		pkgs = append(pkgs, pkg)
	}
	slices.Sort(pkgs)
	return pkgs
}
