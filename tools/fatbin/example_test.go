package fatbin_test

import (
	"fmt"
	"log"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
)

func Example() {
	cubin := make([]byte, 4096) // an sm_80 cubin
	copy(cubin, "\x7fELF")
	ptx := []byte(".version 8.0\n.target sm_80\n.address_size 64\n")

	data, err := fatbin.Marshal([]fatbin.Entry{
		{Kind: fatbin.KindELF, Arch: 80, Major: 1, Minor: 7, Payload: cubin, Compression: fatbin.CompressionLZ4},
		{Kind: fatbin.KindPTX, Arch: 80, Major: 8, Minor: 0, Payload: ptx, Identifier: "kernels.cu"},
	}, fatbin.WriteOptions{})
	if err != nil {
		log.Fatal(err)
	}

	f, err := fatbin.Read(data)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range f.Entries {
		fmt.Println(e.FileName("app", 1), e.Kind, e.ArchName(), e.Compression, len(e.Payload))
	}
	// Output:
	// app.1.sm_80.cubin elf sm_80 lz4 4096
	// kernels.sm_80.ptx ptx sm_80 none 44
}
