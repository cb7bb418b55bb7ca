// Package buildfiletest copies the test repositories of tools/buildfile into place for tests. They are
// stored with ".txt" added to every file name, so that Bazel, buildifier and gazelle do not take their
// BUILD and MODULE.bazel files for part of rules_gpu.
package buildfiletest

import (
	"io/fs"
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
