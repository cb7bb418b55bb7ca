package main

import (
	"context"
	"fmt"
	"io"

	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
)

const extractUsage = `usage: gpubuild extract [-o DIR] FILE
  Writes each image of FILE (a fatbin, or MLIR holding gpu.binary ops) to DIR, decompressed, named
  as cuobjdump names them (k.1.sm_90.cubin, k.1.sm_90.ptx), and prints their paths.`

// runExtract writes each image of a fatbin to a file.
func runExtract(_ context.Context, args []string, stdout, stderr io.Writer) error {
	var o common
	c := newCommand("extract", extractUsage, stdout, stderr)
	o.register(c, "the directory `DIR` to write the images into (default .)")
	files, err := c.parse(args, nil)
	if err != nil {
		return err
	}
	switch {
	case len(files) != 1:
		return c.usageError("one file, please (have %d)", len(files))
	case o.out == "-":
		return c.usageError("-o -: extract writes a file per image; -o names their directory")
	case o.out == "":
		o.out = "."
	}
	a, err := artifact.Open(files[0])
	if err != nil {
		return o.wrap(err)
	}
	paths, err := artifact.Extract(a, o.out)
	for _, p := range paths {
		fmt.Fprintln(stdout, p)
	}
	return o.wrap(err)
}
