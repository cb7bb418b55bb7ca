// Package buildfiletest copies the test repositories of tools/internal/buildfile and
// tools/internal/migrate into place for tests, and reads trees back to compare them. They are
// stored with ".txt" added to every file name, so that Bazel, buildifier and gazelle do not take their
// BUILD and MODULE.bazel files for part of rules_gpu.
package buildfiletest

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CopyRepo copies the test repository src into dst, dropping the ".txt" of every file name.
func CopyRepo(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, strings.TrimSuffix(rel, ".txt"))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// ReadTree reads every file under dir, keyed by slash path relative to dir, with suffix dropped.
func ReadTree(t testing.TB, dir, suffix string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		files[strings.TrimSuffix(filepath.ToSlash(rel), suffix)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// WriteGolden rewrites a golden case (go test -update): dir/after holds the repository got, with
// ".txt" added to every file name, unless got is the repository before (then there is no after), and
// dir/report.txt holds report.
func WriteGolden(t testing.TB, dir string, got, before map[string]string, report string) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(dir, "after")); err != nil {
		t.Fatal(err)
	}
	if maps.Equal(got, before) {
		got = nil // unchanged: no after
	}
	for rel, data := range got {
		p := filepath.Join(dir, "after", filepath.FromSlash(rel)+".txt")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "report.txt"), []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
}
