// Package migrate has one job: rewrite a Bazel repository that builds CUDA with rules_cuda
// (github.com/bazel-contrib/rules_cuda) to build it with rules_gpu, and list, file:line, what it
// cannot translate and what to do instead. Migrate reads every BUILD and BUILD.bazel file of the
// repository (skipping bazel-* output links, the directories .bazelignore names and nested
// repositories) with github.com/bazelbuild/buildtools' parser, edits their syntax trees and prints
// them with its printer (build.Format, what buildifier writes), so comments and formatting survive.
//
// What it translates:
//
//   - load("@rules_cuda//cuda:defs.bzl", ...) becomes load("@rules_gpu//rules:defs.bzl", ...), with
//     the names the file gives the rules kept (load(..., cu = "cuda_library") stays cu). A name
//     that untranslated targets of the file still call stays loaded from rules_cuda, and the
//     translated ones call rules_gpu's rule under a new name (gpu_cuda_library).
//   - cuda_library keeps srcs (.cu), hdrs, textual_hdrs, deps, includes, defines, rdc, alwayslink, copts,
//     host_copts and the common attributes (visibility, tags, testonly, ...); ptxasopts becomes
//     ptxas_opts and host_linkopts linkopts; headers in srcs move to hdrs. Of copts, nvcc's
//     --use_fast_math becomes fast_math = True, -ftz=true ftz = True, -O0..-O3 opt_level,
//     --expt-relaxed-constexpr and --expt-extended-lambda are dropped (clang needs neither), and the
//     rest is kept for clang.
//   - cuda_test(name = N, ...) becomes cuda_library(name = N + "_lib", testonly = True,
//     alwayslink = True, ...) with the library's attributes, and gpu_cc_test(name = N, deps =
//     [":" + N + "_lib"], ...) with the test's (data, size, args, host_linkopts as linkopts, ...);
//     tags and the compatibility attributes go to both. cuda_binary likewise becomes a cuda_library
//     and a cc_binary (loaded from @rules_cc//cc:defs.bzl unless the file loads cc_binary already).
//     alwayslink is rules_cuda's own default for these libraries: it keeps what the test registers
//     in static constructors (gtest's TEST) in the program.
//   - cuda_objects becomes rules_gpu's cuda_objects, with the library attributes translated as
//     cuda_library's are: as rules_cuda's, it is compiled both ways and the target that depends on
//     it chooses (with rdc, its relocatable device code is linked into that target's module). A
//     target that depends on a cuda_objects that is not translated is listed too: it would lose the
//     objects. An rdc cuda_library that depends on another rdc cuda_library of the repository
//     (rules_cuda device-links the two together; rules_gpu links each cuda_library's own) is listed,
//     and so is that one: the fix is to make the other a cuda_objects, or to translate the two by
//     hand.
//   - Labels of rules_cuda's toolkit repository (@local_cuda//:cublas, :thrust, :cuda_runtime, ...;
//     also spelt @cuda) in any target's attributes become the CUDA toolchain's libraries of rules_gpu
//     (@rules_gpu//cuda:cublas, :cccl, :runtime: tools/cudalib's table); one with no such library
//     (nvml, npp, ...) is listed. rules_cuda's @rules_cuda//cuda:is_enabled and :enable become
//     @rules_gpu//gpu:is_enabled and :enable; requires_cuda is loaded from rules_gpu, which has it.
//     Both kinds of label are translated in .bzl files too (a macro's select on
//     @rules_cuda//cuda:is_enabled, as rules_cuda's if_cuda example writes it).
//   - The root .bazelrc's --@rules_cuda//cuda:archs=ARCHS (after build, common, test, ..., with or
//     without :config) becomes --@rules_gpu//gpu:chips=CHIPS (see ParseArchs and Archs.Attrs). When
//     the archs' fatbin is not rules_gpu's default (cubins only, PTX only, or PTX for other chips than
//     the lowest), no flag can say so: the format and ptx attributes are written on every migrated
//     cuda_library instead, all of which take their chips from the flag; only from an archs flag of
//     plain "build" or "common" lines (the last one), since one of a config or of one command cannot
//     be an attribute. PTX alone for several chips (compute_70;compute_80) is listed: format = "jit"
//     carries one PTX. --@rules_cuda//cuda:enable (and --no...) becomes --@rules_gpu//gpu:enable,
//     with its value. A --flag_alias of either flag (--flag_alias=cuda_archs=@rules_cuda//cuda:archs)
//     names rules_gpu's flag instead, and the alias's uses are translated as the flag's are
//     (--cuda_archs=compute_80:sm_80 becomes --cuda_archs=sm_80); an alias of another rules_cuda
//     flag is listed, and so is each use of it.
//   - A .bazelrc whose build and common lines (without a config) set no archs, in a repository
//     where a target is translated, gets build --@rules_gpu//gpu:chips=sm_75 (created if need be):
//     rules_cuda left the archs to nvcc's default, and rules_gpu has no default chips; sm_75 is the
//     lowest chip CUDA 13 compiles, and its PTX is JIT-compiled on every newer GPU.
//
// What it lists as not translated (Result.Untranslated), leaving it as it was: a target with an
// attribute rules_gpu has no equivalent for (local_defines, host_defines, device linkopts, ...), a source other than .cu and headers, an nvcc option in copts it does not
// know (-X..., --..., -gencode, ...), srcs or copts that are not written out (a variable, select,
// a concatenation; srcs = glob of *.cu patterns is kept, and the values of other attributes are
// copied as they are written), a header-only cuda_library (a cc_library in rules_gpu), a rules_cuda
// call inside an expression; other rules_cuda flags of .bazelrc and archs that do not parse; loads
// of rules_cuda in WORKSPACE and .bzl files (macros). Translated targets are written even when
// others are not.
//
// MODULE.bazel gets bazel_dep(name = "rules_gpu") (version.Version), after its last bazel_dep, and
// rules_gpu's CUDA and LLVM toolchains found on the machine (cuda.local(), llvm.local(), their
// use_repo and register_toolchains) at its end, unless it has that bazel_dep already. When no BUILD,
// .bzl or WORKSPACE file and no .bazelrc line refers to rules_cuda once migrated, rules_cuda's
// bazel_dep, its overrides, its extension's proxy with the proxy's tags and use_repo, and the
// register_toolchains of that extension's repositories are removed; while something still does,
// each is listed as kept, and migrating again once the rest is translated removes them.
//
// Migrating its own output again changes nothing and notes nothing: it holds no rules_cuda target
// that translates and no rules_cuda flag that does. Only what did not translate is listed again.
package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/buildfile"
)

// Options says how Migrate works.
type Options struct {
	// DryRun computes the changes and the report, and writes nothing.
	DryRun bool
}

// Result is what Migrate did, and what it could not do.
type Result struct {
	// Changes are the files that change, in path order.
	Changes []Change
	// Notes say what the translation dropped, moved or added, where it is not a plain rename.
	Notes []Item
	// Untranslated lists what was left as it was, each with what to do.
	Untranslated []Item
	// Written are the paths written (relative to the root, with forward slashes); none in a dry run.
	Written []string
}

// Change is one file and its new content.
type Change struct {
	// Path is relative to the repository root, with forward slashes.
	Path     string
	Old, New []byte
}

// Item is one note or one thing not translated, at its place in a file as it was read.
type Item struct {
	File string `json:"file"`
	Line int    `json:"line"`
	// Target is the label of the target it is about, //pkg:name; "" for flags, loads, modules.
	Target string `json:"target,omitempty"`
	// What names it: "attribute local_defines", "copt -Xptxas=-v", "flag --@rules_cuda//cuda:enable".
	What string `json:"what"`
	// Why says what is wrong with it or, for a note, what was done.
	Why string `json:"why"`
	// Fix says what to do; "" for notes.
	Fix string `json:"fix,omitempty"`
}

// String is FILE:LINE: target //pkg:name: WHAT WHY; fix: FIX.
func (it Item) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d: ", it.File, it.Line)
	if it.Target != "" {
		fmt.Fprintf(&b, "target %s: ", it.Target)
	}
	b.WriteString(it.What)
	if it.Why != "" {
		b.WriteString(" " + it.Why)
	}
	if it.Fix != "" {
		b.WriteString("; fix: " + it.Fix)
	}
	return b.String()
}

// WriteReport writes the notes ("note: ITEM") and the items not translated ("not translated:
// ITEM"), one a line.
func (r *Result) WriteReport(w io.Writer) error {
	var b bytes.Buffer
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	for _, u := range r.Untranslated {
		fmt.Fprintf(&b, "not translated: %s\n", u)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// compilerNote says which compiler the translated targets get, and how to have nvcc's.
const compilerNote = `of this and every other target translated is clang, rules_gpu's default, where rules_cuda's is nvcc: clang builds faster; where clang rejects code written for nvcc, set compiler = "nvcc" on its target, and nvcc compiles its device and host side (docs/cuda.md#clang-or-nvcc)`

// Migrate rewrites the repository whose root is root from rules_cuda to rules_gpu, as the package
// documentation says, and returns what it changed and what it could not translate. It writes the
// changed files (unless opts.DryRun) with atomicfile.WriteAll: all of them are prepared before any
// is replaced. A BUILD file, MODULE.bazel or .bzl file that does not parse is an error that names
// its file and line, and nothing is written.
func Migrate(root string, opts Options) (*Result, error) {
	repo, err := walk(root)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	var changes []Change

	rc, err := migrateBazelrc(repo)
	if err != nil {
		return nil, err
	}
	if rc.change != nil {
		changes = append(changes, *rc.change)
	}
	res.Notes = append(res.Notes, rc.notes...)
	res.Untranslated = append(res.Untranslated, rc.untranslated...)

	others, err := scanOthers(repo)
	if err != nil {
		return nil, err
	}
	res.Untranslated = append(res.Untranslated, others...)

	b, err := migrateBuildFiles(repo, rc.attrs)
	if err != nil {
		return nil, err
	}
	changes = append(changes, b.changes...)
	res.Notes = append(res.Notes, b.notes...)
	res.Untranslated = append(res.Untranslated, b.untranslated...)
	bzl, err := migrateBzlFiles(repo)
	if err != nil {
		return nil, err
	}
	changes = append(changes, bzl.changes...)
	res.Notes = append(res.Notes, bzl.notes...)
	res.Untranslated = append(res.Untranslated, bzl.untranslated...)
	if t := b.first; t != nil {
		// Said once, at the first target translated: the compiler is the one default that changes.
		res.Notes = append(res.Notes, Item{File: t.f.rel, Line: t.line, Target: t.label(), What: "compiler", Why: compilerNote})
	}
	if rc.attrsItem != nil && b.attrsWritten > 0 {
		n := *rc.attrsItem
		n.Why += fmt.Sprintf("; written on the %s migrated", plural(b.attrsWritten, "cuda_library target"))
		res.Notes = append(res.Notes, n)
	}

	if b.first != nil && !rc.chipsSet {
		c, note, err := addDefaultChips(repo, rc.change)
		if err != nil {
			return nil, err
		}
		changes = slices.DeleteFunc(changes, func(x Change) bool { return x.Path == c.Path })
		changes = append(changes, c)
		res.Notes = append(res.Notes, note)
	}
	used, err := stillUsesRulesCuda(repo, changes)
	if err != nil {
		return nil, err
	}
	mod, notes, untranslated, err := migrateModule(repo, used)
	if err != nil {
		return nil, err
	}
	if mod != nil {
		changes = append(changes, *mod)
	}
	res.Notes = append(res.Notes, notes...)
	res.Untranslated = append(res.Untranslated, untranslated...)

	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	res.Changes = changes
	sortItems(res.Notes)
	sortItems(res.Untranslated)
	if opts.DryRun || len(changes) == 0 {
		return res, nil
	}
	files := make([]atomicfile.File, len(changes))
	for i, c := range changes {
		files[i] = atomicfile.File{Path: filepath.Join(repo.root, filepath.FromSlash(c.Path)), Data: c.New}
	}
	if err := atomicfile.WriteAll(files...); err != nil {
		return res, err
	}
	for _, c := range changes {
		res.Written = append(res.Written, c.Path)
	}
	return res, nil
}

// stillUsesRulesCuda says whether a file of the repository refers to rules_cuda once changes are
// made: a BUILD, .bzl or WORKSPACE file or the root .bazelrc, as changed or as it is.
func stillUsesRulesCuda(r *repository, changes []Change) (bool, error) {
	changed := map[string][]byte{}
	for _, c := range changes {
		changed[c.Path] = c.New
	}
	files := []string{".bazelrc"}
	for _, rel := range r.builds {
		files = append(files, rel)
	}
	files = append(append(files, r.bzls...), r.workspaces...)
	for _, rel := range files {
		data, ok := changed[rel]
		if !ok {
			var err error
			if data, err = r.read(rel); errors.Is(err, fs.ErrNotExist) {
				continue
			} else if err != nil {
				return false, err
			}
		}
		if usesRulesCuda.Match(data) {
			return true, nil
		}
	}
	return false, nil
}

// sortItems sorts items by file, then line; items of one line keep their order.
func sortItems(items []Item) {
	slices.SortStableFunc(items, func(a, b Item) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// repository is the layout of the repository being migrated.
type repository struct {
	root string
	// builds maps each package ("" for the root) to its BUILD file, relative to root.
	builds map[string]string
	// bzls are the .bzl files and the root's WORKSPACE files, relative to root, sorted.
	bzls, workspaces []string
	// module is "MODULE.bazel" when the root has one, else "".
	module string
}

// walk finds the files of the repository at root that Migrate reads: every BUILD.bazel or BUILD and
// .bzl file, as buildfile.ReadLayout finds them (the one walk of a repository, shared with gpubuild
// chips), and the root's MODULE.bazel and WORKSPACE files.
func walk(root string) (*repository, error) {
	l, err := buildfile.ReadLayout(root)
	if err != nil {
		return nil, err
	}
	r := &repository{root: root, builds: l.Builds, bzls: l.Bzls}
	for _, name := range []string{"WORKSPACE", "WORKSPACE.bazel"} {
		if buildfile.IsFile(filepath.Join(root, name)) {
			r.workspaces = append(r.workspaces, name)
		}
	}
	if buildfile.IsFile(filepath.Join(root, "MODULE.bazel")) {
		r.module = "MODULE.bazel"
	}
	return r, nil
}

func (r *repository) read(rel string) ([]byte, error) {
	return os.ReadFile(filepath.Join(r.root, filepath.FromSlash(rel)))
}
