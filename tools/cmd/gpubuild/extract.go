package main

import (
	"context"
	"fmt"

	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
)

const extractUsage = `usage: gpubuild extract [-o DIR] FILE
  Writes each image of FILE (a fatbin, or MLIR holding gpu.binary ops) to DIR, decompressed, named
  as cuobjdump names them (k.1.sm_90.cubin, k.1.sm_90.ptx), and prints their paths.`

// runExtract writes each image of a fatbin to a file.
func runExtract(_ context.Context, env cmdline.Env, args []string) error {
	var o cmdline.Common
	c := env.Command("extract", extractUsage)
	o.Register(c, "the directory `DIR` to write the images into (default .)")
	files, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	switch {
	case len(files) != 1:
		return c.UsageError("one file, please (have %d)", len(files))
	case o.Out == "-":
		return c.UsageError("-o -: extract writes a file per image; -o names their directory")
	case o.Out == "":
		o.Out = "."
	}
	a, err := artifact.Open(files[0])
	if err != nil {
		return o.Wrap(err)
	}
	paths, err := artifact.Extract(a, o.Out)
	for _, p := range paths {
		fmt.Fprintln(env.Stdout, p)
	}
	return o.Wrap(err)
}
