package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func gpubuild(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// The verbs work together on real files: link PTX into a fatbin, inspect it, extract it, check it.
func TestVerbs(t *testing.T) {
	dir := t.TempDir()
	ptx := filepath.Join(dir, "k.ptx")
	src := ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k() { ret; }\n" + strings.Repeat("// padding\n", 30)
	if err := os.WriteFile(ptx, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fb := filepath.Join(dir, "k.fatbin")
	if code, _, errs := gpubuild(t, "link", "-o", fb, "--compress", "zstd", ptx); code != 0 {
		t.Fatalf("link: %d %s", code, errs)
	}
	code, out, errs := gpubuild(t, "inspect", "--json", fb)
	if code != 0 || !strings.Contains(out, `"kind":"ptx","arch":"sm_80","ptx_isa":"7.0","compression":"zstd"`) {
		t.Fatalf("inspect: %d %s %s", code, out, errs)
	}
	xdir := filepath.Join(dir, "x")
	if code, out, errs := gpubuild(t, "extract", "-o", xdir, fb); code != 0 || !strings.HasSuffix(strings.TrimSpace(out), "k.1.sm_80.ptx") {
		t.Fatalf("extract: %d %s %s", code, out, errs)
	}
	if got, _ := os.ReadFile(filepath.Join(xdir, "k.1.sm_80.ptx")); string(got) != src {
		t.Errorf("extracted PTX differs from the source")
	}
	// sm_80 PTX JIT-compiles on sm_90 with a CUDA 12.4 driver, and not on sm_75.
	if code, out, _ := gpubuild(t, "check", "--runs-on", "sm_90", "--driver", "12.4", fb); code != 0 || !strings.HasPrefix(out, "OK") {
		t.Errorf("check sm_90: %d %s", code, out)
	}
	code, out, errs = gpubuild(t, "check", "--runs-on", "sm_75", "--target", "//p:k", fb)
	if code != 1 || !strings.HasPrefix(out, "FAIL") || !strings.Contains(errs, "//p:k: 1 of 1 checks fail") {
		t.Errorf("check sm_75: %d %q %q", code, out, errs)
	}
}

// Usage errors exit 2; failures exit 1 with one message naming the target; parameter files expand.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := gpubuild(t); code != 2 || !strings.Contains(errs, "verbs:") {
		t.Errorf("no verb: %d %s", code, errs)
	}
	if code, _, _ := gpubuild(t, "link"); code != 2 {
		t.Errorf("link without args: %d", code)
	}
	params := filepath.Join(dir, "params")
	os.WriteFile(params, []byte("--target\n//p:k\n--chip\nsm_99\n--out\n"+filepath.Join(dir, "o.cubin")+"\nk.ptx\n"), 0o644)
	code, _, errs := gpubuild(t, "compile", "--params="+params)
	if code != 1 || !strings.Contains(errs, "//p:k") || !strings.Contains(errs, "sm_99") {
		t.Errorf("compile of an unknown chip: %d %s", code, errs)
	}
	if code, _, errs := gpubuild(t, "inspect", filepath.Join(dir, "missing.fatbin")); code != 1 || !strings.Contains(errs, "missing.fatbin") {
		t.Errorf("inspect of a missing file: %d %s", code, errs)
	}
}
