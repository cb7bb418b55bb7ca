package artifact

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
)

// Info describes one image of an artifact: what `gpubuild inspect --json` prints, one object each.
type Info struct {
	File  string `json:"file"`
	Index int    `json:"index"` // 1-based, counted per kind as cuobjdump does
	Kind  string `json:"kind"`  // "elf", "ptx" or "nvvm"
	Arch  string `json:"arch"`  // "sm_80"
	// PTXISA is the PTX ISA version of PTX images ("8.4").
	PTXISA string `json:"ptx_isa,omitempty"`
	// CodeVersion is the ELF code version of cubins ("1.7").
	CodeVersion      string `json:"code_version,omitempty"`
	Compression      string `json:"compression"`
	StoredSize       uint64 `json:"stored_size"`
	UncompressedSize uint64 `json:"uncompressed_size"`
	Identifier       string `json:"identifier,omitempty"`
	Options          string `json:"options,omitempty"`
	Flags            string `json:"flags"`
	FlagBits         uint64 `json:"flag_bits"`
}

// Describe returns one Info per image of a.
func Describe(a *Artifact) []Info {
	index := a.indexes()
	var out []Info
	for i, e := range a.Images {
		in := Info{
			File:             a.Path,
			Index:            index[i],
			Kind:             e.Kind.String(),
			Arch:             e.ArchName(),
			Compression:      e.Compression.String(),
			StoredSize:       e.StoredSize,
			UncompressedSize: uint64(len(e.Payload)),
			Identifier:       e.Identifier,
			Options:          e.Options,
			Flags:            fatbin.FlagString(e.Flags),
			FlagBits:         e.Flags,
		}
		if e.Flags&fatbin.FlagObfuscated != 0 { // the payload is still encoded
			in.UncompressedSize = e.UncompressedSize
		}
		if e.StoredSize == 0 { // a bare cubin or PTX: stored as it is
			in.StoredSize = uint64(len(e.Payload))
		}
		if e.Kind == fatbin.KindPTX {
			in.PTXISA = fmt.Sprintf("%d.%d", e.Major, e.Minor)
		} else {
			in.CodeVersion = fmt.Sprintf("%d.%d", e.Major, e.Minor)
		}
		out = append(out, in)
	}
	return out
}

// WriteTable prints infos as an aligned table.
func WriteTable(w io.Writer, infos []Info) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FILE\t#\tKIND\tARCH\tVERSION\tCOMPRESSION\tSTORED\tSIZE\tIDENTIFIER\tFLAGS")
	for _, in := range infos {
		version := in.PTXISA
		if version == "" {
			version = in.CodeVersion
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\n", in.File, in.Index, in.Kind, in.Arch, version,
			in.Compression, in.StoredSize, in.UncompressedSize, in.Identifier, in.Flags)
	}
	return tw.Flush()
}

// Extract writes every image of a into dir, decompressed, named as cuobjdump -xelf all -xptx all
// names them (base.N.sm_XX.cubin, base.N.sm_XX.ptx). It returns the paths written.
func Extract(a *Artifact, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	names := a.FileNames()
	var paths []string
	for i, e := range a.Images {
		p := filepath.Join(dir, names[i])
		payload := e.Payload
		if n := elfSize(payload); e.Kind == fatbin.KindELF && n > 0 && n < uint64(len(payload)) {
			payload = payload[:n] // uncompressed cubins are stored zero-padded to 8 bytes
		}
		if err := atomicfile.Write(p, payload); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// indexes numbers a's images as cuobjdump does: from 1 within each kind, in file order.
func (a *Artifact) indexes() []int {
	counts := map[fatbin.Kind]int{}
	index := make([]int, len(a.Images))
	for i, e := range a.Images {
		counts[e.Kind]++
		index[i] = counts[e.Kind]
	}
	return index
}

// FileNames are the names cuobjdump -xelf all -xptx all gives a's images, in order.
func (a *Artifact) FileNames() []string {
	base := Base(a.Path)
	names := make([]string, len(a.Images))
	for i, n := range a.indexes() {
		names[i] = a.Images[i].FileName(base, n)
	}
	return names
}
