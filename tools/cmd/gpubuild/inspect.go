package main

import (
	"context"
	"encoding/json"

	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
)

const inspectUsage = `usage: gpubuild inspect [--json] FILE...
  FILE is a fatbin, a cubin, PTX, or MLIR holding gpu.binary ops (mlir-opt's gpu-module-to-binary).`

// runInspect lists the images of fatbins, cubins and PTX files.
func runInspect(_ context.Context, env cmdline.Env, args []string) error {
	c := env.Command("inspect", inspectUsage)
	asJSON := c.Bool("json", false, "print one JSON object per image, one per line")
	files, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return c.UsageError("no file to inspect")
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
		return artifact.WriteTable(env.Stdout, infos)
	}
	enc := json.NewEncoder(env.Stdout)
	for _, in := range infos {
		if err := enc.Encode(in); err != nil {
			return err
		}
	}
	return nil
}
