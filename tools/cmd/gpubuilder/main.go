// Command gpubuilder is rules_gpu's action helper: the one program that Bazel actions run, reached
// through the toolchain @rules_gpu//toolchain:builder_toolchain_type as rules_go reaches its
// builder. It holds only the verbs actions run (tools/internal/builder), so that its executable, a
// part of every GPU action's key, changes only when code that actions run changes:
//
//	gpubuilder prepare --target LABEL --mlir-opt PATH --pass OPTION... -o OUT.mlir SRC.mlir
//	gpubuilder compile --target LABEL --chip sm_90 --toolkit 12.4 --ptxas PATH ... -o OUT SRC...
//	gpubuilder dlink --target LABEL --chip sm_90 --nvlink PATH -o OUT.cubin CUBIN...
//	gpubuilder link --target LABEL -o OUT.fatbin [CHIP=]IMAGE...
//	gpubuilder host --target LABEL (--fatbin FATBIN | --rdc | --modules DIR --chip CHIP) -o OUT.o SRC
//	gpubuilder register --target LABEL --fatbin FATBIN -o OUT.c OBJECT...
//	gpubuilder check --target LABEL --runs-on sm_75,sm_90 [--driver 13.0] --stamp FILE FILE...
//	gpubuilder abi --target LABEL --runners-have GLIBC_2.39,GLIBCXX_3.4.33 --stamp FILE PROGRAM
//	gpubuilder embed --target LABEL --lang go|c ... ARTIFACT
//
// It looks for no tool on the machine: an action names every program it runs by flag (--ptxas,
// --clang, ...) and the toolkit's version (--toolkit). The same verbs, with tool discovery, are the
// user's CLI's (tools/cmd/gpubuild). Started with --persistent_worker, gpubuilder is a Bazel
// persistent worker: it runs each work request as the command line it completes
// (--@rules_gpu//gpu:worker, docs/workers.md). Arguments may come from Bazel parameter files
// ("--params=FILE", "--flagfile=FILE").
//
// Exit status: 0 on success, 1 on failure, 2 on a usage error.
package main

import (
	"context"
	"os"

	"github.com/rulesgpu/rules_gpu/tools/internal/builder"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
)

// program is gpubuilder: the action verbs, looking for nothing.
func program() cmdline.Program {
	return cmdline.Program{Name: "gpubuilder", Verbs: builder.Verbs(nil)}
}

func main() {
	if cmdline.IsWorker(os.Args[1:]) {
		os.Exit(program().Serve(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(program().Run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}
