// Package gazelle is rules_gpu's gazelle extension: `bazel run //:gazelle` generates and updates
// the targets of GPU sources, as gazelle's Go extension does for Go packages.
//
//   - .cu files become a cuda_library per package (its .cuh headers and the package's other
//     headers they include as hdrs), or one per file under `# gazelle:gpu_cuda_library file`; a .cu
//     that defines main() is a program, a cuda_binary of its own (a header that it and other
//     targets include, and no library holds, a cc_library of the package's shared headers); a
//     .cc, .cpp or .cxx that defines main() a cc_binary over the package's GPU libraries;
//   - an .mlir file of gpu.modules becomes a gpu_module (one per module, with `module`, when it
//     holds several); an .mlir program (a host func.func @main that runs gpu.launch regions or
//     gpu.launch_func) a gpu_binary, or a gpu_test when its // CHECK: lines check its output;
//   - a .ptx file becomes a gpu_module.
//
// A cuda_library's (and cuda_binary's) deps come from its sources' and headers' #include lines,
// resolved through gazelle's index: the hdrs of every cuda_library and cc_library in the repository
// (a glob() of them evaluated over the package's files; under their paths from the repository
// root, and from their includes, strip_include_prefix and include_prefix attributes), or a
// `# gazelle:resolve gpu HEADER LABEL` directive. Angle includes of files the repository does not
// have, and the CUDA toolkit's and the standard libraries' headers, need no dependency. Any other
// include that no target provides is an error that names the file and line, the include and the fix.
//
// Directives (inherited by subdirectories): gpu_chips, gpu_runs_on and gpu_compiler give the
// chips, runs_on and compiler of the targets gazelle creates (it never changes them on a target
// that exists); gpu_cuda_library chooses one cuda_library per package or per file;
// gpu_extension disabled turns the extension off in a subtree; gpu_program test makes programs
// cuda_test targets.
//
// srcs, hdrs (and a program's src) are gazelle's: it adds new files and drops files that are gone,
// keeping entries marked # keep; deps is gazelle's as in every extension (mark a hand-written one
// # keep). Every other attribute is the user's. A rule marked # keep is left alone.
//
// Errors (a bad directive, an include no target provides) are reported on standard error when
// dependencies are resolved, before gazelle writes anything; gazelle then exits with status 1 and
// writes nothing. Gazelle 0.47's extension API returns no errors (GenerateRules and Resolve may
// only log), so the extension stops the run itself, from its AfterResolvingDeps hook.
//
// Add it to a gazelle_binary after gazelle's own languages:
//
//	gazelle_binary(
//	    name = "gazelle_bin",
//	    languages = DEFAULT_LANGUAGES + ["@rules_gpu//gazelle"],
//	)
//
// docs/gazelle.md has the directives, what is generated from what, and an example.
package gazelle

import (
	"context"
	"fmt"
	"log"
	"os"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/label"
	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// languageName is the extension's name: in gazelle's -lang flag and `# gazelle:lang`, and as the
// language of `# gazelle:resolve gpu HEADER LABEL`.
const languageName = "gpu"

// The kinds of rules the extension generates.
const (
	kindCudaLibrary = "cuda_library"
	// kindCudaBinary is a program: a CUDA C++ source with main() (rules_cuda's macro).
	kindCudaBinary = "cuda_binary"
	// kindCudaTest is a program run as a test, under # gazelle:gpu_program test.
	kindCudaTest = "cuda_test"
	// kindCcBinary is a C++ program (a .cc, .cpp or .cxx with main()) over the package's GPU
	// libraries: Bazel's own rule, not loaded (Bazel 7 has it natively).
	kindCcBinary = "cc_binary"
	kindModule   = "gpu_module"
	kindBinary   = "gpu_binary"
	kindTest     = "gpu_test"
	// kindCcLibrary is indexed (its hdrs resolve includes); generated only for the headers that
	// several programs of a package include.
	kindCcLibrary = "cc_library"
	// kindCudaObjects (rules_cuda's, and rules_gpu's) is indexed (its hdrs resolve includes); never
	// generated or edited.
	kindCudaObjects = "cuda_objects"
)

// gpuLang is the extension. One is made for each gazelle run.
type gpuLang struct {
	problems *problems
	headers  *repoHeaders
	// rulesGPU is the repository name the user's MODULE.bazel gives rules_gpu (ApparentLoads).
	rulesGPU string
	exit     func(code int) // os.Exit; tests replace it
}

var (
	_ language.Language            = (*gpuLang)(nil)
	_ language.ModuleAwareLanguage = (*gpuLang)(nil)
	_ language.LifecycleManager    = (*gpuLang)(nil)
)

// NewLanguage returns the extension; gazelle_binary calls it.
func NewLanguage() language.Language {
	return &gpuLang{problems: &problems{}, headers: &repoHeaders{}, rulesGPU: "rules_gpu", exit: os.Exit}
}

// Name is "gpu".
func (*gpuLang) Name() string { return languageName }

// Kinds says how gazelle matches and merges each kind. srcs and hdrs (and a program's src) are
// merged before resolution and deps after it; no other attribute is gazelle's, so chips, runs_on,
// compiler and visibility are set when gazelle creates a rule and never changed afterwards.
// cc_library is here so that gazelle's index asks the extension which headers a cc_library
// provides; the extension generates one only for a package's shared headers.
func (*gpuLang) Kinds() map[string]rule.KindInfo {
	return map[string]rule.KindInfo{
		kindCudaLibrary: {
			NonEmptyAttrs:  map[string]bool{"srcs": true},
			MergeableAttrs: map[string]bool{"srcs": true, "hdrs": true, "textual_hdrs": true},
			ResolveAttrs:   map[string]bool{"deps": true},
		},
		kindCudaBinary: {
			NonEmptyAttrs:  map[string]bool{"srcs": true},
			MergeableAttrs: map[string]bool{"srcs": true, "hdrs": true, "textual_hdrs": true},
			ResolveAttrs:   map[string]bool{"deps": true},
		},
		kindCudaTest: {
			NonEmptyAttrs:  map[string]bool{"srcs": true},
			MergeableAttrs: map[string]bool{"srcs": true, "hdrs": true, "textual_hdrs": true},
			ResolveAttrs:   map[string]bool{"deps": true},
		},
		kindModule: {
			NonEmptyAttrs:  map[string]bool{"srcs": true},
			MergeableAttrs: map[string]bool{"srcs": true},
		},
		kindBinary: {
			NonEmptyAttrs:  map[string]bool{"src": true},
			MergeableAttrs: map[string]bool{"src": true},
		},
		kindTest: {
			NonEmptyAttrs:  map[string]bool{"src": true},
			MergeableAttrs: map[string]bool{"src": true},
		},
		kindCcBinary: {
			NonEmptyAttrs:  map[string]bool{"srcs": true},
			MergeableAttrs: map[string]bool{"srcs": true},
			ResolveAttrs:   map[string]bool{"deps": true},
		},
		kindCudaObjects: {
			NonEmptyAttrs: map[string]bool{"srcs": true},
		},
		kindCcLibrary: {
			NonEmptyAttrs:  map[string]bool{"hdrs": true},
			MergeableAttrs: map[string]bool{"hdrs": true, "textual_hdrs": true},
			ResolveAttrs:   map[string]bool{"deps": true},
		},
	}
}

// rulesGPUDefs is the file the generated kinds are loaded from, in the repository rules_gpu is.
const rulesGPUDefs = "//rules:defs.bzl"

// Loads is for gazelle binaries that do not know modules: rules_gpu by its WORKSPACE name.
func (l *gpuLang) Loads() []rule.LoadInfo {
	return l.ApparentLoads(func(string) string { return "" })
}

// ApparentLoads loads the generated kinds from @rules_gpu//rules:defs.bzl, by the repository
// name the user's MODULE.bazel gives rules_gpu (rules_gpu without one).
func (l *gpuLang) ApparentLoads(moduleToApparentName func(string) string) []rule.LoadInfo {
	repo := moduleToApparentName("rules_gpu")
	if repo == "" {
		repo = "rules_gpu"
	}
	l.rulesGPU = repo // the CUDA toolkit's libraries are its targets (resolveInclude)
	return []rule.LoadInfo{{
		Name:    "@" + repo + rulesGPUDefs,
		Symbols: []string{kindCudaBinary, kindCudaLibrary, kindCudaTest, kindBinary, kindModule, kindTest},
	}}
}

// Fix has no deprecated usage to repair.
func (*gpuLang) Fix(c *config.Config, f *rule.File) {}

// Embeds: GPU rules embed nothing.
func (*gpuLang) Embeds(r *rule.Rule, from label.Label) []label.Label { return nil }

// Before has nothing to prepare.
func (*gpuLang) Before(ctx context.Context) {}

// DoneGeneratingRules has nothing to release.
func (*gpuLang) DoneGeneratingRules() {}

// AfterResolvingDeps reports the run's problems, if any, and then ends the run with status 1,
// before gazelle writes a file (see the package documentation).
func (l *gpuLang) AfterResolvingDeps(ctx context.Context) {
	msgs := l.problems.take()
	if len(msgs) == 0 {
		return
	}
	for _, m := range msgs {
		log.Print(m)
	}
	l.exit(1)
}

// problems collects the run's errors, each one line: where, what, and the fix.
type problems struct {
	mu   sync.Mutex
	msgs []string
	seen map[string]bool
}

func (p *problems) add(format string, args ...any) {
	m := fmt.Sprintf(format, args...)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	if !p.seen[m] {
		p.seen[m] = true
		p.msgs = append(p.msgs, m)
	}
}

// take returns the problems, in the order gazelle met them (its walk is deterministic: directives
// as it enters directories, then sources, then includes as it resolves them), and forgets them.
func (p *problems) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.msgs
	p.msgs, p.seen = nil, nil
	return out
}

// repoHeaders are the header files of the directories gazelle has visited, by file name: an angle
// include that no target provides is a problem when the repository has the file.
type repoHeaders struct {
	mu     sync.Mutex
	byName map[string][]string // file name -> repository paths
}

func (h *repoHeaders) add(p string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byName == nil {
		h.byName = map[string][]string{}
	}
	h.byName[path.Base(p)] = append(h.byName[path.Base(p)], p)
}

// find is the repository paths that end in include (the path an #include names), sorted.
func (h *repoHeaders) find(include string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, p := range h.byName[path.Base(include)] {
		if p == include || strings.HasSuffix(p, "/"+include) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
