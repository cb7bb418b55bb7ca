package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/buildfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
)

const chipsUsage = `usage: gpubuild chips [--repo DIR] [--json] [PATTERN...]                 list gpu_module targets
       gpubuild chips [--repo DIR] [--dry-run] --set sm_80,sm_90 PATTERN...   make their chips exactly these
       gpubuild chips [--repo DIR] [--dry-run] --add sm_100 PATTERN...        add chips
       gpubuild chips [--repo DIR] [--dry-run] --remove sm_75 PATTERN...      remove chips
       gpubuild chips [--repo DIR] [--dry-run] --toolkit 13.0 [PATTERN...]    replace the chips a toolkit cannot compile
  PATTERN is //..., //pkg/..., //pkg:all or //pkg:name; without one, //... (listing and --toolkit only).
  --repo defaults to $BUILD_WORKSPACE_DIRECTORY (set by bazel run), else the repository around the
  current directory.`

// runChips lists and edits the chips of the gpu_module targets (and cuda_library, gpu_binary,
// gpu_test) in a repository's BUILD files.
func runChips(_ context.Context, env cmdline.Env, args []string) error {
	c := env.Command("chips", chipsUsage)
	repoDir := c.String("repo", "", "the repository root `DIR` (default: $BUILD_WORKSPACE_DIRECTORY, else the repository around the current directory)")
	asJSON := c.Bool("json", false, "list: print one JSON object per target, one per line")
	edits := map[string]*string{
		"set":    c.String("set", "", "comma-separated `CHIPS`: make the targets' chips exactly these"),
		"add":    c.String("add", "", "comma-separated `CHIPS` to add"),
		"remove": c.String("remove", "", "comma-separated `CHIPS` to remove"),
	}
	toolkit := c.String("toolkit", "", "a CUDA `VERSION`, e.g. 13.0: replace the chips it cannot compile")
	dryRun := c.Bool("dry-run", false, "edits: print the changes, write nothing")
	patterns, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	usage := func(why string) error { return c.UsageError("%s", why) }
	op := ""
	for _, name := range []string{"set", "add", "remove", "toolkit"} {
		if name == "toolkit" && *toolkit == "" || name != "toolkit" && *edits[name] == "" {
			continue
		}
		if op != "" {
			return usage(fmt.Sprintf("--%s and --%s: one edit at a time", op, name))
		}
		op = name
	}
	switch {
	case op == "" && *dryRun:
		return usage("--dry-run goes with an edit (--set, --add, --remove or --toolkit)")
	case op != "" && *asJSON:
		return usage("--json goes with listing, not with --" + op)
	case op != "" && op != "toolkit" && len(patterns) == 0:
		return usage(fmt.Sprintf("--%s needs the targets to edit: //pkg:name, //pkg:all, //pkg/... or //...", op))
	}
	// The edit's arguments are checked before any BUILD file is read.
	var chips []string
	var tk chip.Toolkit
	if op == "toolkit" {
		if tk, err = chip.ParseToolkit(*toolkit); err != nil {
			return fmt.Errorf("--toolkit: %w", err)
		}
		if _, err := tk.NewestPTX(); err != nil { // a CUDA version the chip table does not cover
			return fmt.Errorf("--toolkit: %w", err)
		}
	} else if op != "" {
		if chips, err = splitChips(op, *edits[op]); err != nil {
			return err
		}
	}

	root, err := repoRoot(*repoDir)
	if err != nil {
		return err
	}
	repo, err := buildfile.Open(root)
	if err != nil {
		return err
	}
	targets, skipped, err := repo.Find(patterns)
	if err != nil {
		return err
	}
	if err := chipsOp(repo, op, patterns, chips, tk, targets, *asJSON, *dryRun, env.Stdout); err != nil {
		return err
	}
	for _, s := range skipped {
		fmt.Fprintf(env.Stderr, "gpubuild chips: note: %s\n", s)
	}
	return nil
}

// chipsOp lists targets (op "") or makes the edit op and prints what it did.
func chipsOp(repo *buildfile.Repo, op string, patterns, chips []string, tk chip.Toolkit, targets []buildfile.Target, asJSON, dryRun bool, stdout io.Writer) error {
	var report []fmt.Stringer
	switch op {
	case "":
		if !asJSON {
			return buildfile.WriteTable(stdout, targets)
		}
		enc := json.NewEncoder(stdout)
		for _, t := range targets {
			if err := enc.Encode(t); err != nil {
				return err
			}
		}
		return nil
	case "toolkit":
		changes, err := repo.Retarget(patterns, tk)
		if err != nil {
			return err
		}
		if len(changes) == 0 {
			fmt.Fprintf(stdout, "CUDA %s compiles every chip of the %s; nothing to change\n", tk, plural(len(targets), "target"))
			return nil
		}
		for _, c := range changes {
			report = append(report, c)
		}
	default:
		edit := map[string]func([]string, []string) ([]buildfile.Edit, error){"set": repo.Set, "add": repo.Add, "remove": repo.Remove}[op]
		edits, err := edit(patterns, chips)
		if err != nil {
			return err
		}
		for _, e := range edits {
			report = append(report, e)
		}
	}
	for _, r := range report {
		fmt.Fprintln(stdout, r)
	}
	if dryRun {
		fmt.Fprintln(stdout, "dry run: nothing written")
		return nil
	}
	written, err := repo.Write()
	for _, w := range written {
		fmt.Fprintf(stdout, "wrote %s\n", w)
	}
	if err == nil && len(written) == 0 {
		fmt.Fprintln(stdout, "no BUILD file changed")
	}
	return err
}

// splitChips reads a comma-separated chip list, as every command line does (chip.ParseList).
func splitChips(op, s string) ([]string, error) {
	list, err := chip.ParseList(s, "--"+op)
	if err != nil {
		return nil, err
	}
	chips := make([]string, len(list))
	for i, c := range list {
		chips[i] = c.String()
	}
	return chips, nil
}

// repoRoot is the repository to work on: --repo, else $BUILD_WORKSPACE_DIRECTORY (bazel run sets it to
// the workspace it ran in), else the repository around the current directory.
func repoRoot(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if dir := os.Getenv("BUILD_WORKSPACE_DIRECTORY"); dir != "" {
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root, err := buildfile.FindRoot(wd)
	if err != nil {
		return "", fmt.Errorf("%w; pass --repo DIR", err)
	}
	return root, nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
