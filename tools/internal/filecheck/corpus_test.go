package filecheck

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus/*.out from FileCheck-21's verdicts and diagnostics")

// The corpus: testdata/corpus/NAME.check is a check file, NAME.input its input, NAME.args
// FileCheck's options (one a line), NAME.out what FileCheck-21 says (its exit status, then its
// diagnostics), and NAME.mine, where this package differs on purpose, what it says instead.

type corpusCase struct {
	name, check, input string
	args               []string
}

func corpus(t *testing.T) []corpusCase {
	t.Helper()
	checks, err := filepath.Glob("testdata/corpus/*.check")
	if err != nil || len(checks) < 40 {
		t.Fatalf("the corpus has %d check files (%v), want at least 40", len(checks), err)
	}
	var cases []corpusCase
	for _, check := range checks {
		base := strings.TrimSuffix(check, ".check")
		c := corpusCase{name: filepath.Base(base), check: check, input: base + ".input"}
		if data, err := os.ReadFile(base + ".args"); err == nil {
			c.args = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		}
		cases = append(cases, c)
	}
	return cases
}

// optionsOf reads FileCheck's options, as the corpus writes them (--name or --name=value).
func optionsOf(args []string) (Options, error) {
	var o Options
	for _, a := range args {
		name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "check-prefix":
			o.CheckPrefixes = append(o.CheckPrefixes, value)
		case "check-prefixes":
			o.CheckPrefixes = append(o.CheckPrefixes, strings.Split(value, ",")...)
		case "comment-prefixes":
			o.CommentPrefixes = append(o.CommentPrefixes, strings.Split(value, ",")...)
		case "implicit-check-not":
			o.ImplicitCheckNot = append(o.ImplicitCheckNot, value)
		case "strict-whitespace":
			o.StrictWhitespace = true
		case "match-full-lines":
			o.MatchFullLines = true
		case "ignore-case":
			o.IgnoreCase = true
		case "allow-unused-prefixes":
			o.AllowUnusedPrefixes = true
		case "enable-var-scope":
			o.EnableVarScope = true
		case "allow-empty":
			o.AllowEmpty = true
		default:
			return o, fmt.Errorf("unknown option %s", a)
		}
	}
	return o, nil
}

// check runs this package as the FileCheck command line would: its exit status and diagnostics.
func (c corpusCase) ours(t *testing.T) string {
	t.Helper()
	o, err := optionsOf(c.args)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(c.check)
	if err != nil {
		t.Fatal(err)
	}
	input, err := os.ReadFile(c.input)
	if err != nil {
		t.Fatal(err)
	}
	checks, err := Parse(c.check, data, o)
	if err == nil {
		err = checks.Match(c.input, input)
	}
	var fe *Error
	switch {
	case err == nil:
		return "status 0\n"
	case errors.As(err, &fe):
		return fmt.Sprintf("status %d\n%s", fe.Status, fe.Diagnostics)
	}
	t.Fatal(err)
	return ""
}

// fileCheck runs FileCheck-21: its exit status and diagnostics.
func (c corpusCase) fileCheck(t *testing.T, fc string) string {
	t.Helper()
	cmd := exec.Command(fc, append(append([]string{}, c.args...), "--dump-input=never", "--input-file", c.input, c.check)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	status := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		status = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	// Its command line, which it prints after some errors, names it by its path: left out.
	var lines []string
	for _, l := range strings.SplitAfter(stderr.String(), "\n") {
		if !strings.HasPrefix(l, "FileCheck command line:") {
			lines = append(lines, l)
		}
	}
	return fmt.Sprintf("status %d\n%s", status, strings.Join(lines, ""))
}

// Each corpus case gives what FileCheck-21 gives (NAME.out), or what NAME.mine says where this
// package differs on purpose.
func TestCorpus(t *testing.T) {
	for _, c := range corpus(t) {
		t.Run(c.name, func(t *testing.T) {
			got := c.ours(t)
			wantFile := strings.TrimSuffix(c.check, ".check") + ".mine"
			want, err := os.ReadFile(wantFile)
			if errors.Is(err, os.ErrNotExist) {
				wantFile = strings.TrimSuffix(c.check, ".check") + ".out"
				want, err = os.ReadFile(wantFile)
			}
			if err != nil {
				t.Fatalf("%v (FileCheck-21 writes it: go test ./tools/internal/filecheck -run Differential -update)", err)
			}
			if got != string(want) {
				t.Errorf("differs from %s\n--- got\n%s--- want\n%s", wantFile, got, want)
			}
		})
	}
}

// The corpus's NAME.out files are what FileCheck-21 says; where this package differs on purpose
// (NAME.mine), the verdict is still FileCheck's.
func TestDifferential(t *testing.T) {
	fc := testtool.Find(t, "FILECHECK", "FileCheck-21")
	pass, fail := 0, 0
	for _, c := range corpus(t) {
		t.Run(c.name, func(t *testing.T) {
			theirs := c.fileCheck(t, fc)
			out := strings.TrimSuffix(c.check, ".check") + ".out"
			if *update {
				if err := os.WriteFile(out, []byte(theirs), 0o644); err != nil {
					t.Fatal(err)
				}
			} else if want, err := os.ReadFile(out); err != nil || string(want) != theirs {
				t.Errorf("%s is not what FileCheck-21 says (go test -run Differential -update rewrites it)\n--- FileCheck-21\n%s", out, theirs)
			}
			ours := c.ours(t)
			if passed := strings.HasPrefix(theirs, "status 0\n"); passed != strings.HasPrefix(ours, "status 0\n") {
				t.Errorf("FileCheck-21 and this package disagree\n--- FileCheck-21\n%s--- this package\n%s", theirs, ours)
			} else if passed {
				pass++
			} else {
				fail++
			}
		})
	}
	t.Logf("%d cases: FileCheck-21 and this package agree that %d pass and %d fail", pass+fail, pass, fail)
}
