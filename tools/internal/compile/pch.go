package compile

// A CUDA C++ source's device compile with clang first parses the headers that clang's driver
// includes into every CUDA source (__clang_cuda_runtime_wrapper.h: the toolkit's runtime and math
// headers, libstdc++'s <cmath> and more), about 270 ms of CPU per (source, chip) whatever the
// source (docs/benchmarks-history.md, step 8). A precompiled header (PCH) of them, made once per chip and
// set of language options (FormatPCH), is loaded instead.
//
// One PCH serves every action with those options, in any sandbox and from a remote cache, because
// clang sees every relative path under one fixed virtual root: an overlay of clang's virtual file
// system maps vfsRoot onto the working directory, and clang's working directory is vfsRoot. So the
// PCH records /rgpu/external/... where a sandbox has /tmp/sandbox/N/execroot/external/..., and two
// sandboxes' PCHs are the same bytes; the PCH's main file is /dev/null, which every machine has.
//
// What clang checks when it loads a PCH: the chip (target CPU), the language options that change
// what the headers mean (-O0 against -O1..3, through __OPTIMIZE__; fast math; the C++ standard),
// and, with the options usePCH gives, the content of every header in it, system headers too. What
// it does not check, the compile checks before it loads one: macros given with -D (refused with a
// PCH), and an include directory of the compile that holds a file named as one of the PCH's
// headers (which would shadow it: then the compile parses the headers itself). A PCH clang refuses
// costs one more compile, without it, and a warning: it never fails a compile or changes its output.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
)

// FormatPCH is a precompiled header of the headers clang includes into every CUDA C++ source, for
// one chip, optimisation level and fast math (the language options clang checks), which CUDA C++
// compiles with the same options load (CUDAOptions.PCH).
const FormatPCH Format = "pch"

// vfsRoot is where clang sees the working directory of a compile that makes or loads a PCH.
const vfsRoot = "/rgpu"

// pchMain is the main file of a PCH: no code of its own, only what the driver includes.
const pchMain = "/dev/null"

// checkPCH refuses what a PCH cannot be made for or loaded by, before any tool runs.
func (job Job) checkPCH() error {
	making := job.Format == FormatPCH
	if !making && job.CUDA.PCH == "" {
		if job.CUDA.PCHHeaders != "" {
			return errors.New("a PCH's header list is written with format pch or read with a PCH to load (--pch); this compile does neither")
		}
		return nil
	}
	what := "loading a precompiled header (--pch)"
	if making {
		what = "a precompiled header (format pch)"
	}
	switch {
	case job.Kind != KindCUDA:
		return fmt.Errorf("%s is for CUDA C++ sources compiled by clang; this is a %s source", what, job.Kind)
	case job.CUDA.Compiler != CompilerClang:
		return fmt.Errorf("%s needs clang as the CUDA C++ compiler, not %s", what, job.CUDA.Compiler)
	case job.CUDA.RDC:
		return fmt.Errorf("%s is for compiles to PTX and cubins, not relocatable device code", what)
	case job.Debug != DebugNone:
		return fmt.Errorf("%s is for compiles without device debug information, and this one writes %s debug information", what, job.Debug)
	case !making && job.Format != FormatISA && job.Format != FormatBin:
		return fmt.Errorf("%s is for compiles to PTX (isa) and cubins (bin), not %s", what, job.Format)
	case job.CUDA.PCHHeaders == "":
		return fmt.Errorf("%s needs the list of the headers in it (--pch-headers): a compile checks that none of its include directories shadows one", what)
	case making && (job.Out == "-" || job.Out == ""):
		return errors.New("a precompiled header (format pch) is written to a file: give -o FILE")
	}
	if _, other := includeDirs(job.CUDA.ClangOptions); other != "" {
		return fmt.Errorf("%s: clang option %s: a PCH holds clang's own CUDA headers as they are parsed without options, and clang does not check macros (-D) against it; a compile with options other than include directories (-I, -isystem, -iquote, -idirafter) parses the headers itself", what, other)
	}
	return nil
}

// includeDirs are the directories of the include-directory options in opts (-I, -isystem,
// -iquote, -idirafter, each with its value apart or joined); other is the first option that is
// not one ("" when there is none).
func includeDirs(opts []string) (dirs []string, other string) {
next:
	for i := 0; i < len(opts); i++ {
		for _, o := range []string{"-I", "-isystem", "-iquote", "-idirafter"} {
			switch {
			case opts[i] == o && i+1 < len(opts):
				dirs = append(dirs, opts[i+1])
				i++
				continue next
			case strings.HasPrefix(opts[i], o) && len(opts[i]) > len(o) && (o != "-I" || !strings.HasPrefix(opts[i], "-include")):
				dirs = append(dirs, opts[i][len(o):])
				continue next
			}
		}
		if other == "" {
			other = opts[i]
		}
	}
	return dirs, other
}

// writeOverlay writes the overlay of clang's virtual file system that maps vfsRoot onto the
// working directory.
func writeOverlay(path string) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	type root struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		External string `json:"external-contents"`
	}
	data, err := json.Marshal(struct {
		Version       int    `json:"version"`
		CaseSensitive string `json:"case-sensitive"`
		External      bool   `json:"use-external-names"`
		Roots         []root `json:"roots"`
	}{0, "true", false, []root{{vfsRoot, "directory-remap", wd}}})
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// virtualArgs are the driver options that make clang see the working directory as vfsRoot
// through the overlay at the relative path overlay (a relative path, as the PCH records it).
func virtualArgs(overlay string) []string {
	return []string{"-ivfsoverlay", overlay, "-Xclang", "-working-directory", "-Xclang", vfsRoot}
}

// makePCH writes the PCH of a FormatPCH job and the list of the headers in it (CUDAOptions.PCHHeaders,
// one path per line, as clang saw them).
func (t Tools) makePCH(ctx context.Context, job Job, ptx chip.PTX, tmp string) error {
	// The overlay's path is recorded in the PCH: beside the output, by the output's own (relative,
	// in a Bazel action) path, it is the same in every sandbox.
	overlay := job.Out + ".vfs.yaml"
	if err := writeOverlay(overlay); err != nil {
		return job.fail(nil, "", err)
	}
	defer os.Remove(overlay)
	// Outputs by real absolute paths: with clang's working directory in the virtual root, a relative
	// one would be written under it, which the overlay does not allow.
	pch, err := filepath.Abs(filepath.Join(tmp, "k.pch"))
	if err != nil {
		return job.fail(nil, "", err)
	}
	deps := pch + ".d"
	emit := append([]string{"-S", ptxFeature(ptx), "-Xclang", "-emit-pch", "-Xclang", "-fno-pch-timestamp", "-Xclang", "-fvalidate-ast-input-files-content",
		"-MD", "-MF", deps, "-MT", "pch"}, virtualArgs(overlay)...)
	if err := t.clangDevice(ctx, job, pchMain, pch, emit...); err != nil {
		return err
	}
	data, err := os.ReadFile(pch)
	if err != nil {
		return job.fail(nil, "", err)
	}
	rules, err := os.ReadFile(deps)
	if err != nil {
		return job.fail(nil, "", err)
	}
	headers := strings.Join(dependencies(string(rules)), "\n") + "\n"
	if err := atomicfile.WriteAll(atomicfile.File{Path: job.Out, Data: data}, atomicfile.File{Path: job.CUDA.PCHHeaders, Data: []byte(headers)}); err != nil {
		return job.fail(nil, "", err)
	}
	return nil
}

// dependencies are the prerequisites of a make rule as clang's -MD writes it (continued lines,
// spaces escaped with a backslash), but the main file.
func dependencies(rule string) []string {
	_, rest, _ := strings.Cut(rule, ": ")
	rest = strings.ReplaceAll(rest, "\\\n", " ")
	var deps []string
	var cur strings.Builder
	flush := func() {
		if d := cur.String(); d != "" && d != pchMain {
			deps = append(deps, d)
		}
		cur.Reset()
	}
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '\\' && i+1 < len(rest) && rest[i+1] == ' ':
			cur.WriteByte(' ')
			i++
		case c == ' ' || c == '\t' || c == '\n':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return deps
}

// shadowed names a file in one of the job's include directories that an #include of a header in
// its PCH could find instead of that header ("" when there is none): the header's name, or its
// name with up to three of its directories (bits/c++config.h, c++/16/cmath), in the directory.
// Then the PCH's headers are not the ones the compile would include, and it does not load it.
func (job Job) shadowed() (string, error) {
	dirs, _ := includeDirs(job.CUDA.ClangOptions)
	if len(dirs) == 0 {
		return "", nil
	}
	data, err := os.ReadFile(job.CUDA.PCHHeaders)
	if err != nil {
		return "", fmt.Errorf("the PCH's header list: %w", err)
	}
	// What each directory holds at its top, listed once: a name that is not there needs no stat.
	top := make([]map[string]bool, len(dirs))
	for i, dir := range dirs {
		entries, _ := os.ReadDir(dir) // a directory that is not there shadows nothing
		top[i] = make(map[string]bool, len(entries))
		for _, e := range entries {
			top[i][e.Name()] = true
		}
	}
	for _, h := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		h = filepath.Clean(h)
		// The header itself, in the working directory (the PCH was made with that directory too),
		// does not shadow it.
		self, _ := strings.CutPrefix(h, vfsRoot+"/")
		parts := strings.Split(filepath.ToSlash(h), "/")
		for k := 1; k <= 4 && k < len(parts); k++ {
			name := parts[len(parts)-k:]
			for i, dir := range dirs {
				if !top[i][name[0]] {
					continue
				}
				p := filepath.Join(append([]string{dir}, name...)...)
				if _, err := os.Stat(p); err == nil && p != self {
					return p, nil
				}
			}
		}
	}
	return "", nil
}

// usePCH compiles with clangDevice, loading the job's PCH through the overlay: when clang refuses
// it (another chip's, options it was not made with, a header changed since), or an include
// directory shadows one of its headers, the compile runs without it, and only the refusal is
// reported (to Job.Log), so that a PCH can make a compile faster and never change or fail it.
func (t Tools) usePCH(ctx context.Context, job Job, src, out, tmp string, emit ...string) error {
	plain := func() error { return t.clangDevice(ctx, job, src, out, emit...) }
	switch shadow, err := job.shadowed(); {
	case err != nil:
		return job.fail(nil, "", err)
	case shadow != "":
		if job.Trace != nil {
			job.Trace("pch shadowed by "+shadow, 0)
		}
		return plain()
	}
	overlay := filepath.Join(tmp, "vfs.yaml")
	if err := writeOverlay(overlay); err != nil {
		return job.fail(nil, "", err)
	}
	abs, err := filepath.Abs(out) // see makePCH
	if err != nil {
		return job.fail(nil, "", err)
	}
	pch := job.CUDA.PCH
	if !filepath.IsAbs(pch) {
		pch = vfsRoot + "/" + filepath.ToSlash(filepath.Clean(pch))
	}
	load := append(slices.Clone(emit), virtualArgs(overlay)...)
	load = append(load, "-Xclang", "-fvalidate-ast-input-files-content", "-Xclang", "-fmodules-validate-system-headers",
		"-Xclang", "-include-pch", "-Xclang", pch)
	err = t.clangDevice(ctx, job, src, abs, load...)
	var e *Error
	if err == nil || !errors.As(err, &e) || len(e.Command) == 0 {
		return err // done, or not clang's refusal
	}
	if err := plain(); err != nil {
		return err // the source's own error, as a compile without a PCH reports it
	}
	if job.Log != nil {
		target := ""
		if job.Target != "" {
			target = job.Target + ": "
		}
		fmt.Fprintf(job.Log, "gpubuild: warning: %scompiled %s for %s without the precompiled header %s, which clang refused: %s\n  (the output is right; a PCH that clang refuses only costs time: make it again, e.g. bazel clean, when its headers changed)\n",
			target, job.sources(), job.Chip, job.CUDA.PCH, firstError(e.Stderr))
	}
	return nil
}

// firstError is the first line of a tool's output that says error, or its first line.
func firstError(stderr string) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for _, l := range lines {
		if strings.Contains(l, "error:") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[0])
}
