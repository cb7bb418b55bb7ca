// Package compile runs the external tools that turn GPU code into one chip's artifact, with errors that
// name the target, the file, the chip and the exact command, and without leaving partial outputs.
package compile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/artifact"
	"github.com/rulesgpu/rules_gpu/tools/chip"
)

// Request is one PTX → cubin compilation.
type Request struct {
	// Target is the Bazel label (or any name) that error messages cite.
	Target string
	// Src is the PTX file; Out the cubin to write.
	Src, Out string
	// Chip is the real architecture to compile for, e.g. sm_90.
	Chip chip.Chip
	// Options are extra ptxas options, passed as given.
	Options []string
	// Toolkit is the CUDA toolkit's version; when set, the chip and the PTX's ISA version and
	// .target are checked against the chip model before ptxas runs.
	Toolkit chip.Toolkit
}

// Ptxas compiles PTX to cubins with one ptxas binary.
type Ptxas struct {
	// Path is the ptxas executable.
	Path string
}

// Error is a failed compilation: which target, file and chip, the command and what the tool said.
type Error struct {
	Target, Src, Chip string
	Command           []string
	Stderr            string
	Err               error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: compiling %s for %s: %v", e.Target, e.Src, e.Chip, e.Err)
	if len(e.Command) > 0 {
		fmt.Fprintf(&b, "\ncommand: %s", strings.Join(e.Command, " "))
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		fmt.Fprintf(&b, "\n%s", s)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Compile runs ptxas for one chip. The output appears only when ptxas succeeded; on failure no file is
// left at req.Out.
func (p Ptxas) Compile(ctx context.Context, req Request) error {
	fail := func(cmd []string, stderr string, err error) error {
		return &Error{Target: req.Target, Src: req.Src, Chip: req.Chip.String(), Command: cmd, Stderr: stderr, Err: err}
	}
	if req.Chip.Virtual {
		return fail(nil, "", fmt.Errorf("%s is a virtual (PTX) target; ptxas needs a real one such as sm_%d", req.Chip, req.Chip.Number()))
	}
	if err := checkPTX(req); err != nil {
		return fail(nil, "", err)
	}
	if _, err := os.Stat(p.Path); err != nil {
		return fail(nil, "", fmt.Errorf("ptxas not found at %s; the CUDA toolchain (//toolchain:cuda_toolchain_type) provides it", p.Path))
	}
	tmp, err := os.CreateTemp(filepath.Dir(req.Out), "."+filepath.Base(req.Out)+".*")
	if err != nil {
		return fail(nil, "", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	_ = os.Remove(req.Out)

	cmd := []string{p.Path, "-arch=" + req.Chip.String()}
	cmd = append(cmd, req.Options...)
	cmd = append(cmd, "-o", tmp.Name(), req.Src)
	c := exec.CommandContext(ctx, cmd[0], cmd[1:]...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	c.Stdout = &stderr
	if err := c.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("ptxas exited with status %d", exit.ExitCode())
		}
		return fail(cmd, stderr.String(), err)
	}
	if err := os.Rename(tmp.Name(), req.Out); err != nil {
		return fail(cmd, "", err)
	}
	return nil
}

// checkPTX validates the request against the chip model: the toolkit compiles the chip, the PTX's
// ISA version suits its .target and the toolkit, and the .target is not newer than the chip.
func checkPTX(req Request) error {
	if req.Toolkit.IsZero() {
		return nil
	}
	if err := req.Toolkit.Check(req.Chip); err != nil {
		return err
	}
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
