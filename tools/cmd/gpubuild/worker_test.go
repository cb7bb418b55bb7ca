package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/params"
)

// As a persistent worker, gpubuild runs each request as the command line it completes, one after
// another in one process: a failing request fails alone, with its messages in its response.
func TestWorker(t *testing.T) {
	dir := t.TempDir()
	ptx, bad := writeSource(t, "k.ptx", testPTX), writeSource(t, "bad.ptx", "not PTX")
	want := filepath.Join(dir, "want.fatbin")
	if code, _, errs := gpubuild(t, "link", "--target", "//:k", "-o", want, ptx); code != 0 {
		t.Fatalf("link: %s", errs)
	}
	// Each request's arguments are its parameter file, as Bazel sends them.
	n := 0
	request := func(lines ...string) string {
		n++
		f := writeSource(t, fmt.Sprintf("%d.params", n), strings.Join(lines, "\n")+"\n")
		b, _ := json.Marshal(workRequest{Arguments: []string{params.WorkerFlag + f}})
		return string(b) + "\n"
	}
	out1, out3 := filepath.Join(dir, "1.fatbin"), filepath.Join(dir, "3.fatbin")
	requests := request("--target", "//:one", "-o", out1, ptx) +
		request("--target", "//:two", "-o", filepath.Join(dir, "2.fatbin"), bad) +
		request("--target", "//:three", "-o", out3, ptx)
	var responses, stderr bytes.Buffer
	if code := serve(context.Background(), []string{"link", workerFlag}, strings.NewReader(requests), &responses, &stderr); code != 0 {
		t.Fatalf("serve: exit %d: %s", code, stderr.String())
	}
	dec := json.NewDecoder(&responses)
	for i, check := range []func(workResponse) bool{
		func(r workResponse) bool { return r.ExitCode == 0 && r.Output == "" },
		func(r workResponse) bool {
			return r.ExitCode == 1 && strings.HasPrefix(r.Output, "gpubuild link: //:two: ")
		},
		func(r workResponse) bool { return r.ExitCode == 0 && r.Output == "" },
	} {
		var r workResponse
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
			t.Errorf("%s: not the fatbin gpubuild link writes", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "2.fatbin")); err == nil {
		t.Error("the failing request left an output")
	}

	// A request that is not JSON ends the worker with status 1 and a message.
	stderr.Reset()
	if code := serve(context.Background(), []string{"link", workerFlag}, strings.NewReader("{not json"), &responses, &stderr); code != 1 || !strings.Contains(stderr.String(), "reading a work request") {
		t.Errorf("serve of a bad request: exit %d, stderr %q", code, stderr.String())
	}
}
