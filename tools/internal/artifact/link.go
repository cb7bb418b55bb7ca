package artifact

import (
	"fmt"
	"os"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
)

// LinkOptions says how images are stored in a fatbin.
type LinkOptions struct {
	// Compression is applied to PTX images, as fatbinary does by default.
	Compression fatbin.Compression
	// CompressAll applies Compression to cubins too.
	CompressAll bool
	// Identifier is stored in every entry (fatbinary --ident), if set.
	Identifier string
	// PTXOptions is stored with every PTX entry: the ptxas options for JIT compilation (fatbinary --cmdline).
	PTXOptions string
}

// ReadImage reads a cubin or PTX file as one image for Link. arch, if not 0, overrides the
// architecture found in the file (and must agree with it for cubins).
func ReadImage(path string, arch uint32) (fatbin.Entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return fatbin.Entry{}, err
	}
	a, err := Parse(data)
	if err != nil {
		return fatbin.Entry{}, fmt.Errorf("%s: %w", path, err)
	}
	if a.Format == FormatFatbin {
		return fatbin.Entry{}, fmt.Errorf("%s: is a fatbin; link takes cubins and PTX", path)
	}
	if len(a.Images) != 1 {
		return fatbin.Entry{}, fmt.Errorf("%s: holds %d images; link takes one cubin or PTX per file", path, len(a.Images))
	}
	e := a.Images[0]
	if arch != 0 {
		if e.Kind == fatbin.KindELF && e.Arch != arch {
			return fatbin.Entry{}, fmt.Errorf("%s: is a cubin for sm_%d, not sm_%d", path, e.Arch, arch)
		}
		e.Arch = arch
	}
	return e, nil
}

// Link builds a fatbin from images, in the order given. The result depends only on the images and
// the options.
func Link(images []fatbin.Entry, opts LinkOptions) ([]byte, error) {
	entries := make([]fatbin.Entry, len(images))
	for i, e := range images {
		e.Compression = fatbin.CompressionNone
		if e.Kind == fatbin.KindPTX || opts.CompressAll {
			e.Compression = opts.Compression
		}
		if opts.Identifier != "" {
			e.Identifier = opts.Identifier
		}
		if e.Kind == fatbin.KindPTX && opts.PTXOptions != "" {
			e.Options = opts.PTXOptions
		}
		e.Flags |= fatbin.DefaultFlags
		entries[i] = e
	}
	return fatbin.Marshal(entries, fatbin.WriteOptions{})
}

// ParseCompression reads "none", "lz4" or "zstd".
func ParseCompression(s string) (fatbin.Compression, error) {
	var c fatbin.Compression
	if err := c.UnmarshalText([]byte(strings.ToLower(s))); err != nil {
		return 0, fmt.Errorf("unknown compression %q: use none, lz4 or zstd", s)
	}
	return c, nil
}
