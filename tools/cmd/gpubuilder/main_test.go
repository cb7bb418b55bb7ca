package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/params"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

func gpubuilder(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = program().Run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeSource(t *testing.T, name, text string) string {
	t.Helper()
	return testtool.WriteFile(t, t.TempDir(), name, text)
}

const testPTX = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k() { ret; }\n"

// mainGo is main.go, which holds the package documentation (embedded: under Bazel, the test's
// runfiles hold no sources).
//
//go:embed main.go
var mainGo string

// gpubuilder is the action verbs alone, each in the package documentation, in the table's order:
// nothing that only a user runs (inspect, chips, migrate, filecheck, ...).
func TestVerbTable(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", mainGo, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var documented, table []string
	for _, m := range regexp.MustCompile(`(?m)^\s+gpubuilder ([a-z]+) `).FindAllStringSubmatch(f.Doc.Text(), -1) {
		documented = append(documented, m[1])
	}
	for _, v := range program().Verbs {
		table = append(table, v.Name)
	}
	want := []string{"prepare", "compile", "dlink", "link", "host", "register", "check", "abi", "embed"}
	if !slices.Equal(table, want) || !slices.Equal(documented, table) {
		t.Errorf("verbs %q, documented %q; want %q", table, documented, want)
	}
	for _, user := range []string{"inspect", "extract", "attach", "chips", "migrate", "filecheck"} {
		if code, _, errs := gpubuilder(t, user, "--help"); code != 2 || !strings.Contains(errs, "gpubuilder: unknown verb") {
			t.Errorf("gpubuilder %s: exit %d, %s", user, code, errs)
		}
	}
	// Its usage texts name it.
	if code, out, _ := gpubuilder(t, "compile", "--help"); code != 0 || !strings.HasPrefix(out, "usage: gpubuilder compile ") {
		t.Errorf("compile --help: exit %d\n%s", code, out)
	}
}

// The action helper looks for no tool on the machine: a compile whose command line names no ptxas
// fails, saying that none is configured, even where the machine has one (gpubuild, by hand, would find it).
func TestNoDiscovery(t *testing.T) {
	ptx := writeSource(t, "k.ptx", testPTX)
	out := filepath.Join(t.TempDir(), "k.cubin")
	code, _, errs := gpubuilder(t, "compile", "--target", "//p:k", "--chip", "sm_80", "--toolkit", "12.4", "-o", out, ptx)
	if code != 1 || !strings.Contains(errs, "gpubuilder compile: //p:k: ") || !strings.Contains(errs, "no ptxas configured") {
		t.Errorf("compile without --ptxas: exit %d, stderr %q; want 1 and no ptxas configured", code, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the failed compile left an output")
	}
}

// As a persistent worker, gpubuilder runs each request as the command line it completes, one after
// another in one process: a failing request fails alone, with its messages in its response.
func TestWorker(t *testing.T) {
	dir := t.TempDir()
	ptx, bad := writeSource(t, "k.ptx", testPTX), writeSource(t, "bad.ptx", "not PTX")
	want := filepath.Join(dir, "want.fatbin")
	if code, _, errs := gpubuilder(t, "link", "--target", "//:k", "-o", want, ptx); code != 0 {
		t.Fatalf("link: %s", errs)
	}
	// Each request's arguments are its parameter file, as Bazel sends them.
	n := 0
	request := func(lines ...string) string {
		n++
		f := writeSource(t, fmt.Sprintf("%d.params", n), strings.Join(lines, "\n")+"\n")
		b, _ := json.Marshal(cmdline.WorkRequest{Arguments: []string{params.WorkerFlag + f}})
		return string(b) + "\n"
	}
	out1, out3 := filepath.Join(dir, "1.fatbin"), filepath.Join(dir, "3.fatbin")
	requests := request("--target", "//:one", "-o", out1, ptx) +
		request("--target", "//:two", "-o", filepath.Join(dir, "2.fatbin"), bad) +
		request("--target", "//:three", "-o", out3, ptx)
	var responses, stderr bytes.Buffer
	if code := program().Serve(context.Background(), []string{"link", cmdline.WorkerFlag}, strings.NewReader(requests), &responses, &stderr); code != 0 {
		t.Fatalf("serve: exit %d: %s", code, stderr.String())
	}
	dec := json.NewDecoder(&responses)
	for i, check := range []func(cmdline.WorkResponse) bool{
		func(r cmdline.WorkResponse) bool { return r.ExitCode == 0 && r.Output == "" },
		func(r cmdline.WorkResponse) bool {
			return r.ExitCode == 1 && strings.HasPrefix(r.Output, "gpubuilder link: //:two: ")
		},
		func(r cmdline.WorkResponse) bool { return r.ExitCode == 0 && r.Output == "" },
	} {
		var r cmdline.WorkResponse
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("response %d: %v", i+1, err)
		}
		if !check(r) {
			t.Errorf("response %d: %+v", i+1, r)
		}
	}
	if dec.More() {
		t.Error("more responses than requests")
	}
	for _, f := range []string{out1, out3} {
		got, _ := os.ReadFile(f)
		if w, _ := os.ReadFile(want); !bytes.Equal(got, w) {
			t.Errorf("%s: not the fatbin gpubuilder link writes", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "2.fatbin")); err == nil {
		t.Error("the failing request left an output")
	}

	// A request that is not JSON ends the worker with status 1 and a message.
	stderr.Reset()
	if code := program().Serve(context.Background(), []string{"link", cmdline.WorkerFlag}, strings.NewReader("{not json"), &responses, &stderr); code != 1 || !strings.Contains(stderr.String(), "reading a work request") {
		t.Errorf("serve of a bad request: exit %d, stderr %q", code, stderr.String())
	}
}

// check with no file: a usage error, except for the modules of a program (--modules), which a
// program that only calls GPU libraries does not have: nothing to load, the stamp written.
func TestCheckNoFiles(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		want  string
		stamp bool
	}{
		{"no file", []string{"--runs-on", "sm_90"}, 2, "no file to check", false},
		{"a program's modules, none", []string{"--runs-on", "sm_90", "--modules"}, 0, "OK   the program has no modules of its own: nothing to load on sm_90", true},
		{"a program's modules", []string{"--runs-on", "sm_90", "--modules", writeSource(t, "k.ptx", testPTX)}, 0, "loads on sm_90", true},
	} {
		stamp := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".ok")
		code, out, errs := gpubuilder(t, append([]string{"check", "--stamp", stamp}, tc.args...)...)
		if code != tc.code || !strings.Contains(out+errs, tc.want) {
			t.Errorf("%s: exit %d, %s%s; want %d and %q", tc.name, code, out, errs, tc.code, tc.want)
		}
		if _, err := os.Stat(stamp); (err == nil) != tc.stamp {
			t.Errorf("%s: stamp written %v, want %v", tc.name, err == nil, tc.stamp)
		}
	}
}
