package gazelle

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	bzl "github.com/bazelbuild/buildtools/build"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// attrEntries is what a rule's list attribute holds, as Bazel would evaluate it: its strings; a
// glob() evaluated over the files of the package, in dir (its subdirectories that are packages of
// their own left out, as Bazel leaves them out); and the parts of a + of them. What it cannot
// evaluate (a select(), a variable) contributes nothing.
func attrEntries(r *rule.Rule, attr, dir string) []string {
	var out []string
	var eval func(e bzl.Expr)
	eval = func(e bzl.Expr) {
		switch e := e.(type) {
		case *bzl.ListExpr:
			for _, x := range e.List {
				if s, ok := x.(*bzl.StringExpr); ok {
					out = append(out, s.Value)
				}
			}
		case *bzl.BinaryExpr:
			if e.Op == "+" {
				eval(e.X)
				eval(e.Y)
			}
		case *bzl.CallExpr:
			if g, ok := rule.ParseGlobExpr(e); ok && dir != "" {
				out = append(out, globFiles(dir, g)...)
			}
		}
	}
	if e := r.Attr(attr); e != nil {
		eval(e)
	}
	return out
}

// globFiles is the files of the package in dir that g matches, relative to dir, sorted: those that
// one of its patterns matches and none of its excludes does.
func globFiles(dir string, g rule.GlobValue) []string {
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if isPackage(p) {
				return filepath.SkipDir
			}
			return nil
		}
		if slices.ContainsFunc(g.Patterns, func(pat string) bool { return globMatch(pat, rel) }) &&
			!slices.ContainsFunc(g.Excludes, func(pat string) bool { return globMatch(pat, rel) }) {
			files = append(files, rel)
		}
		return nil
	})
	slices.Sort(files)
	return files
}

// isPackage says whether the directory dir has a BUILD file of its own.
func isPackage(dir string) bool {
	for _, name := range []string{"BUILD.bazel", "BUILD"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}

// globMatch says whether the slash-separated path p matches the glob pattern pat, as Bazel's glob()
// matches: each segment as path.Match does, and a segment "**" matching any number of directories,
// none included.
func globMatch(pat, p string) bool {
	return matchSegments(strings.Split(pat, "/"), strings.Split(p, "/"))
}

func matchSegments(pat, p []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(p); i++ {
				if matchSegments(pat[1:], p[i:]) {
					return true
				}
			}
			return false
		}
		if len(p) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], p[0]); err != nil || !ok {
			return false
		}
		pat, p = pat[1:], p[1:]
	}
	return len(p) == 0
}
