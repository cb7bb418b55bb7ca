package builder

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
	"github.com/rulesgpu/rules_gpu/tools/internal/modules"
	"github.com/rulesgpu/rules_gpu/tools/kinds"
)

const linkUsage = `usage: gpubuild link -o OUT.fatbin [--compress none|lz4|zstd] [--compress-all] [--ident ID] [--ptx-options OPTS] [CHIP=]FILE...
  FILE is a cubin or PTX; CHIP (sm_80, compute_75) overrides the architecture read from the file.
  OUT "-" is standard output.
  With --program, each FILE is a directory of a program's modules for one chip (NAME.cubin,
  NAME.ptx: what compile --program wrote), and OUT a directory: each module's images, one from
  every directory, become OUT/NAME.fatbin.`

// runLink joins cubins and PTX into one fatbin, deterministically.
func runLink(_ context.Context, env cmdline.Env, args []string) error {
	var o cmdline.Common
	c := env.Command("link", linkUsage)
	o.Register(c, "the fatbin `OUT` to write; - for standard output")
	compress := c.String("compress", "lz4", "the compression (`KIND`) of PTX images: none, lz4 or zstd")
	all := c.Bool("compress-all", false, "compress cubins too")
	ident := c.String("ident", "", "the identifier (`ID`) stored in every entry")
	ptxOpts := c.String("ptx-options", "", "ptxas `OPTIONS` stored with PTX images, used when the driver JIT-compiles them")
	program := c.Bool("program", false, "link each module of a program (see above): FILEs and OUT are directories")
	files, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	switch {
	case o.Out == "":
		return c.UsageError("no output: give -o OUT.fatbin (- for standard output)")
	case len(files) == 0:
		return c.UsageError("no image to link")
	}
	var inputs []string
	for _, spec := range files {
		_, path, ok := strings.Cut(spec, "=")
		if !ok {
			path = spec
		}
		inputs = append(inputs, path)
	}
	if err := o.CheckOut(inputs...); err != nil {
		return err
	}
	comp, err := artifact.ParseCompression(*compress)
	if err != nil {
		return o.Wrap(err)
	}
	opts := artifact.LinkOptions{Compression: comp, CompressAll: *all, Identifier: *ident, PTXOptions: *ptxOpts}
	if *program {
		return o.Wrap(linkProgram(files, o.Out, opts))
	}
	var images []fatbin.Entry
	for _, spec := range files {
		var arch uint32
		path := spec
		if k, v, ok := strings.Cut(spec, "="); ok {
			ch, err := chip.Parse(k)
			if err != nil {
				return o.Errorf("image %s: %w", spec, err)
			}
			arch, path = uint32(ch.Number()), v
		}
		e, err := artifact.ReadImage(path, arch)
		if err != nil {
			return o.Wrap(err)
		}
		images = append(images, e)
	}
	data, err := artifact.Link(images, opts)
	if err != nil {
		return o.Wrap(err)
	}
	return o.Write(env.Stdout, data)
}

// linkProgram links each module of a program: the files named NAME.* in dirs (one per directory,
// in the directories' order) into out/NAME.fatbin. Every directory must hold the same modules.
// The fatbins appear together, or none.
func linkProgram(dirs []string, out string, opts artifact.LinkOptions) error {
	names, paths, err := modules.Join(dirs, compile.FormatBin.Extension(), compile.FormatISA.Extension())
	if err != nil {
		return err
	}
	var files []atomicfile.File
	for i, name := range names {
		var images []fatbin.Entry
		for _, path := range paths[i] {
			e, err := artifact.ReadImage(path, 0)
			if err != nil {
				return err
			}
			images = append(images, e)
		}
		data, err := artifact.Link(images, opts)
		if err != nil {
			return fmt.Errorf("module %s: %w", name, err)
		}
		files = append(files, atomicfile.File{Path: filepath.Join(out, name+kinds.Fatbin.Extension()), Data: data})
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	return atomicfile.WriteAll(files...)
}
