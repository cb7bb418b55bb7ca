// Command gpubuild is rules_gpu's helper: the one binary that Bazel actions run, and a tool to run
// by hand. Each verb is a thin layer of flags over a package under tools/.
//
//	gpubuild compile --chip sm_90 -o OUT [--format bin|isa|offload|llvm] [--rdc] [FLAGS] [-I DIR] [-D NAME=V] SRC.{mlir,ll,bc,ptx,cu}...
//	gpubuild link -o OUT.fatbin [--compress none|lz4|zstd] [--compress-all] [CHIP=]IMAGE...
//	gpubuild host (--fatbin FATBIN | --rdc) -o OUT.o [-O 2] [-I DIR] [-D NAME=V] [--host-opt OPT] SRC.cu
//	gpubuild register --fatbin FATBIN -o OUT.c OBJECT...
//	gpubuild inspect [--json] FILE...
//	gpubuild extract [-o DIR] FILE
//	gpubuild check --runs-on sm_75,sm_90 [--driver 13.0] [--json] [--together] [--stamp FILE] FILE...
//	gpubuild abi [--runners-have GLIBC_2.39,GLIBCXX_3.4.33] [--stamp FILE] PROGRAM
//	gpubuild attach [--module REGEX] [--chip sm_90] [-O 3] [...] -o OUT.mlir IN.mlir
//	gpubuild embed --lang go|c [...] ARTIFACT
//	gpubuild chips [--repo DIR] [--json | --set|--add|--remove sm_80,sm_90 | --toolkit 13.0] [--dry-run] [PATTERN...]
//	gpubuild migrate [--dry-run] [DIR]
//	gpubuild filecheck [--check-prefix P]... [--input-file F] [--strict-whitespace] [--match-full-lines] [--allow-empty] CHECKFILE
//
// "gpubuild VERB --help" prints a verb's flags. Flags may come before or after the arguments ("--"
// ends them), as with clang and Bazel. "-o -" writes the output to standard output (compile,
// link, attach). An output that is a device, a FIFO or a symbolic link is written through, never
// replaced (tools/internal/atomicfile). Actions pass --target LABEL, which starts every error
// message; compile then uses only the tools its flags name, where by hand it finds the CUDA toolkit
// and LLVM as the Bazel toolchains do (tools/internal/toolfind). Arguments may come from Bazel
// parameter files ("--params=FILE", "--flagfile=FILE"). Started with --persistent_worker, gpubuild
// is a Bazel persistent worker: it runs each work request as the command line it completes
// (worker.go; --@rules_gpu//gpu:worker, docs/workers.md).
//
// Exit status: 0 on success, 1 on failure, 2 on a usage error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/params"
)

// verb is one verb of gpubuild: its name, the line that sums it up in the usage, and what runs it.
type verb struct {
	name, summary string
	run           func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// verbs is the table of verbs, in the order of the usage and of the package documentation (a test
// keeps them alike).
func verbs() []verb {
	return []verb{
		{"compile", "compile one source (MLIR, LLVM IR, PTX, CUDA C++), or LLVM IR linked, for one chip: LLVM IR, PTX or cubin", runCompile},
		{"link", "join cubins and PTX into one fatbin", runLink},
		{"host", "compile the host side of a CUDA C++ source against its fatbin, or as relocatable device code", runHost},
		{"register", "write the CUDA runtime registration of relocatable device code's linked fatbin (C)", runRegister},
		{"inspect", "list the images in fatbins, cubins and PTX files", runInspect},
		{"extract", "write each image of a fatbin to a file, decompressed", runExtract},
		{"check", "say whether artifacts load on runner chips (and drivers), and why not", runCheck},
		{"abi", "say which glibc and libstdc++ versions a program needs, and whether its runners have them", runABI},
		{"attach", "attach an NVVM target to the gpu.modules of an MLIR file (as --nvvm-attach-target)", runAttach},
		{"embed", "write a Go file or a C header and source that carry an artifact in a host program", runEmbed},
		{"chips", "list and edit the chips of the gpu_module targets in BUILD files", runChips},
		{"migrate", "rewrite a repository's rules_cuda targets and flags to rules_gpu's, listing what does not translate", runMigrate},
		{"filecheck", "check an input against a check file's CHECK: directives, as LLVM's FileCheck", runFilecheck},
	}
}

var (
	// errUsage marks errors whose message and usage text are printed already (exit status 2).
	errUsage = errors.New("usage")
	// errHelp marks a request for help, answered already (exit status 0).
	errHelp = errors.New("help")
)

func main() {
	if isWorker(os.Args[1:]) {
		os.Exit(serve(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the gpubuild command line args and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	args, err := params.Expand(args)
	if err != nil {
		fmt.Fprintf(stderr, "gpubuild: %v\n", err)
		return 2
	}
	vs := verbs()
	if len(args) == 0 {
		usage(stderr, vs)
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		if len(args) == 1 {
			usage(stdout, vs)
			return 0
		}
		name, args = args[1], []string{args[1], "--help"} // gpubuild help VERB
	}
	i := slices.IndexFunc(vs, func(v verb) bool { return v.name == name })
	if i < 0 {
		fmt.Fprintf(stderr, "gpubuild: unknown verb %q\n\n", name)
		usage(stderr, vs)
		return 2
	}
	switch err := vs[i].run(ctx, args[1:], stdout, stderr); {
	case err == nil, errors.Is(err, errHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	default:
		fmt.Fprintf(stderr, "gpubuild %s: %v\n", name, err)
		return 1
	}
}

func usage(w io.Writer, vs []verb) {
	fmt.Fprint(w, "usage: gpubuild VERB [FLAGS] [ARGS]     (gpubuild VERB --help: the verb's flags)\n\nverbs:\n")
	for _, v := range vs {
		fmt.Fprintf(w, "  %-10s %s\n", v.name, v.summary)
	}
}

// command is a verb's flags and usage text.
type command struct {
	*flag.FlagSet
	usage          string // "usage: gpubuild VERB ...", and what the arguments are
	stdout, stderr io.Writer
}

func newCommand(name, usage string, stdout, stderr io.Writer) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and usage are printed by parse
	fs.Usage = func() {}
	return &command{FlagSet: fs, usage: usage, stdout: stdout, stderr: stderr}
}

// parse parses args: flags and arguments in any order, as clang and Bazel take them ("gpubuild
// compile k.cu --chip sm_90"); after "--" all are arguments. extra, when set, recognises options
// that are not the verb's flags (clang's -Idir): it returns how many arguments the option at the
// head of its argument takes, having kept them, or 0. A flag may be given "-O3" as well as "-O 3".
// On a bad flag parse prints the error and the usage and returns errUsage; on -h or --help it
// prints the usage to standard output and returns errHelp. It returns the arguments.
func (c *command) parse(args []string, extra func([]string) int) ([]string, error) {
	var positional []string
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return append(positional, args[1:]...), nil
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
			c.printUsage(c.stdout)
			return nil, errHelp
		}
		if err != nil {
			return nil, c.usageError("%v", err)
		}
		args = args[n:]
	}
	return positional, nil
}

// isSet says whether the command line set the flag name.
func (c *command) isSet(name string) bool {
	set := false
	c.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// usageError prints why the command line is wrong and the usage, and returns errUsage.
func (c *command) usageError(format string, args ...any) error {
	fmt.Fprintf(c.stderr, "gpubuild %s: %s\n", c.Name(), fmt.Sprintf(format, args...))
	c.printUsage(c.stderr)
	return errUsage
}

// printUsage prints the usage text and the flags, each as it is written: -o, --chip.
func (c *command) printUsage(w io.Writer) {
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

// common are the flags that the verbs of Bazel actions share: --target, the label that starts
// every error message, and -o, the output.
type common struct {
	target string
	out    string
}

// register adds --target to c, and -o with the text outUsage unless that is "".
func (o *common) register(c *command, outUsage string) {
	c.StringVar(&o.target, "target", "", "the Bazel `LABEL` that starts every error message (Bazel actions pass it)")
	if outUsage != "" {
		c.StringVar(&o.out, "o", "", outUsage)
	}
}

// wrap starts err's message with the label.
func (o *common) wrap(err error) error {
	if err == nil || o.target == "" {
		return err
	}
	return fmt.Errorf("%s: %w", o.target, err)
}

// errorf is fmt.Errorf, started with the label.
func (o *common) errorf(format string, args ...any) error {
	return o.wrap(fmt.Errorf(format, args...))
}

// write writes data to the -o output: "-" is standard output, any other path is written by
// atomicfile.Write (replaced at once, or written through when a device or FIFO).
func (o *common) write(stdout io.Writer, data []byte) error {
	return o.wrap(atomicfile.Output(o.out, stdout, data))
}

// multiFlag is a repeatable flag: each use appends its value.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
