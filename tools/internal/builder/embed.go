package builder

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/embed"
)

const embedUsage = `usage: gpubuild embed --lang go --package NAME --go-out FILE.go --copy-to FILE [--target L --format F --chips C] ARTIFACT
       gpubuild embed --lang c --symbol NAME --h-out FILE.h --include PATH --c-out FILE.c [--target L --format F --chips C] ARTIFACT
  Go: a Go file that carries ARTIFACT (copied beside it, for //go:embed). C: a header and a source
  whose bytes are ARTIFACT, aligned and NUL-terminated for cuModuleLoadData. The outputs are written
  together: an error leaves every regular file as it was.`

// runEmbed writes a Go file, or a C header and source, that carry an artifact in a host program.
func runEmbed(_ context.Context, env cmdline.Env, args []string) error {
	var o cmdline.Common
	c := env.Command("embed", embedUsage)
	o.Register(c, "")
	lang := c.String("lang", "", "the language (`LANG`): go (a Go file and the artifact beside it) or c (a C header and source)")
	format := c.String("format", "", "the gpu_module's `FORMAT`, written into the files")
	chips := c.String("chips", "", "the gpu_module's `CHIPS`, comma-separated, written into the files")
	pkg := c.String("package", "", "go: the package `NAME`")
	goOut := c.String("go-out", "", "go: the Go `FILE` to write")
	copyTo := c.String("copy-to", "", "go: where to copy the artifact (a `FILE` beside the Go file)")
	symbol := c.String("symbol", "", "c: the C symbol (`NAME`) of the bytes")
	hOut := c.String("h-out", "", "c: the header `FILE` to write")
	include := c.String("include", "", "c: the `PATH` by which the source includes the header")
	cOut := c.String("c-out", "", "c: the C source `FILE` to write")
	files, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	switch {
	case *lang != "go" && *lang != "c":
		return c.UsageError("--lang %q: use go or c", *lang)
	case len(files) != 1:
		return c.UsageError("one artifact, please (have %d)", len(files))
	case *lang == "go" && (*goOut == "" || *copyTo == "" || *pkg == ""):
		return c.UsageError("--lang go needs --package, --go-out and --copy-to")
	case *lang == "c" && (*hOut == "" || *cOut == "" || *symbol == "" || *include == ""):
		return c.UsageError("--lang c needs --symbol, --h-out, --include and --c-out")
	}
	src := files[0]
	outs := map[string]string{"--copy-to": *copyTo, "--go-out": *goOut, "--h-out": *hOut, "--c-out": *cOut}
	if err := cmdline.CheckOutputs(outs, files); err != nil {
		return o.Wrap(err)
	}
	label := o.Target
	if label == "" {
		label = src
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return o.Wrap(err)
	}
	a, err := artifact.Parse(data)
	if err != nil {
		return o.Errorf("%s: %w", src, err)
	}
	kernels, err := a.Kernels()
	if err != nil {
		return o.Errorf("%s: %w", src, err)
	}
	var images []string
	for _, info := range artifact.Describe(a) {
		kind := map[string]string{"elf": "cubin", "ptx": "PTX", "nvvm": "NVVM IR"}[info.Kind]
		arch := info.Arch
		if info.Kind != "elf" {
			arch = strings.Replace(arch, "sm_", "compute_", 1)
		}
		images = append(images, arch+" "+kind)
	}
	spec := embed.Artifact{Label: label, Format: *format, Images: images, Kernels: kernels, Data: data}
	if *chips != "" {
		spec.Chips = strings.Split(*chips, ",")
	}
	if *lang == "go" {
		spec.File = filepath.Base(*copyTo)
		var b bytes.Buffer
		if err := embed.Go(&b, *pkg, spec); err != nil {
			return o.Wrap(err)
		}
		return o.Wrap(atomicfile.WriteAll(atomicfile.File{Path: *copyTo, Data: data}, atomicfile.File{Path: *goOut, Data: b.Bytes()}))
	}
	spec.File = filepath.Base(src)
	var h, cs bytes.Buffer
	if err := embed.C(&h, &cs, *include, *symbol, spec); err != nil {
		return o.Wrap(err)
	}
	return o.Wrap(atomicfile.WriteAll(atomicfile.File{Path: *hOut, Data: h.Bytes()}, atomicfile.File{Path: *cOut, Data: cs.Bytes()}))
}
