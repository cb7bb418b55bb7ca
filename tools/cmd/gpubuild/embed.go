package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/embed"
)

func runEmbed(_ context.Context, args []string, _, stderr io.Writer) error {
	fs := flag.NewFlagSet("embed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lang := fs.String("lang", "", "go (a Go file and the artifact beside it) or c (a C header and source)")
	target := fs.String("target", "", "the gpu_module's Bazel label, written into the files")
	format := fs.String("format", "", "the gpu_module's format")
	chips := fs.String("chips", "", "the gpu_module's chips, comma-separated")
	pkg := fs.String("package", "", "go: the package name")
	goOut := fs.String("go-out", "", "go: the Go file to write")
	copyTo := fs.String("copy-to", "", "go: where to copy the artifact (beside the Go file)")
	symbol := fs.String("symbol", "", "c: the C symbol of the bytes")
	hOut := fs.String("h-out", "", "c: the header to write")
	include := fs.String("include", "", "c: the path by which the source includes the header")
	cOut := fs.String("c-out", "", "c: the C source to write")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	usage := "usage: gpubuild embed --lang go --package NAME --go-out FILE.go --copy-to FILE [--target L --format F --chips C] ARTIFACT\n" +
		"       gpubuild embed --lang c --symbol NAME --h-out FILE.h --include PATH --c-out FILE.c [--target L --format F --chips C] ARTIFACT"
	if fs.NArg() != 1 || (*lang == "go" && (*goOut == "" || *copyTo == "" || *pkg == "")) ||
		(*lang == "c" && (*hOut == "" || *cOut == "" || *symbol == "" || *include == "")) || (*lang != "go" && *lang != "c") {
		fmt.Fprintln(stderr, usage)
		return errUsage
	}
	src := fs.Arg(0)
	name := *target
	if name == "" {
		name = src
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	a, err := artifact.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", name, src, err)
	}
	kernels, err := a.Kernels()
	if err != nil {
		return fmt.Errorf("%s: %s: %w", name, src, err)
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
	spec := embed.Artifact{Label: name, Format: *format, Images: images, Kernels: kernels, Data: data}
	if *chips != "" {
		spec.Chips = strings.Split(*chips, ",")
	}
	if *lang == "go" {
		spec.File = filepath.Base(*copyTo)
		var b bytes.Buffer
		if err := embed.Go(&b, *pkg, spec); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := artifact.WriteFileAtomic(*copyTo, data); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := artifact.WriteFileAtomic(*goOut, b.Bytes()); err != nil {
			os.Remove(*copyTo)
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	spec.File = filepath.Base(src)
	var h, c bytes.Buffer
	if err := embed.C(&h, &c, *include, *symbol, spec); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := artifact.WriteFileAtomic(*hOut, h.Bytes()); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := artifact.WriteFileAtomic(*cOut, c.Bytes()); err != nil {
		os.Remove(*hOut)
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
