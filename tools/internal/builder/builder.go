// Package builder is the verbs that rules_gpu's Bazel actions run: compile, dlink, link, host, register,
// check, abi and embed, each a thin layer of flags over a package under tools/. The action helper
// (tools/cmd/gpubuilder) is these verbs alone, so that its executable, which is in the key of every
// GPU action, changes only when code that actions run changes; the user's CLI (tools/cmd/gpubuild)
// runs the same verbs by hand, with a Discovery that finds the tools a command line does not name.
package builder

import (
	"context"

	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
)

// Discovery finds on the machine what a command line run by hand does not name, as the toolchains'
// local discovery does: the user's CLI has one, the action helper none (an action passes every tool
// it runs, and --toolkit).
type Discovery interface {
	// Tools completes the tools that t does not name, and sets Missing to say where it looked.
	Tools(t compile.Tools) compile.Tools
	// PtxasVersion is the CUDA version that ptxas --version reports, MAJOR.MINOR.
	PtxasVersion(ctx context.Context, ptxas string) (string, error)
}

// Verbs are the action verbs, in the order of the usage. With find nil, nothing is looked for.
func Verbs(find Discovery) []cmdline.Verb {
	h := helper{find: find}
	return []cmdline.Verb{
		{Name: "prepare", Summary: "run the passes an MLIR program needs before its GPU lowering (mlir-opt)", Run: h.runPrepare},
		{Name: "compile", Summary: "compile one source (MLIR, LLVM IR, PTX, CUDA C++), or LLVM IR linked, for one chip: LLVM IR, PTX or cubin", Run: h.runCompile},
		{Name: "dlink", Summary: "link the relocatable cubins of nvcc's relocatable device code for one chip (nvlink)", Run: h.runDLink},
		{Name: "link", Summary: "join cubins and PTX into one fatbin", Run: runLink},
		{Name: "host", Summary: "compile the host side of a CUDA C++ source against its fatbin, or as relocatable device code", Run: h.runHost},
		{Name: "register", Summary: "write the CUDA runtime registration of relocatable device code's linked fatbin (C)", Run: runRegister},
		{Name: "check", Summary: "say whether artifacts load on runner chips (and drivers), and why not", Run: runCheck},
		{Name: "abi", Summary: "say which glibc and libstdc++ versions a program needs, and whether its runners have them", Run: runABI},
		{Name: "embed", Summary: "write a Go file or a C header and source that carry an artifact in a host program", Run: runEmbed},
	}
}

// helper runs the verbs that run tools: with a Discovery, a command line by hand (no --target)
// finds the tools it does not name.
type helper struct {
	find Discovery
}

// discover completes t by the Discovery for a command line by hand (no target); an action's
// tools stay as its flags name them.
func (h helper) discover(target string, t compile.Tools) compile.Tools {
	if h.find == nil || target != "" {
		return t
	}
	return h.find.Tools(t)
}
