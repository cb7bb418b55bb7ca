package builder

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
)

const checkUsage = `usage: gpubuild check --runs-on sm_75,sm_90 [--driver 13.0] [--json] [--together] [--modules] [--stamp FILE] FILE...
  Says, for each FILE (fatbin, cubin, PTX) and runner, whether it loads there, how, or why not and
  the fix; fails when one does not load. With --modules, the FILEs are the modules of a program,
  which may have none (a program that only calls GPU libraries).`

// runCheck says whether artifacts load on runner chips (and drivers), and why not.
func runCheck(_ context.Context, env cmdline.Env, args []string) error {
	var o cmdline.Common
	c := env.Command("check", checkUsage)
	o.Register(c, "")
	runsOn := c.String("runs-on", "", "the runner `CHIPS`, comma-separated, e.g. sm_75,sm_90")
	driver := c.String("driver", "", "the runners' driver CUDA `VERSION`, e.g. 13.0 (default: one that knows every PTX ISA)")
	asJSON := c.Bool("json", false, "print one JSON object per file and runner")
	together := c.Bool("together", false, "judge all files as one artifact (one cubin per chip, the program loads the one that fits)")
	stamp := c.String("stamp", "", "write this `FILE` when every check passes (a Bazel validation output)")
	mods := c.Bool("modules", false, "the files are the modules of a program, which may have none")
	files, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	switch {
	case *runsOn == "":
		return c.UsageError("no runner: give --runs-on, e.g. --runs-on sm_75,sm_90")
	case len(files) == 0 && !*mods:
		return c.UsageError("no file to check")
	}
	runners, err := artifact.ParseRunners(*runsOn, *driver)
	if err != nil {
		return o.Wrap(err)
	}
	var arts []*artifact.Artifact
	for _, path := range files {
		// Open reads every image whole: a file it refuses is never judged, let alone said to load.
		a, err := artifact.Open(path)
		if err != nil {
			if artifact.SaysFix(err) {
				return o.Wrap(err)
			}
			return o.Errorf("%w (the file is damaged or not a fatbin, cubin or PTX file: rebuild it)", err)
		}
		arts = append(arts, a)
	}
	if *together && len(arts) > 0 {
		arts = []*artifact.Artifact{artifact.Join(arts)}
	}
	if len(arts) == 0 {
		fmt.Fprintf(env.Stdout, "OK   the program has no modules of its own: nothing to load on %s\n", *runsOn)
	}
	failed := 0
	enc := json.NewEncoder(env.Stdout)
	for _, a := range arts {
		for _, v := range artifact.Check(a, runners) {
			if !v.Loads {
				failed++
			}
			if *asJSON {
				if err := enc.Encode(v); err != nil {
					return err
				}
			} else {
				fmt.Fprintln(env.Stdout, v)
			}
		}
	}
	if failed > 0 {
		return o.Errorf("%d of %d checks fail: the artifact cannot load on every declared runner", failed, len(arts)*len(runners))
	}
	if *stamp != "" {
		return o.Wrap(atomicfile.Write(*stamp, []byte("ok\n")))
	}
	return nil
}
