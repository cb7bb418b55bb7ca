package builder

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/symvers"
)

const abiUsage = `usage: gpubuild abi [--runners-have GLIBC_2.39,GLIBCXX_3.4.33[,libcublas.so.13...]] [--shipped LIB]... [--stamp FILE] PROGRAM
  Prints the newest version of each system library family (GLIBC, GLIBCXX, ...) that PROGRAM needs,
  and the shared libraries it needs; with --runners-have, fails when it needs a newer version than
  the machines that run it have, or a shared library beyond the C and C++ runtime and the driver's
  libcuda.so.1 that the list does not name. A shared library given with --shipped travels with the
  program (in its runfiles, found through its RPATH): the program may need it, and what it needs
  itself is checked as the program's own.`

// runABI says which glibc and libstdc++ versions a program needs, and whether its runners have them.
func runABI(_ context.Context, env cmdline.Env, args []string) error {
	var o cmdline.Common
	c := env.Command("abi", abiUsage)
	o.Register(c, "")
	have := c.String("runners-have", "", "what the runners have, comma-separated (`LIST`): the newest version of each family, e.g. GLIBC_2.39,GLIBCXX_3.4.33, and the shared libraries beyond the C and C++ runtime and the driver, e.g. libcublas.so.13")
	stamp := c.String("stamp", "", "write the report to this `FILE`, not to standard output, when the check passes (a Bazel output)")
	var shipped cmdline.MultiFlag
	c.Var(&shipped, "shipped", "a shared library (`LIB`) that travels with the program, in its runfiles (repeatable)")
	files, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return c.UsageError("give one program")
	}
	var runners []symvers.Version
	var runnerLibs []string
	declared := false
	for _, s := range strings.Split(*have, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		declared = true
		if symvers.IsLibrary(s) {
			runnerLibs = append(runnerLibs, s)
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
	libs, err := symvers.Libraries(files[0])
	if err != nil {
		return o.Errorf("%w", err)
	}
	var ships []string
	for _, lib := range shipped {
		name, err := symvers.Soname(lib)
		if err != nil {
			return o.Errorf("--shipped: %w", err)
		}
		own, err := symvers.Read(lib)
		if err != nil {
			return o.Errorf("--shipped: %w", err)
		}
		needs = symvers.Merge(needs, own, name)
		more, err := symvers.Libraries(lib)
		if err != nil {
			return o.Errorf("--shipped: %w", err)
		}
		ships = append(ships, name)
		for _, m := range more {
			if !slices.Contains(libs, m) {
				libs = append(libs, m)
			}
		}
	}
	libs = slices.DeleteFunc(libs, func(l string) bool { return slices.Contains(ships, l) })
	var report strings.Builder
	for _, n := range needs {
		fmt.Fprintf(&report, "%s needs %s (%s)\n", files[0], n.Version, n.Library)
	}
	fmt.Fprintf(&report, "%s needs the shared libraries %s\n", files[0], strings.Join(libs, ", "))
	if len(ships) > 0 {
		fmt.Fprintf(&report, "%s ships %s (in its runfiles)\n", files[0], strings.Join(ships, ", "))
	}
	if *stamp == "" {
		io.WriteString(env.Stdout, report.String())
	}
	if problems := symvers.Check(needs, runners); problems != nil {
		return o.Errorf("%s cannot start on the runners: it %s; fix: build it against an older C library (a sysroot as old as the runners', given to the C++ toolchain with --sysroot), or declare runners that have it (--@rules_gpu//gpu:runners_have)", files[0], strings.Join(problems, "; it "))
	}
	if !declared {
		libs = nil // nothing is declared of the runners: no library to check against
	}
	if problems := symvers.CheckLibraries(libs, runnerLibs); problems != nil {
		return o.Errorf("%s cannot start on the runners: it %s; fix: link it statically (the CUDA toolkit's libraries and runtime are, unless --@rules_gpu//gpu:toolkit_libraries=shared or --@rules_gpu//gpu:cudart=shared), or declare that the runners have it: add it to --@rules_gpu//gpu:runners_have", files[0], strings.Join(problems, "; it "))
	}
	if *stamp != "" {
		return o.Wrap(atomicfile.Write(*stamp, []byte(report.String())))
	}
	return nil
}
