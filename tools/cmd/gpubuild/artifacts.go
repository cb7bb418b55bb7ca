package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/fatbin"
)

func runLink(_ context.Context, args []string, _, stderr io.Writer) error {
	fs := flag.NewFlagSet("link", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the fatbin to write")
	target := fs.String("target", "", "the Bazel label, for error messages")
	compress := fs.String("compress", "lz4", "compression for PTX images: none, lz4 or zstd")
	all := fs.Bool("compress-all", false, "compress cubins too")
	ident := fs.String("ident", "", "identifier stored in every entry")
	ptxOpts := fs.String("ptx-options", "", "ptxas options stored with PTX images, used when the driver JIT-compiles them")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if *out == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: gpubuild link -o OUT.fatbin [--compress none|lz4|zstd] [--compress-all] [--ident ID] [CHIP=]FILE...\n"+
			"  FILE is a cubin or PTX; CHIP (sm_80, compute_75) overrides the architecture read from the file")
		return errUsage
	}
	name := *target
	if name == "" {
		name = *out
	}
	c, err := artifact.ParseCompression(*compress)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var images []fatbin.Entry
	for _, spec := range fs.Args() {
		var arch uint32
		path := spec
		if k, v, ok := strings.Cut(spec, "="); ok {
			ch, err := chip.Parse(k)
			if err != nil {
				return fmt.Errorf("%s: image %s: %w", name, spec, err)
			}
			arch, path = uint32(ch.Number()), v
		}
		e, err := artifact.ReadImage(path, arch)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		images = append(images, e)
	}
	data, err := artifact.Link(images, artifact.LinkOptions{Compression: c, CompressAll: *all, Identifier: *ident, PTXOptions: *ptxOpts})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := artifact.WriteFileAtomic(*out, data); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func runInspect(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per image, one per line")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: gpubuild inspect [--json] FILE...")
		return errUsage
	}
	var infos []artifact.Info
	for _, path := range fs.Args() {
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

func runExtract(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("o", ".", "the directory to write into")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: gpubuild extract [-o DIR] FILE")
		return errUsage
	}
	a, err := artifact.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	paths, err := artifact.Extract(a, *dir)
	for _, p := range paths {
		fmt.Fprintln(stdout, p)
	}
	return err
}

func runCheck(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	runsOn := fs.String("runs-on", "", "comma-separated runner chips, e.g. sm_75,sm_90")
	driver := fs.String("driver", "", "the runners' driver CUDA version, e.g. 13.0 (default: assume it knows every PTX ISA)")
	asJSON := fs.Bool("json", false, "print one JSON object per file and runner")
	target := fs.String("target", "", "the Bazel label, for error messages")
	together := fs.Bool("together", false, "judge all files as one artifact (one cubin per chip, the program loads the one that fits)")
	stamp := fs.String("stamp", "", "write this file when every check passes (a Bazel validation output)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if *runsOn == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: gpubuild check --runs-on sm_75,sm_90 [--driver 13.0] [--json] [--together] [--stamp FILE] FILE...")
		return errUsage
	}
	prefix := ""
	if *target != "" {
		prefix = *target + ": "
	}
	runners, err := artifact.ParseRunners(*runsOn, *driver)
	if err != nil {
		return fmt.Errorf("%s%w", prefix, err)
	}
	var arts []*artifact.Artifact
	for _, path := range fs.Args() {
		a, err := artifact.Open(path)
		if err != nil {
			return fmt.Errorf("%s%w (the file is damaged or not a fatbin, cubin or PTX file: rebuild it)", prefix, err)
		}
		arts = append(arts, a)
	}
	if *together {
		arts = []*artifact.Artifact{artifact.Join(arts)}
	}
	failed := 0
	enc := json.NewEncoder(stdout)
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
				fmt.Fprintln(stdout, v)
			}
		}
	}
	if failed > 0 {
		return fmt.Errorf("%s%d of %d checks fail: the artifact cannot load on every declared runner", prefix, failed, len(arts)*len(runners))
	}
	if *stamp != "" {
		return artifact.WriteFileAtomic(*stamp, []byte("ok\n"))
	}
	return nil
}
