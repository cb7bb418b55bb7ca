package builder

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/symvers"
)

const abiUsage = `usage: gpubuild abi [--runners-have GLIBC_2.39,GLIBCXX_3.4.33] [--stamp FILE] PROGRAM
  Prints the newest version of each system library family (GLIBC, GLIBCXX, ...) that PROGRAM needs;
  with --runners-have, fails when it needs a newer one than the machines that run it have.`

// runABI says which glibc and libstdc++ versions a program needs, and whether its runners have them.
func runABI(_ context.Context, env cmdline.Env, args []string) error {
	var o cmdline.Common
	c := env.Command("abi", abiUsage)
	o.Register(c, "")
	have := c.String("runners-have", "", "the newest `VERSIONS` the runners have, comma-separated, e.g. GLIBC_2.39,GLIBCXX_3.4.33")
	stamp := c.String("stamp", "", "write the report to this `FILE`, not to standard output, when the check passes (a Bazel output)")
	files, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return c.UsageError("give one program")
	}
	var runners []symvers.Version
	for _, s := range strings.Split(*have, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		v, err := symvers.Parse(s)
		if err != nil {
			return c.UsageError("--runners-have: %v", err)
		}
		runners = append(runners, v)
	}
	needs, err := symvers.Read(files[0])
	if err != nil {
		return o.Errorf("%w", err)
	}
	var report strings.Builder
	for _, n := range needs {
		fmt.Fprintf(&report, "%s needs %s (%s)\n", files[0], n.Version, n.Library)
	}
	if *stamp == "" {
		io.WriteString(env.Stdout, report.String())
	}
	if problems := symvers.Check(needs, runners); problems != nil {
		return o.Errorf("%s cannot start on the runners: it %s; fix: build it against an older C library (a sysroot as old as the runners', given to the C++ toolchain with --sysroot), or declare runners that have it (--@rules_gpu//gpu:runners_have)", files[0], strings.Join(problems, "; it "))
	}
	if *stamp != "" {
		return o.Wrap(atomicfile.Write(*stamp, []byte(report.String())))
	}
	return nil
}
