// Package compile runs the external tools that turn GPU code into one chip's artifact, with errors that
// name the target, the file, the chip and the exact command, and without leaving partial outputs.
package compile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
)

// Error is a failed compilation: which target (when there is one: a Bazel label), file and chip
// ("the host" for package host's compilations), the command and what the tool said.
type Error struct {
	Target, Src, Chip string
	Command           []string
	Stderr            string
	Err               error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Target != "" {
		fmt.Fprintf(&b, "%s: ", e.Target)
	}
	fmt.Fprintf(&b, "compiling %s for %s: %v", e.Src, e.Chip, e.Err)
	// The tool's own errors come first, before its command line and whatever it printed around
	// them (clang's warnings about the CUDA version, ...): they are what to read.
	if first := errorLines(e.Stderr); len(first) > 0 {
		fmt.Fprintf(&b, "\n%s", strings.Join(first, "\n"))
	}
	if len(e.Command) > 0 {
		fmt.Fprintf(&b, "\ncommand: %s", strings.Join(e.Command, " "))
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		fmt.Fprintf(&b, "\n%s", s)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// maxErrorLines is how many of a tool's error lines Error puts first.
const maxErrorLines = 5

// errorLine matches a compiler's or assembler's error line: "file:line:col: error: ...",
// "ptxas fatal   : ...", "error: ...".
var errorLine = regexp.MustCompile(`(?m)^(?:\S+: )?(?:fatal )?error\b.*$|^.*:\d+(?::\d+)?: (?:fatal )?error: .*$|^ptxas (?:fatal|error)\s*: .*$`)

// errorLines returns the first error lines of a tool's output (at most maxErrorLines), or none
// when the output is those lines alone (nothing to bring forward).
func errorLines(out string) []string {
	lines := errorLine.FindAllString(out, maxErrorLines)
	if strings.TrimSpace(strings.Join(lines, "\n")) == strings.TrimSpace(out) {
		return nil
	}
	return lines
}

// ptxas compiles PTX src into the cubin out for the job's chip.
func (t Tools) ptxas(ctx context.Context, job Job, src, out string) error {
	// The job's optimisation level for every source kind: a gpu_module's opt_level means the same
	// whether its PTX came from MLIR, clang or a file (and a fatbin's lowest cubin is compiled from its
	// PTX: it must equal the cubin the full pipeline would give).
	args := []string{t.Ptxas, "-arch=" + job.Chip.String(), "-O" + strconv.Itoa(min(job.O, 3))}
	switch job.Debug {
	case DebugLines:
		args = append(args, "-lineinfo")
	case DebugFull:
		args = append(args, "-g")
	}
	if job.CUDA.RDC {
		// nvcc's relocatable device code: a relocatable cubin, its externs resolved by the device
		// link (DeviceLink).
		args = append(args, "-c")
	}
	args = append(args, job.PtxasOptions...)
	args = append(args, "-o", out, src)
	output, err := job.run(ctx, "ptxas", args...)
	var e *Error
	if err != nil {
		if !errors.As(err, &e) {
			return err
		}
		output = e.Stderr
	}
	m := unresolvedExtern.FindStringSubmatch(output)
	switch {
	case m == nil:
		return err
	case e != nil:
		e.Err = t.explainUnresolved(job, m[1], m[2])
		return e
	default:
		// ptxas only warns of an extern variable, and makes it a zeroed variable of this module's own:
		// the source that defines it would never see the device code's writes, nor it that source's.
		return job.fail(args, output, t.explainUnresolved(job, m[1], m[2]))
	}
}

// unresolvedExtern is ptxas's message for a function or variable that the PTX declares .extern and
// does not define: "ptxas fatal   : Unresolved extern function '_Z5twicef'" (an error), "ptxas
// warning : Unresolved extern variable 'scale' in whole program compilation, ignoring extern
// qualifier" (a warning: ptxas then defines it, zeroed).
var unresolvedExtern = regexp.MustCompile(`Unresolved extern (function|variable) '([^']+)'`)

// explainUnresolved says which __device__ function or variable (name as the PTX spells it: mangled,
// for C++) no source of the module defines, and how to link the source that does.
func (t Tools) explainUnresolved(job Job, what, name string) error {
	fix := "define it in this source"
	// A fatbin's cubin is compiled from its PTX: the user's source (Origin) says it was CUDA C++.
	cuda := job.Kind == KindCUDA || (job.Kind == KindPTX && strings.EqualFold(filepath.Ext(job.Origin), ".cu"))
	switch {
	case len(job.LLVM.Link) > 0:
		fix = "define it in one of the sources (an extern declaration is not a definition), or add the source that defines it to them"
	case cuda && t.Missing == nil:
		fix += ", or, when another source of the target defines it, set rdc = True on the target, so that its sources are compiled as relocatable device code and linked for each chip"
	case cuda && job.CUDA.Compiler == CompilerNVCC:
		fix += ", or, when another source defines it, compile each source with gpubuild compile --compiler nvcc --rdc (a relocatable cubin), then the cubins together with gpubuild dlink"
	case cuda:
		fix += ", or, when another source defines it, compile each source with gpubuild compile --rdc --format offload, then their bitcode together with one gpubuild compile A.bc B.bc"
	case job.Kind == KindLLVM && t.Missing != nil:
		fix += ", or give the module that defines it to the same gpubuild compile (A.ll B.bc), which links them"
	}
	return fmt.Errorf("ptxas: the device code uses the __device__ %s %q, which no source of this module defines; fix: %s", what, name, fix)
}

// checkPTXSource validates a PTX source against the chip model: its ISA version suits its .target
// and the toolkit, and the .target is not newer than the chip.
func checkPTXSource(req Job) error {
	src, err := os.ReadFile(req.Src)
	if err != nil {
		return err
	}
	img, err := artifact.PTXImage(src)
	if err != nil {
		return err
	}
	target := chip.Chip{Major: int(img.Arch) / 10, Minor: int(img.Arch) % 10}
	if name := img.ArchName(); strings.HasSuffix(name, "a") || strings.HasSuffix(name, "f") {
		target.Suffix = name[len(name)-1:]
	}
	if err := req.Toolkit.CheckPTX(target, chip.PTX{Major: int(img.Major), Minor: int(img.Minor)}); err != nil {
		return fmt.Errorf("%w; change the .version directive of the PTX", err)
	}
	if target.Number() > req.Chip.Number() {
		return fmt.Errorf("the PTX is written for %s (.target), newer than %s: ptxas compiles PTX only for its .target chip or newer; build this source for %s or newer, or lower its .target", target, req.Chip, target)
	}
	return nil
}
