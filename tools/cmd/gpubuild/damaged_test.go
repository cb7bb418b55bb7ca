package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/artifact/artifacttest"
)

// A whole cubin checks and links; every damaged one (artifacttest.Corruptions, which cuobjdump and the
// driver refuse too) fails check, with a message naming the file and what is wrong and no "OK", and
// link, leaving no output; inspect and extract refuse it too.
func TestDamagedImages(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.cubin")
	if err := os.WriteFile(good, artifacttest.RealCubin, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := gpubuild(t, "check", "--runs-on", "sm_90", good); code != 0 || !strings.HasPrefix(out, "OK") {
		t.Fatalf("check of the whole cubin: %d %q %q", code, out, errs)
	}
	if code, _, errs := gpubuild(t, "link", "-o", filepath.Join(dir, "good.fatbin"), good); code != 0 {
		t.Fatalf("link of the whole cubin: %d %q", code, errs)
	}
	for _, c := range artifacttest.Corruptions(artifacttest.RealCubin) {
		t.Run(c.Name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.Name, " ", "_")+c.Ext)
			if err := os.WriteFile(path, c.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			stamp := filepath.Join(dir, "stamp")
			code, out, errs := gpubuild(t, "check", "--runs-on", "sm_90", "--target", "//p:k", "--stamp", stamp, path)
			if code != 1 || strings.Contains(out, "OK") || !strings.Contains(errs, "//p:k: "+path+": ") || !strings.Contains(errs, c.Want) ||
				!strings.Contains(errs, "rebuild it") {
				t.Errorf("check: exit %d, stdout %q, stderr %q; want exit 1, no OK, //p:k: %s: ... %q ... rebuild it", code, out, errs, path, c.Want)
			}
			if _, err := os.Stat(stamp); err == nil {
				t.Error("check wrote its stamp")
			}
			out2 := filepath.Join(dir, "out.fatbin")
			if code, _, errs := gpubuild(t, "link", "-o", out2, "sm_90="+path); code != 1 || !strings.Contains(errs, path) || !strings.Contains(errs, c.Want) {
				t.Errorf("link: exit %d, stderr %q; want exit 1 and %s: ... %q", code, errs, path, c.Want)
			}
			if _, err := os.Stat(out2); err == nil {
				t.Error("link left an output")
			}
			if code, _, _ := gpubuild(t, "inspect", path); code != 1 {
				t.Errorf("inspect: exit %d, want 1", code)
			}
			if code, _, _ := gpubuild(t, "extract", "-o", filepath.Join(dir, "x"), path); code != 1 {
				t.Errorf("extract: exit %d, want 1", code)
			}
		})
	}
}
