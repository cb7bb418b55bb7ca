package main

import (
	"context"
	"fmt"

	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/migrate"
)

const migrateUsage = `usage: gpubuild migrate [--dry-run] [DIR]
  Rewrite the repository DIR from rules_cuda to rules_gpu: the rules_cuda targets of its BUILD files
  (cuda_library, cuda_objects, cuda_test, cuda_binary), the flags of its .bazelrc and MODULE.bazel
  (rules_gpu's bazel_dep and toolchains added; rules_cuda's removed once nothing uses it).
  What cannot be translated is listed, FILE:LINE, with what to do, and left as it is; the rest is
  written (exit status 1 when anything is listed).
  DIR is the repository's root; default: $BUILD_WORKSPACE_DIRECTORY (set by bazel run), else the
  repository around the current directory.`

// runMigrate rewrites a repository that uses rules_cuda to use rules_gpu.
func runMigrate(_ context.Context, env cmdline.Env, args []string) error {
	c := env.Command("migrate", migrateUsage)
	dryRun := c.Bool("dry-run", false, "print the changes as a unified diff, and write nothing")
	dirs, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	if len(dirs) > 1 {
		return c.UsageError("one repository at a time: %q", dirs)
	}
	dir := ""
	if len(dirs) == 1 {
		dir = dirs[0]
	}
	root, err := repoRoot(dir)
	if err != nil {
		return err
	}
	res, err := migrate.Migrate(root, migrate.Options{DryRun: *dryRun})
	if err != nil {
		return err
	}
	if *dryRun {
		for _, ch := range res.Changes {
			fmt.Fprint(env.Stdout, ch.Diff())
		}
	}
	if err := res.WriteReport(env.Stdout); err != nil {
		return err
	}
	switch {
	case *dryRun:
		fmt.Fprintf(env.Stdout, "dry run: %s would change, nothing written\n", plural(len(res.Changes), "file"))
	case len(res.Written) == 0:
		fmt.Fprintln(env.Stdout, "nothing to change")
	}
	for _, w := range res.Written {
		fmt.Fprintf(env.Stdout, "wrote %s\n", w)
	}
	if n := len(res.Untranslated); n > 0 {
		done := "the rest is written"
		if *dryRun {
			done = "the rest would be written"
		}
		return fmt.Errorf("%s not translated (listed above, each with what to do); %s", plural(n, "item"), done)
	}
	return nil
}
