package params

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return testtool.WriteFile(t, dir, name, text) }
	plain := write("plain", "--chip\nsm_90\n")
	quoted := write("quoted", "--opt\n'a b'\n'it'\\''s'\n")
	empty := write("empty", "")
	for _, tc := range []struct {
		name string
		in   []string
		want []string
	}{
		{"no files", []string{"compile", "x.ptx"}, []string{"compile", "x.ptx"}},
		{"plain file", []string{"compile", Flag + plain, "x.ptx"}, []string{"compile", "--chip", "sm_90", "x.ptx"}},
		{"a worker's file", []string{"compile", WorkerFlag + plain}, []string{"compile", "--chip", "sm_90"}},
		{"shell quoting", []string{Flag + quoted}, []string{"--opt", "a b", "it's"}},
		{"empty file", []string{"a", Flag + empty}, []string{"a"}},
		{"labels stay literal", []string{"--target", "@repo//pkg:name", "@"}, []string{"--target", "@repo//pkg:name", "@"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Expand(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Expand(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestExpandMissingFile(t *testing.T) {
	_, err := Expand([]string{Flag + filepath.Join(t.TempDir(), "nope")})
	if err == nil {
		t.Fatal("Expand of a missing parameter file succeeded")
	}
}
