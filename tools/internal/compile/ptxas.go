// Package compile runs the external tools that turn GPU code into one chip's artifact, with errors that
// name the target, the file, the chip and the exact command, and without leaving partial outputs.
package compile

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
)

// Error is a failed compilation: which target (when there is one: a Bazel label), file and chip,
// the command and what the tool said.
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
	if len(e.Command) > 0 {
		fmt.Fprintf(&b, "\ncommand: %s", strings.Join(e.Command, " "))
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		fmt.Fprintf(&b, "\n%s", s)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ptxas compiles PTX src into the cubin out for the job's chip.
func (t Tools) ptxas(ctx context.Context, job Job, src, out string) error {
	// The job's optimisation level for every source kind: a gpu_module's opt_level means the same
	// whether its PTX came from MLIR, clang or a file (and a fatbin's lowest cubin is compiled from its
	// PTX: it must equal the cubin the full pipeline would give).
	args := []string{t.Ptxas, "-arch=" + job.Chip.String(), "-O" + strconv.Itoa(min(job.O, 3))}
	args = append(args, job.PtxasOptions...)
	args = append(args, "-o", out, src)
	return job.exec(ctx, "ptxas", args...)
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
