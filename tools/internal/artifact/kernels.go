package artifact

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"slices"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
)

// stoCUDAEntry marks a kernel (an entry point the host can launch) in a cubin's symbol table,
// st_other bit 0x10; device functions lack it.
const stoCUDAEntry = 0x10

// ptxEntry matches a kernel's declaration in PTX: ".entry NAME(" (after .visible or .weak).
var ptxEntry = regexp.MustCompile(`(?m)^\s*(?:\.(?:visible|weak)\s+)?\.entry\s+([A-Za-z_$%][\w$]*)`)

// Kernels lists the kernels that a's images define, sorted and without repeats: the .entry functions
// of its PTX and the entry symbols of its cubins.
func (a *Artifact) Kernels() ([]string, error) {
	var names []string
	for i, e := range a.Images {
		switch e.Kind {
		case fatbin.KindPTX:
			for _, m := range ptxEntry.FindAllSubmatch(e.Payload, -1) {
				names = append(names, string(m[1]))
			}
		case fatbin.KindELF:
			f, err := elf.NewFile(bytes.NewReader(standardELFVersion(e.Payload)))
			if err != nil {
				return nil, fmt.Errorf("image %d (%s cubin): %w", i, e.ArchName(), err)
			}
			syms, err := f.Symbols()
			if errors.Is(err, elf.ErrNoSymbols) {
				continue // a cubin without a symbol table defines no kernels
			}
			if err != nil {
				return nil, fmt.Errorf("image %d (%s cubin): symbols: %w", i, e.ArchName(), err)
			}
			for _, s := range syms {
				if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Other&stoCUDAEntry != 0 {
					names = append(names, s.Name)
				}
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// standardELFVersion returns a copy of a cubin whose ELF version fields say 1 (EV_CURRENT). CUDA 12
// ptxas writes its ELF ABI version into e_version (124 for CUDA 12.4's cubins), which debug/elf
// refuses; nothing else in the file depends on it.
func standardELFVersion(cubin []byte) []byte {
	if len(cubin) < 24 || (cubin[elf.EI_VERSION] == byte(elf.EV_CURRENT) && binary.LittleEndian.Uint32(cubin[20:]) == uint32(elf.EV_CURRENT)) {
		return cubin
	}
	c := slices.Clone(cubin)
	c[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	binary.LittleEndian.PutUint32(c[20:], uint32(elf.EV_CURRENT))
	return c
}
