// Package buildfile has one job: find and edit the gpu_module (and cuda_library, gpu_binary, gpu_test) targets in the BUILD
// files of a Bazel repository. It reads BUILD files with github.com/bazelbuild/buildtools' parser and writes them back
// with its printer (build.Format, what buildifier writes), so comments and formatting survive an edit.
//
// Open reads the layout of a repository; Repo.Find lists the gpu_module targets that Bazel target
// patterns (//..., //pkg/..., //pkg:all, //pkg:name) select; Repo.Set, Repo.Add and Repo.Remove edit
// their chips, Repo.Retarget replaces the chips a CUDA toolkit cannot compile with what the chip model
// (tools/chip) says to build instead; Repo.Write writes the edited files back. Edits are made in
// memory and checked for every selected target before any is applied, so a refused edit changes
// nothing.
//
// A call is a gpu_module target when it calls the name that gpu_module was loaded under from a
// "//rules:defs.bzl" of any repository (load("@rules_gpu//rules:defs.bzl", gpu = "gpu_module") makes
// gpu(...) one), or the name gpu_module itself unless a load binds it to something else; the same
// for cuda_library (and rules_cuda's cuda_binary and cuda_test over it), gpu_binary and gpu_test,
// whose chips mean the same.
package buildfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bazelbuild/buildtools/build"
)

// Target is one gpu_module target, as its BUILD file declares it.
type Target struct {
	// Label is the target's label: //pkg:name.
	Label string `json:"label"`
	// File is the BUILD file, relative to the repository root, with forward slashes; Line is the line
	// where the call starts in it, as it was read.
	File string `json:"file"`
	Line int    `json:"line"`
	// Kind is the name the file calls the rule by: gpu_module, or the alias it was loaded under.
	Kind string `json:"kind"`
	// Chips is the chips attribute; nil when it is not set, so that the build uses its default
	// (--@rules_gpu//gpu:chips), or when it is not a list of strings (see ChipsExpr).
	Chips []string `json:"chips"`
	// ChipsExpr is the Starlark source of a chips attribute that is not a list of strings, such as
	// select(...) or a variable; "" otherwise. Such chips are listed but not edited.
	ChipsExpr string `json:"chips_expr,omitempty"`
	// Format is the format attribute, "fatbin" when it is not set; "" when it is not a string (see
	// FormatExpr).
	Format     string `json:"format"`
	FormatExpr string `json:"format_expr,omitempty"`
	// RunsOn is the runs_on attribute; nil when it is not set (the build uses
	// --@rules_gpu//gpu:runners) or not a list of strings (see RunsOnExpr).
	RunsOn     []string `json:"runs_on"`
	RunsOnExpr string   `json:"runs_on_expr,omitempty"`
}

// DefaultFormat is what gpu_module builds when format is not set.
const DefaultFormat = "fatbin"

// Where is the target's place in its BUILD file, file:line.
func (t Target) Where() string { return fmt.Sprintf("%s:%d", t.File, t.Line) }

// Skipped is a gpu_module call that Find cannot list as a target, and so no edit touches: one in a
// list comprehension, or one whose name is not a string literal.
type Skipped struct {
	File string `json:"file"`
	Line int    `json:"line"`
	// Why says what the call is: "gpu_module call in a list comprehension".
	Why string `json:"why"`
}

func (s Skipped) String() string {
	return fmt.Sprintf("%s:%d: %s: not listed or edited (edit it by hand)", s.File, s.Line, s.Why)
}

// Repo is one Bazel repository: where its BUILD files are, the ones read so far, and the edits made
// to them in memory. It is not safe for concurrent use.
type Repo struct {
	root  string
	pkgs  map[string]string // package ("" for the root package) -> its BUILD file, relative to root
	files map[string]*file  // package -> its BUILD file, once read
}

// file is one BUILD file, parsed.
type file struct {
	rel     string // the path relative to the repository root, with forward slashes
	pkg     string
	orig    []byte // the bytes on disk
	ast     *build.File
	targets []*call
	rules   map[string]string // the name of every top-level rule call with a literal name -> its kind
	skipped []Skipped
	edited  bool
}

// call is one gpu_module target in a file.
type call struct {
	name string
	kind string
	rule *build.Rule
}

// rootMarkers are the files that make a directory the root of a Bazel repository.
var rootMarkers = []string{"MODULE.bazel", "REPO.bazel", "WORKSPACE", "WORKSPACE.bazel"}

// Layout is what Bazel reads of a repository: its packages' BUILD files and its .bzl files.
type Layout struct {
	// Builds maps each package ("" for the root) to its BUILD file (BUILD.bazel, or BUILD when it
	// has none), relative to the root, with forward slashes.
	Builds map[string]string
	// Bzls lists the .bzl files, relative to the root, with forward slashes, sorted.
	Bzls []string
}

// ReadLayout walks the repository whose root is root: the directory that holds its MODULE.bazel,
// REPO.bazel or WORKSPACE file. It skips .git, the bazel-* output links, the directories
// .bazelignore names, and directories that hold a MODULE.bazel, WORKSPACE or REPO.bazel of their own
// (other repositories). gpubuild chips (Open) and gpubuild migrate both read a repository so.
func ReadLayout(root string) (Layout, error) {
	info, err := os.Stat(root)
	if err != nil {
		return Layout{}, fmt.Errorf("repository: %w", err)
	}
	if !info.IsDir() {
		return Layout{}, fmt.Errorf("repository %s is not a directory", root)
	}
	if !IsRepoRoot(root) {
		msg := fmt.Sprintf("%s is not the root of a Bazel repository: it holds no %s", root, strings.Join(rootMarkers, ", "))
		if outer, err := FindRoot(filepath.Dir(root)); err == nil && filepath.Dir(root) != root {
			msg += "; the repository around it is " + outer
		}
		return Layout{}, errors.New(msg)
	}
	ignored, err := readBazelignore(root)
	if err != nil {
		return Layout{}, err
	}
	l := Layout{Builds: map[string]string{}}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !d.IsDir() {
			if strings.HasSuffix(rel, ".bzl") && d.Type().IsRegular() {
				l.Bzls = append(l.Bzls, rel)
			}
			return nil // symbolic links to directories are not followed (bazel-bin, bazel-out, ...)
		}
		if rel != "." {
			name := d.Name()
			if name == ".git" || strings.HasPrefix(name, "bazel-") || ignored[rel] || IsRepoRoot(p) {
				return fs.SkipDir
			}
		}
		pkg := rel
		if pkg == "." {
			pkg = ""
		}
		// Bazel reads BUILD.bazel when a directory holds both.
		for _, name := range []string{"BUILD.bazel", "BUILD"} {
			if IsFile(filepath.Join(p, name)) {
				l.Builds[pkg] = path.Join(pkg, name)
				break
			}
		}
		return nil
	})
	if err != nil {
		return Layout{}, fmt.Errorf("reading repository %s: %w", root, err)
	}
	slices.Sort(l.Bzls)
	return l, nil
}

// Open reads the layout of the repository whose root is root (ReadLayout). BUILD files are parsed
// when Find or an edit first needs them.
func Open(root string) (*Repo, error) {
	l, err := ReadLayout(root)
	if err != nil {
		return nil, err
	}
	return &Repo{root: root, pkgs: l.Builds, files: map[string]*file{}}, nil
}

// Root is the repository's root directory, as Open was given it.
func (r *Repo) Root() string { return r.root }

// FindRoot returns the root of the repository that dir is in: the nearest directory at or above dir
// that holds a MODULE.bazel, REPO.bazel, WORKSPACE or WORKSPACE.bazel file.
func FindRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if IsRepoRoot(d) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s is not inside a Bazel repository: no %s at or above it", dir, strings.Join(rootMarkers, ", "))
		}
	}
}

// IsRepoRoot reports whether dir is the root of a Bazel repository (it holds a MODULE.bazel,
// REPO.bazel, WORKSPACE or WORKSPACE.bazel file).
func IsRepoRoot(dir string) bool {
	for _, m := range rootMarkers {
		if IsFile(filepath.Join(dir, m)) {
			return true
		}
	}
	return false
}

// IsFile reports whether p is a regular file, or a link to one.
func IsFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

// readBazelignore reads the directories that root/.bazelignore keeps Bazel out of.
func readBazelignore(root string) (map[string]bool, error) {
	data, err := os.ReadFile(filepath.Join(root, ".bazelignore"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ignored := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ignored[path.Clean(filepath.ToSlash(line))] = true
	}
	return ignored, sc.Err()
}

// load reads and parses the BUILD file of pkg, once.
func (r *Repo) load(pkg string) (*file, error) {
	if f, ok := r.files[pkg]; ok {
		return f, nil
	}
	rel, ok := r.pkgs[pkg]
	if !ok {
		return nil, fmt.Errorf("no package //%s", pkg)
	}
	data, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	ast, err := build.ParseBuild(rel, data) // a build.ParseError reads FILE:LINE:COL: message
	if err != nil {
		return nil, err
	}
	f := &file{rel: rel, pkg: pkg, orig: data, ast: ast, rules: map[string]string{}}
	f.scan()
	r.files[pkg] = f
	return f, nil
}

// scan finds the file's gpu_module targets, the calls it cannot list, and the names of all its rules.
func (f *file) scan() {
	kinds := gpuModuleNames(f.ast)
	for _, stmt := range f.ast.Stmt {
		if c, ok := stmt.(*build.CallExpr); ok {
			if kind := calleeName(c); kind != "" {
				if name := (&build.Rule{Call: c}).AttrString("name"); name != "" {
					f.rules[name] = kind
				}
			}
		}
		build.Walk(stmt, func(x build.Expr, stk []build.Expr) {
			c, ok := x.(*build.CallExpr)
			if !ok || !kinds[calleeName(c)] {
				return
			}
			kind := calleeName(c)
			line := start(c).Line
			if x != stmt {
				why := fmt.Sprintf("%s call inside an expression", kind)
				for _, s := range stk {
					if _, ok := s.(*build.Comprehension); ok {
						why = fmt.Sprintf("%s call in a list comprehension", kind)
						break
					}
				}
				f.skipped = append(f.skipped, Skipped{File: f.rel, Line: line, Why: why})
				return
			}
			rule := &build.Rule{Call: c}
			switch name := rule.Attr("name"); n := name.(type) {
			case *build.StringExpr:
				f.targets = append(f.targets, &call{name: n.Value, kind: kind, rule: rule})
			case nil:
				f.skipped = append(f.skipped, Skipped{File: f.rel, Line: line, Why: fmt.Sprintf("%s call without a name", kind)})
			default:
				f.skipped = append(f.skipped, Skipped{File: f.rel, Line: line,
					Why: fmt.Sprintf("%s call whose name is computed (%s)", kind, source(name))})
			}
		})
	}
}

// chipRules are the rules (and macros) of rules_gpu that have chips: gpu_module, cuda_library (and
// rules_cuda's cuda_binary and cuda_test, macros over it), and the MLIR programs' gpu_binary and
// gpu_test.
var chipRules = []string{"gpu_module", "cuda_library", "cuda_binary", "cuda_test", "gpu_binary", "gpu_test"}

// gpuModuleNames are the names under which the file calls a rule of chipRules.
func gpuModuleNames(f *build.File) map[string]bool {
	names := map[string]bool{}
	literal := map[string]bool{}
	for _, r := range chipRules {
		literal[r] = true
	}
	for _, stmt := range f.Stmt {
		l, ok := stmt.(*build.LoadStmt)
		if !ok {
			continue
		}
		defs := isDefsBzl(l.Module.Value)
		for i, from := range l.From {
			to := l.To[i].Name
			if defs && slices.Contains(chipRules, from.Name) {
				names[to] = true
			} else if slices.Contains(chipRules, to) && from.Name != to {
				literal[to] = false // load(":x.bzl", gpu_module = "something_else")
			}
		}
	}
	for r, ok := range literal {
		if ok {
			names[r] = true
		}
	}
	return names
}

// isDefsBzl reports whether a load's module is rules_gpu's rules/defs.bzl: "[@repo]//rules:defs.bzl".
func isDefsBzl(module string) bool {
	repo, rest, ok := strings.Cut(module, "//")
	return ok && (repo == "" || strings.HasPrefix(repo, "@")) && rest == "rules:defs.bzl"
}

// start is where a call starts in the file as it was read (where its callee's name starts).
func start(c *build.CallExpr) build.Position {
	pos, _ := c.Span()
	return pos
}

// calleeName is the name a call calls, "" unless it is a plain identifier.
func calleeName(c *build.CallExpr) string {
	if id, ok := c.X.(*build.Ident); ok {
		return id.Name
	}
	return ""
}

// target describes c as it now stands in f.
func (f *file) target(c *call) Target {
	t := Target{
		Label:  label(f.pkg, c.name),
		File:   f.rel,
		Line:   start(c.rule.Call).Line,
		Kind:   c.kind,
		Format: DefaultFormat,
	}
	t.Chips, t.ChipsExpr = stringList(c.rule.Attr("chips"))
	t.RunsOn, t.RunsOnExpr = stringList(c.rule.Attr("runs_on"))
	switch v := c.rule.Attr("format").(type) {
	case nil:
	case *build.StringExpr:
		t.Format = v.Value
	default:
		t.Format, t.FormatExpr = "", source(v)
	}
	return t
}

// stringList reads a list of string literals; for anything else it returns the expression's source.
// An absent attribute gives nil and "".
func stringList(x build.Expr) ([]string, string) {
	if x == nil {
		return nil, ""
	}
	l, ok := x.(*build.ListExpr)
	if !ok {
		return nil, source(x)
	}
	out := make([]string, 0, len(l.List))
	for _, e := range l.List {
		s, ok := e.(*build.StringExpr)
		if !ok {
			return nil, source(x)
		}
		out = append(out, s.Value)
	}
	return out, ""
}

// source is the Starlark source of x on one line.
func source(x build.Expr) string {
	s := strings.Join(strings.Fields(build.FormatString(x)), " ")
	return strings.NewReplacer("( ", "(", "[ ", "[", "{ ", "{", ", )", ")", ", ]", "]", ", }", "}").Replace(s)
}

func label(pkg, name string) string { return "//" + pkg + ":" + name }

// Find lists the gpu_module targets that the patterns select, in package order and then in the order
// of their BUILD files, each once; no patterns selects all (//...). It also returns the gpu_module
// calls of the selected packages that it cannot list (see Skipped). A pattern that selects no
// gpu_module target is an error, as is a BUILD file that does not parse (the error names the file
// and line).
func (r *Repo) Find(patterns []string) ([]Target, []Skipped, error) {
	sel, err := r.selectCalls(patterns)
	if err != nil {
		return nil, nil, err
	}
	targets := make([]Target, len(sel.calls))
	for i, fc := range sel.calls {
		targets[i] = fc.file.target(fc.call)
	}
	return targets, sel.skipped, nil
}

// Find lists the gpu_module targets of the repository at root that the patterns select (see
// Repo.Find); a shorthand for Open and Repo.Find.
func Find(root string, patterns []string) ([]Target, error) {
	r, err := Open(root)
	if err != nil {
		return nil, err
	}
	targets, _, err := r.Find(patterns)
	return targets, err
}

// fileCall is a call with its file.
type fileCall struct {
	file *file
	call *call
}

type selection struct {
	calls   []fileCall
	skipped []Skipped
}

// selectCalls resolves the patterns to gpu_module calls.
func (r *Repo) selectCalls(patterns []string) (selection, error) {
	var pats []pattern
	for _, s := range patterns {
		p, err := parsePattern(s)
		if err != nil {
			return selection{}, err
		}
		pats = append(pats, p)
	}
	if len(pats) == 0 {
		pats = []pattern{{text: "//...", recursive: true}}
	}
	pkgs := make([]string, 0, len(r.pkgs))
	for pkg := range r.pkgs {
		pkgs = append(pkgs, pkg)
	}
	slices.Sort(pkgs)

	var sel selection
	seen := map[*call]bool{}
	skippedIn := map[string]bool{}
	for _, p := range pats {
		matched, err := r.matchPattern(p, pkgs, &sel, seen, skippedIn)
		if err != nil {
			return selection{}, err
		}
		if matched == 0 && len(patterns) > 0 {
			return selection{}, r.noMatch(p)
		}
	}
	// Package order, then file order, whatever the order of the patterns.
	order := map[*file]int{}
	for i, pkg := range pkgs {
		if f, ok := r.files[pkg]; ok {
			order[f] = i
		}
	}
	slices.SortStableFunc(sel.calls, func(a, b fileCall) int {
		if a.file != b.file {
			return order[a.file] - order[b.file]
		}
		return start(a.call.rule.Call).Byte - start(b.call.rule.Call).Byte
	})
	slices.SortStableFunc(sel.skipped, func(a, b Skipped) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
	return sel, nil
}

// matchPattern adds the calls p selects to sel and returns how many it selects (counting ones another
// pattern selected already).
func (r *Repo) matchPattern(p pattern, pkgs []string, sel *selection, seen map[*call]bool, skippedIn map[string]bool) (int, error) {
	matched := 0
	for _, pkg := range pkgs {
		if !p.matchesPackage(pkg) {
			continue
		}
		f, err := r.load(pkg)
		if err != nil {
			return 0, err
		}
		for _, c := range f.targets {
			if p.name != "" && c.name != p.name {
				continue
			}
			matched++
			if !seen[c] {
				seen[c] = true
				sel.calls = append(sel.calls, fileCall{f, c})
			}
		}
		if p.name == "" && !skippedIn[pkg] {
			skippedIn[pkg] = true
			sel.skipped = append(sel.skipped, f.skipped...)
		}
	}
	return matched, nil
}

// noMatch says why pattern p selects no gpu_module target.
func (r *Repo) noMatch(p pattern) error {
	if p.recursive {
		where := "the repository"
		if p.pkg != "" {
			where = "//" + p.pkg + " or the packages beneath it"
		}
		return fmt.Errorf("pattern %s: no gpu_module target in %s", p.text, where)
	}
	if _, ok := r.pkgs[p.pkg]; !ok {
		return fmt.Errorf("pattern %s: no package //%s (no BUILD.bazel or BUILD file in %s/ of %s)", p.text, p.pkg, p.pkg, r.root)
	}
	f, err := r.load(p.pkg)
	if err != nil {
		return err
	}
	if p.name == "" {
		return fmt.Errorf("pattern %s: %s declares no gpu_module target", p.text, f.rel)
	}
	if kind, ok := f.rules[p.name]; ok {
		return fmt.Errorf("pattern %s: %s is a %s, not a gpu_module (%s)", p.text, label(p.pkg, p.name), kind, f.rel)
	}
	msg := fmt.Sprintf("pattern %s: %s declares no gpu_module named %q", p.text, f.rel, p.name)
	if len(f.skipped) > 0 {
		s := f.skipped[0]
		msg += fmt.Sprintf("; it may come from the %s at %s:%d, which gpubuild does not read", s.Why, s.File, s.Line)
	}
	return errors.New(msg)
}
