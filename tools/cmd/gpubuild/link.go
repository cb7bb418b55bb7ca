package main

import (
	"context"
	"io"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
)

const linkUsage = `usage: gpubuild link -o OUT.fatbin [--compress none|lz4|zstd] [--compress-all] [--ident ID] [--ptx-options OPTS] [CHIP=]FILE...
  FILE is a cubin or PTX; CHIP (sm_80, compute_75) overrides the architecture read from the file.
  OUT "-" is standard output.`

// runLink joins cubins and PTX into one fatbin, deterministically.
func runLink(_ context.Context, args []string, stdout, stderr io.Writer) error {
	var o common
	c := newCommand("link", linkUsage, stdout, stderr)
	o.register(c, "the fatbin `OUT` to write; - for standard output")
	compress := c.String("compress", "lz4", "the compression (`KIND`) of PTX images: none, lz4 or zstd")
	all := c.Bool("compress-all", false, "compress cubins too")
	ident := c.String("ident", "", "the identifier (`ID`) stored in every entry")
	ptxOpts := c.String("ptx-options", "", "ptxas `OPTIONS` stored with PTX images, used when the driver JIT-compiles them")
	files, err := c.parse(args, nil)
	if err != nil {
		return err
	}
	switch {
	case o.out == "":
		return c.usageError("no output: give -o OUT.fatbin (- for standard output)")
	case len(files) == 0:
		return c.usageError("no image to link")
	}
	comp, err := artifact.ParseCompression(*compress)
	if err != nil {
		return o.wrap(err)
	}
	var images []fatbin.Entry
	for _, spec := range files {
		var arch uint32
		path := spec
		if k, v, ok := strings.Cut(spec, "="); ok {
			ch, err := chip.Parse(k)
			if err != nil {
				return o.errorf("image %s: %w", spec, err)
			}
			arch, path = uint32(ch.Number()), v
		}
		e, err := artifact.ReadImage(path, arch)
		if err != nil {
			return o.wrap(err)
		}
		images = append(images, e)
	}
	data, err := artifact.Link(images, artifact.LinkOptions{Compression: comp, CompressAll: *all, Identifier: *ident, PTXOptions: *ptxOpts})
	if err != nil {
		return o.wrap(err)
	}
	return o.write(stdout, data)
}
