package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
)

// failFunc makes a job's error: the command that failed (nil for none), what it printed, and why.
type failFunc func(cmd []string, stderr string, err error) error

// hostError is a failed host compilation, as compile reports a device one: "TARGET: compiling SRC
// for the host: ...".
func hostError(target, src string, cmd []string, stderr string, err error) error {
	return &compile.Error{Target: target, Src: src, Chip: "the host", Command: cmd, Stderr: stderr, Err: err}
}

// need fails, saying why and how to provide it (tools.Missing, or the toolchain that does), for the
// first tool that is not configured or not found: each is its name and its configured path.
func need(tools compile.Tools, want ...[2]string) error {
	for _, n := range want {
		if compile.Found(n[1]) {
			continue
		}
		explain := tools.Missing
		if explain == nil {
			explain = compile.ToolchainMissing
		}
		return errors.New(explain(n[0], n[1]))
	}
	return nil
}

// run runs one tool of a stage, with TMPDIR in the job's temporary directory tmp (compile.ToolEnv);
// a failure carries the command and what the tool printed.
func run(ctx context.Context, tmp, stage string, cmd []string, fail failFunc) error {
	return runEnv(ctx, tmp, stage, nil, cmd, fail)
}

// runEnv is run with the assignments env (NAME=VALUE) added to the tool's environment.
func runEnv(ctx context.Context, tmp, stage string, env, cmd []string, fail failFunc) error {
	c := exec.CommandContext(ctx, cmd[0], cmd[1:]...)
	c.Env = compile.ToolEnv(tmp)
	if len(env) > 0 {
		if c.Env == nil {
			c.Env = os.Environ()
		}
		c.Env = append(c.Env, env...)
	}
	out, err := c.CombinedOutput()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("%s: %s exited with status %d", stage, filepath.Base(cmd[0]), exit.ExitCode())
		}
		return fail(cmd, string(out), err)
	}
	return nil
}

// output writes the file at path, the job's result, to out ("-": to stdout) with
// atomicfile.Output.
func output(path, out string, stdout io.Writer, fail failFunc) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fail(nil, "", err)
	}
	if err := atomicfile.Output(out, stdout, data); err != nil {
		return fail(nil, "", err)
	}
	return nil
}
