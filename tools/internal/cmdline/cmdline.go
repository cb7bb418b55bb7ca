// Package cmdline is the command-line frame of rules_gpu's programs: a program is a table of verbs
// (gpubuilder, the action helper; gpubuild, the user's CLI) or one command (filecheck), each verb a
// set of flags with its usage text. Flags may come before or after the arguments ("--" ends them),
// as with clang and Bazel; arguments may come from Bazel parameter files; a program may serve
// Bazel's persistent worker protocol (worker.go).
//
// "PROG --version" prints "PROG VERSION": rules_gpu's module version (tools/internal/version, which a
// test keeps equal to MODULE.bazel's).
//
// Exit status: 0 on success (and --help, --version), 1 on failure, 2 on a usage error.
package cmdline

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/params"
	"github.com/rulesgpu/rules_gpu/tools/internal/version"
)

var (
	// ErrUsage marks errors whose message and usage text are printed already (exit status 2).
	ErrUsage = errors.New("usage")
	// ErrHelp marks a request for help, answered already (exit status 0).
	ErrHelp = errors.New("help")
)

// Env is what a verb runs in: the program's name, which starts its messages and usage, and its
// output streams.
type Env struct {
	Prog           string
	Stdout, Stderr io.Writer
}

// Verb is one verb of a program: its name, the line that sums it up in the usage, and what runs it.
type Verb struct {
	Name, Summary string
	Run           func(ctx context.Context, env Env, args []string) error
}

// Program is a program of verbs.
type Program struct {
	Name  string
	Verbs []Verb
}

// Run runs the command line args (parameter files expanded) and returns the exit status.
func (p Program) Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	args, err := params.Expand(args)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return 2
	}
	if len(args) == 0 {
		p.usage(stderr)
		return 2
	}
	if IsVersion(args) {
		PrintVersion(stdout, p.Name)
		return 0
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		if len(args) == 1 {
			p.usage(stdout)
			return 0
		}
		name, args = args[1], []string{args[1], "--help"} // PROG help VERB
	}
	i := slices.IndexFunc(p.Verbs, func(v Verb) bool { return v.Name == name })
	if i < 0 {
		fmt.Fprintf(stderr, "%s: unknown verb %q\n\n", p.Name, name)
		p.usage(stderr)
		return 2
	}
	env := Env{Prog: p.Name, Stdout: stdout, Stderr: stderr}
	return env.Status(name, p.Verbs[i].Run(ctx, env, args[1:]))
}

// Status prints err, a verb's failure, as "PROG VERB: err" and returns the exit status it means.
func (e Env) Status(verb string, err error) int {
	switch {
	case err == nil, errors.Is(err, ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		return 2
	default:
		fmt.Fprintf(e.Stderr, "%s %s: %v\n", e.Prog, verb, err)
		return 1
	}
}

// IsVersion says whether the command line args asks for the program's version: --version (or
// -version) alone.
func IsVersion(args []string) bool {
	return len(args) == 1 && (args[0] == "--version" || args[0] == "-version")
}

// PrintVersion prints "PROG VERSION", rules_gpu's module version, to w.
func PrintVersion(w io.Writer, prog string) {
	fmt.Fprintln(w, version.Line(prog))
}

func (p Program) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s VERB [FLAGS] [ARGS]     (%s VERB --help: the verb's flags; %s --version)\n\nverbs:\n", p.Name, p.Name, p.Name)
	for _, v := range p.Verbs {
		fmt.Fprintf(w, "  %-10s %s\n", v.Name, v.Summary)
	}
}

// Command is a verb's flags and usage text.
type Command struct {
	*flag.FlagSet
	env   Env
	usage string // "usage: gpubuild VERB ...", and what the arguments are
}

// Command returns the flags of the verb name, whose usage text is usage. The usage texts are
// written with the user's CLI's name, gpubuild; another program's usage names that program.
func (e Env) Command(name, usage string) *Command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and usage are printed by ParseArgs
	fs.Usage = func() {}
	if e.Prog != "gpubuild" {
		usage = strings.ReplaceAll(usage, "gpubuild ", e.Prog+" ")
	}
	return &Command{FlagSet: fs, env: e, usage: usage}
}

// Stdout and Stderr are the verb's output streams.
func (c *Command) Stdout() io.Writer { return c.env.Stdout }

// Stderr is the verb's error stream.
func (c *Command) Stderr() io.Writer { return c.env.Stderr }

// ParseArgs parses args: flags and arguments in any order, as clang and Bazel take them ("gpubuild
// compile k.cu --chip sm_90"); after "--" all are arguments. extra, when set, recognises options
// that are not the verb's flags (clang's -Idir): it returns how many arguments the option at the
// head of its argument takes, having kept them, or 0. A flag may be given "-O3" as well as "-O 3".
// On a bad flag ParseArgs prints the error and the usage and returns ErrUsage; on -h or --help it
// prints the usage to standard output and returns ErrHelp. It returns the arguments, each through
// NotOption: an argument that starts with "-" (given after "--") comes back as ./ARG, so that no
// tool the verb runs reads a file's name as an option.
func (c *Command) ParseArgs(args []string, extra func([]string) int) ([]string, error) {
	var positional []string
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			for _, a := range args[1:] {
				positional = append(positional, NotOption(a))
			}
			return positional, nil
		}
		if extra != nil {
			if n := extra(args); n > 0 {
				args = args[n:]
				continue
			}
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			args = args[1:]
			continue
		}
		// One flag and, unless it is boolean or holds "=value", the next argument as its value.
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if len(name) > 1 && name[0] == 'O' && c.Lookup(name) == nil && c.Lookup("O") != nil && strings.Trim(name[1:], "0123456789") == "" {
			a, hasValue = "-O="+name[1:], true // -O3, as clang writes it
		}
		n := 1
		if f := c.Lookup(name); f != nil && !hasValue && !isBool(f) && len(args) > 1 {
			n = 2
		}
		err := c.Parse(append([]string{a}, args[1:n]...))
		if errors.Is(err, flag.ErrHelp) {
			c.PrintUsage(c.env.Stdout)
			return nil, ErrHelp
		}
		if err != nil {
			return nil, c.UsageError("%v", err)
		}
		args = args[n:]
	}
	return positional, nil
}

// NotOption is path as no program reads it as an option: ./PATH for a relative path that starts
// with "-" ("-x.ptx", given after "--"), else path itself ("-" too, standard input or output).
func NotOption(path string) string {
	if len(path) > 1 && path[0] == '-' {
		return "./" + path
	}
	return path
}

// IsSet says whether the command line set the flag name.
func (c *Command) IsSet(name string) bool {
	set := false
	c.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// prefix starts the command's messages: "PROG VERB", or "PROG" for a program of one command.
func (c *Command) prefix() string {
	if c.Name() == c.env.Prog {
		return c.env.Prog
	}
	return c.env.Prog + " " + c.Name()
}

// UsageError prints why the command line is wrong and the usage, and returns ErrUsage.
func (c *Command) UsageError(format string, args ...any) error {
	fmt.Fprintf(c.env.Stderr, "%s: %s\n", c.prefix(), fmt.Sprintf(format, args...))
	c.PrintUsage(c.env.Stderr)
	return ErrUsage
}

// Fail prints a message of the verb's own ("PROG VERB: message", no usage) and returns ErrUsage:
// an exit status of 2 that is not a bad command line (filecheck's for an invalid check file).
func (c *Command) Fail(format string, args ...any) error {
	fmt.Fprintf(c.env.Stderr, "%s: %s\n", c.prefix(), fmt.Sprintf(format, args...))
	return ErrUsage
}

// PrintUsage prints the usage text and the flags, each as it is written: -o, --chip.
func (c *Command) PrintUsage(w io.Writer) {
	fmt.Fprintf(w, "%s\n\nflags:\n", c.usage)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	c.VisitAll(func(f *flag.Flag) {
		value, text := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if len(f.Name) == 1 {
			name = "-" + f.Name
		}
		if value != "" {
			name += " " + value
		}
		switch f.DefValue {
		case "", "false", "0", "[]":
		default:
			text += " (default " + f.DefValue + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s\n", name, text)
	})
	tw.Flush()
}

// Common are the flags that the verbs of Bazel actions share: --target, the label that starts
// every error message, and -o, the output.
type Common struct {
	Target string
	Out    string
}

// Register adds --target to c, and -o with the text outUsage unless that is "".
func (o *Common) Register(c *Command, outUsage string) {
	c.StringVar(&o.Target, "target", "", "the Bazel `LABEL` that starts every error message (Bazel actions pass it)")
	if outUsage != "" {
		c.StringVar(&o.Out, "o", "", outUsage)
	}
}

// outIsInput is the message for an output that is one of the inputs: {flag} stands for the output's
// flag, {out} for its value, {in} for the input as the command line names it.
const outIsInput = "{flag} {out} is also an input ({in}): the output would replace it before or while it is read; write the output to another file"

// CheckOut refuses an output (-o) that is one of inputs, before anything runs (CheckOutputs).
func (o *Common) CheckOut(inputs ...string) error {
	return o.Wrap(CheckOutputs(map[string]string{"-o": o.Out}, inputs))
}

// CheckOutputs refuses an output that is one of inputs: the same path, or the same file through
// another path or a link. outs maps each output's flag (-o, --c-out) to its value; "" (not given)
// and "-" (standard output) are never inputs.
func CheckOutputs(outs map[string]string, inputs []string) error {
	for _, flag := range slices.Sorted(maps.Keys(outs)) {
		out := outs[flag]
		if out == "" || out == "-" {
			continue
		}
		outSt, outErr := os.Stat(out)
		for _, in := range inputs {
			same := in != "" && filepath.Clean(in) == filepath.Clean(out)
			if !same && in != "" && outErr == nil {
				if st, err := os.Stat(in); err == nil {
					same = os.SameFile(outSt, st)
				}
			}
			if same {
				return errors.New(strings.NewReplacer("{flag}", flag, "{out}", out, "{in}", in).Replace(outIsInput))
			}
		}
	}
	return nil
}

// Wrap starts err's message with the label.
func (o *Common) Wrap(err error) error {
	if err == nil || o.Target == "" {
		return err
	}
	return fmt.Errorf("%s: %w", o.Target, err)
}

// Errorf is fmt.Errorf, started with the label.
func (o *Common) Errorf(format string, args ...any) error {
	return o.Wrap(fmt.Errorf(format, args...))
}

// Write writes data to the -o output: "-" is standard output, any other path is written by
// atomicfile.Write (replaced at once, or written through when a device or FIFO).
func (o *Common) Write(stdout io.Writer, data []byte) error {
	return o.Wrap(atomicfile.Output(o.Out, stdout, data))
}

// MultiFlag is a repeatable flag: each use appends its value.
type MultiFlag []string

func (m *MultiFlag) String() string     { return strings.Join(*m, " ") }
func (m *MultiFlag) Set(v string) error { *m = append(*m, v); return nil }
