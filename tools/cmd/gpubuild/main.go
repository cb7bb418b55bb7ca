// Command gpubuild is rules_gpu's command for users: the action verbs, run by hand with the CUDA
// toolkit and LLVM found on the machine (the same code as the action helper's, tools/cmd/gpubuilder,
// tools/internal/builder), and the tools that read artifacts and edit repositories. Each verb is a
// thin layer of flags over a package under tools/.
//
//	gpubuild prepare --pass OPTION... -o OUT.mlir [--mlir-opt PATH] SRC.mlir
//	gpubuild compile --chip sm_90 -o OUT [--format bin|isa|offload|llvm] [--rdc] [FLAGS] [-I DIR] [-D NAME=V] SRC.{mlir,ll,bc,ptx,cu}...
//	gpubuild dlink --chip sm_90 -o OUT.cubin [--nvlink PATH] CUBIN...
//	gpubuild link -o OUT.fatbin [--compress none|lz4|zstd] [--compress-all] [CHIP=]IMAGE...
//	gpubuild host (--fatbin FATBIN | --rdc) -o OUT.o [-O 2] [-I DIR] [-D NAME=V] [--host-opt OPT] SRC.cu
//	gpubuild register --fatbin FATBIN -o OUT.c OBJECT...
//	gpubuild check --runs-on sm_75,sm_90 [--driver 13.0] [--json] [--together] [--stamp FILE] FILE...
//	gpubuild abi [--runners-have GLIBC_2.39,GLIBCXX_3.4.33] [--stamp FILE] PROGRAM
//	gpubuild embed --lang go|c [...] ARTIFACT
//	gpubuild inspect [--json] FILE...
//	gpubuild extract [-o DIR] FILE
//	gpubuild attach [--module REGEX] [--chip sm_90] [-O 3] [...] -o OUT.mlir IN.mlir
//	gpubuild chips [--repo DIR] [--json | --set|--add|--remove sm_80,sm_90 | --toolkit 13.0] [--dry-run] [PATTERN...]
//	gpubuild migrate [--dry-run] [DIR]
//
// "gpubuild VERB --help" prints a verb's flags. Flags may come before or after the arguments ("--"
// ends them), as with clang and Bazel. "-o -" writes the output to standard output (compile,
// dlink, link, attach). An output that is a device, a FIFO or a symbolic link is written through, never
// replaced (tools/internal/atomicfile). Actions pass --target LABEL, which starts every error
// message; compile then uses only the tools its flags name, where by hand it finds the CUDA toolkit
// and LLVM as the Bazel toolchains do (tools/internal/toolfind). Arguments may come from Bazel
// parameter files ("--params=FILE", "--flagfile=FILE"). Bazel actions run gpubuilder, not this
// command; gpu_test checks output with tools/cmd/filecheck.
//
// Exit status: 0 on success, 1 on failure, 2 on a usage error.
package main

import (
	"context"
	"io"
	"os"

	"github.com/rulesgpu/rules_gpu/tools/internal/builder"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
)

// program is gpubuild: the action verbs with tool discovery, then the user's own.
func program() cmdline.Program {
	return cmdline.Program{Name: "gpubuild", Verbs: append(builder.Verbs(machine{}),
		cmdline.Verb{Name: "inspect", Summary: "list the images in fatbins, cubins and PTX files", Run: runInspect},
		cmdline.Verb{Name: "extract", Summary: "write each image of a fatbin to a file, decompressed", Run: runExtract},
		cmdline.Verb{Name: "attach", Summary: "attach an NVVM target to the gpu.modules of an MLIR file (as --nvvm-attach-target)", Run: runAttach},
		cmdline.Verb{Name: "chips", Summary: "list and edit the chips of the gpu_module targets in BUILD files", Run: runChips},
		cmdline.Verb{Name: "migrate", Summary: "rewrite a repository's rules_cuda targets and flags to rules_gpu's, listing what does not translate", Run: runMigrate},
	)}
}

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the gpubuild command line args and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return program().Run(ctx, args, stdout, stderr)
}
