package main

import (
	"context"
	"encoding/json"
	"io"

	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
)

const inspectUsage = `usage: gpubuild inspect [--json] FILE...
  FILE is a fatbin, a cubin, PTX, or MLIR holding gpu.binary ops (mlir-opt's gpu-module-to-binary).`

// runInspect lists the images of fatbins, cubins and PTX files.
func runInspect(_ context.Context, args []string, stdout, stderr io.Writer) error {
	c := newCommand("inspect", inspectUsage, stdout, stderr)
	asJSON := c.Bool("json", false, "print one JSON object per image, one per line")
	files, err := c.parse(args, nil)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return c.usageError("no file to inspect")
	}
	var infos []artifact.Info
	for _, path := range files {
		a, err := artifact.Open(path)
		if err != nil {
			return err
		}
		infos = append(infos, artifact.Describe(a)...)
	}
	if !*asJSON {
		return artifact.WriteTable(stdout, infos)
	}
	enc := json.NewEncoder(stdout)
	for _, in := range infos {
		if err := enc.Encode(in); err != nil {
			return err
		}
	}
	return nil
}
