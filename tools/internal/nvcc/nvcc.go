// Package nvcc runs the CUDA toolkit's nvcc as the plan that `nvcc --dryrun` prints: the steps nvcc
// would run (its host compiler's preprocessing, cudafe++, cicc, ptxas, fatbinary, the host compile),
// which rules_gpu then runs itself, changed in two ways only:
//
//   - cicc and cudafe++ get the source's path as the build names it (SetSourcePath), not the absolute
//     path nvcc makes of it. nvcc derives a source's module id from that path, and from the module id
//     the names of its internal-linkage kernels (static, or in an anonymous namespace:
//     _ZN36_GLOBAL__N__e736f607_4_x_cu_...): measured with nvcc 12.4, the same file in another
//     directory gets other names, and the file's content, macros and optimisation level do not change
//     them. A Bazel action runs in a sandbox of its own, so without the change the per-chip device
//     compiles and the host compile of one source would name its kernels differently (the host code
//     would register kernels the device code does not have), and no output would be the same on two
//     machines.
//   - The host compile's fatbin is the one rules_gpu's per-chip actions built, not one of nvcc's own
//     device compile: the plan's fatbinary step is replaced by writing that fatbin as the C source
//     nvcc's host code includes (EmbeddedFatbin).
//   - The intermediate files are named after the source in a directory of the caller's (DryRun's
//     dir), not after nvcc's process ID: their names reach the host object.
//
// The rest is nvcc's: its options, its host compiler's options, the order of the steps.
package nvcc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/embed"
)

// Plan is what `nvcc --dryrun` prints: the environment its profile sets, and the commands in order.
type Plan struct {
	// Env is the NAME=VALUE assignments of nvcc's profile (PATH, NVVMIR_LIBRARY_DIR, ...), in order.
	Env []string
	// Steps are the commands, each a command line (the program first).
	Steps []Step
}

// Step is one command of a Plan.
type Step []string

// Tool is the step's program's file name: "cicc", "cudafe++", "fatbinary", "clang-21", "rm".
func (s Step) Tool() string { return filepath.Base(s[0]) }

// DryRun asks nvcc (the program at path nvcc) for its plan of compiling with args, in the environment
// env (nil: this process's), and parses it. With dir (not ""), the plan's intermediate files are in
// dir, named after the source (--keep-dir DIR --keep), not in TMPDIR after nvcc's process ID: the
// host compiler writes the name of the file it compiles into the object (its STT_FILE symbol), so
// that name must not depend on the process that planned it.
func DryRun(ctx context.Context, nvcc string, args []string, env []string, dir string) (Plan, error) {
	if dir != "" {
		args = append([]string{"--keep", "--keep-dir", dir}, args...)
	}
	cmd := exec.CommandContext(ctx, nvcc, append([]string{"--dryrun"}, args...)...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return Plan{}, &Error{Command: cmd.Args, Output: out.String(), Err: err}
	}
	plan, err := Parse(out.String())
	if err != nil {
		return Plan{}, &Error{Command: cmd.Args, Output: out.String(), Err: err}
	}
	return plan, nil
}

// Compile asks nvcc (the program at path nvcc) for its plan of compiling with args (DryRun, in env,
// with its intermediate files in dir), gives it src as the source's path (SetSourcePath) and runs
// it (Run): run runs each command, with the plan's assignments to add to its environment. A failed
// --dryrun is an *Error; what replace and run return comes back as it is.
func Compile(ctx context.Context, nvcc string, args, env []string, dir, src string, replace func(Step) (bool, error), run func(cmd, env []string) error) error {
	plan, err := DryRun(ctx, nvcc, args, env, dir)
	if err != nil {
		return err
	}
	plan.SetSourcePath(src)
	return plan.Run(replace, func(cmd []string) error { return run(cmd, plan.Env) })
}

// Error is a failed nvcc --dryrun: the command, what it printed, and why.
type Error struct {
	Command []string
	Output  string
	Err     error
}

func (e *Error) Error() string {
	return fmt.Sprintf("nvcc --dryrun: %v", e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Parse reads the text of `nvcc --dryrun`: its lines that start with "#$ " are an assignment
// (NAME=VALUE) or a command, quoted as a POSIX shell quotes words ("..." and '...', and \ outside
// them); other lines are nvcc's messages, which it leaves out. A plan with no command is an error.
func Parse(text string) (Plan, error) {
	var p Plan
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "#$ ")
		if !ok {
			continue
		}
		if name, _, ok := strings.Cut(line, "="); ok && identifier(name) {
			p.Env = append(p.Env, line)
			continue
		}
		words, err := split(line)
		if err != nil {
			return Plan{}, fmt.Errorf("reading nvcc's step %q: %w", line, err)
		}
		if len(words) > 0 {
			p.Steps = append(p.Steps, words)
		}
	}
	if err := sc.Err(); err != nil {
		return Plan{}, err
	}
	if len(p.Steps) == 0 {
		return Plan{}, errors.New("nvcc printed no step to run")
	}
	return p, nil
}

// identifier says whether s is a shell variable name.
func identifier(s string) bool {
	for i, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// split splits a command line into words as a POSIX shell does, without expansions: "..." (where \
// escapes " \ $ `), '...', \ outside quotes; adjacent quoted and unquoted parts make one word
// ("/usr/bin"/clang-21).
func split(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("an unclosed '")
			}
			w.WriteString(line[i+1 : i+1+j])
			i += 1 + j
			inWord = true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0 {
					i++
				}
				w.WriteByte(line[i])
			}
			if i == len(line) {
				return nil, errors.New(`an unclosed "`)
			}
			inWord = true
		case c == '\\' && i+1 < len(line):
			i++
			w.WriteByte(line[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// SetSourcePath gives cicc and cudafe++ path as the source's path (--orig_src_path_name), in place
// of the absolute one nvcc made: the module id, and with it the names of the source's
// internal-linkage kernels, are then the same wherever the source is compiled. It reports whether any
// step took it.
func (p Plan) SetSourcePath(path string) bool {
	set := false
	for _, s := range p.Steps {
		for i := 1; i < len(s); i++ {
			if s[i] == "--orig_src_path_name" && i+1 < len(s) {
				s[i+1] = path
				set = true
			} else if strings.HasPrefix(s[i], "--orig_src_path_name=") {
				s[i] = "--orig_src_path_name=" + path
				set = true
			}
		}
	}
	return set
}

// Environ is base (nil: this process's environment) with the plan's assignments.
func (p Plan) Environ(base []string) []string {
	if base == nil {
		base = os.Environ()
	}
	return append(append([]string(nil), base...), p.Env...)
}

// Command is step's command line with its program found on the plan's PATH (the last PATH it
// assigns; nvcc puts its own directory first), as a shell would run it. A program not found there
// stays as it is (exec then looks for it on this process's PATH).
func (p Plan) Command(s Step) []string {
	cmd := append([]string(nil), s...)
	if strings.Contains(cmd[0], "/") {
		return cmd
	}
	path := ""
	for _, kv := range p.Env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		f := filepath.Join(dir, cmd[0])
		if st, err := os.Stat(f); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			cmd[0] = f
			break
		}
	}
	return cmd
}

// EmbeddedFatbinPath is the C source that step, nvcc's fatbinary step, writes for the host code to
// include (--embedded-fatbin=PATH), or "" when it writes none.
func EmbeddedFatbinPath(s Step) string {
	if s.Tool() != "fatbinary" {
		return ""
	}
	for _, a := range s[1:] {
		if v, ok := strings.CutPrefix(a, "--embedded-fatbin="); ok {
			return v
		}
	}
	return ""
}

// EmbeddedFatbin writes data, a fatbin, as the C source that nvcc's host code includes from its stub
// file (TU.cudafe1.stub.c: #include "TU.fatbin.c"): the bytes in the section .nv_fatbin, and the
// wrapper __fatDeviceText, which the stub registers with the CUDA runtime, in .nvFatBinSegment,
// where nvcc's own fatbinary puts them (cuobjdump finds the device code there). label names what it is
// of, in a comment. data that is not a fatbin is refused.
func EmbeddedFatbin(w io.Writer, label string, data []byte) error {
	if _, err := fatbin.Read(data); err != nil {
		return fmt.Errorf("the device code is not a fatbin: %w", err)
	}
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("/* Code generated by gpubuilder from the fatbin of %s (%d bytes), in place of nvcc's own. DO NOT EDIT. */\n", label, len(data))
	p("#ifndef __SKIP_INTERNAL_FATBINARY_HEADERS\n#include \"fatbinary_section.h\"\n#endif\n")
	p("#define __CUDAFATBINSECTION \".nvFatBinSegment\"\n#define __CUDAFATBINDATASECTION \".nv_fatbin\"\n")
	p("static const unsigned char gpubuild_fatbin_data[] __attribute__((aligned(8))) __attribute__((section(__CUDAFATBINDATASECTION))) = {")
	if err := embed.CBytes(b, data); err != nil {
		return err
	}
	p("\n};\n")
	p("#ifdef __cplusplus\nextern \"C\" {\n#endif\n")
	p("static const __fatBinC_Wrapper_t __fatDeviceText __attribute__((aligned(8))) __attribute__((section(__CUDAFATBINSECTION))) __attribute__((used)) =\n")
	p("    {0x466243b1, 1, (const unsigned long long *)gpubuild_fatbin_data, 0};\n")
	p("#ifdef __cplusplus\n}\n#endif\n")
	return b.Flush()
}

// EmbeddedRelocatable writes, in place of nvcc's fatbinary output for relocatable device code
// (-rdc=true), the C source that the host code includes from its stub file: the wrapper
// __fatbinwrap<ID> (ID the stub's __NV_MODULE_ID) that the object passes to its
// __cudaRegisterLinkedBinary<ID> call, with no device code of its own. The device code of every
// source is linked per chip into one fatbin, which the registration (package host's Registration)
// carries and registers for every object, so no object needs its own copy (nvcc's holds its
// relocatable cubin and PTX for a later nvcc -dlink). label names the target, in a comment.
func EmbeddedRelocatable(w io.Writer, label string) error {
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("/* Code generated by gpubuilder for %s, in place of nvcc's relocatable fatbin. DO NOT EDIT.\n", label)
	p(" * The device code is linked per chip and registered for every object by gpubuild register. */\n")
	p("#ifndef __SKIP_INTERNAL_FATBINARY_HEADERS\n#include \"fatbinary_section.h\"\n#endif\n")
	p("#ifdef __cplusplus\nextern \"C\" {\n#endif\n")
	p("#define GPUBUILD_WRAPPER_CORE(id) __fatbinwrap##id\n#define GPUBUILD_WRAPPER(id) GPUBUILD_WRAPPER_CORE(id)\n")
	p("extern const __fatBinC_Wrapper_t GPUBUILD_WRAPPER(__NV_MODULE_ID) __attribute__((aligned(8))) = {0x466243b1, 1, 0, 0};\n")
	p("#ifdef __cplusplus\n}\n#endif\n")
	return b.Flush()
}

// ArchListOptions are the options that give each of nvcc's compiles of one source, per chip and
// host side, the __CUDA_ARCH_LIST__ that one `nvcc -gencode ...` of all its chips defines (their
// __CUDA_ARCH__ values, ascending, comma-separated). nvcc defines it from the chips of the compile at
// hand, and CCCL (Thrust, CUB) names its inline ABI namespace after it: a kernel compiled for sm_90
// alone would be THRUST_..._900_NS:: in the cubin while the host side, compiled once, registers
// THRUST_..._800_900_NS::, and the launch fails on the GPU with cudaErrorSymbolNotFound. The
// options go after nvcc's own definition (-U, then -D), and the commas are escaped from nvcc's
// option lists. None for no chips.
func ArchListOptions(chips []chip.Chip) []string {
	if len(chips) == 0 {
		return nil
	}
	var nums []int
	for _, c := range chips {
		if n := c.Number() * 10; !slices.Contains(nums, n) {
			nums = append(nums, n)
		}
	}
	slices.Sort(nums)
	list := make([]string, len(nums))
	for i, n := range nums {
		list[i] = strconv.Itoa(n)
	}
	return []string{"-U__CUDA_ARCH_LIST__", "-D__CUDA_ARCH_LIST__=" + strings.Join(list, `\,`)}
}

// PreprocessorOptions spells clang's preprocessor options as nvcc takes them: nvcc has no -iquote or
// -idirafter, and searches their directories with -I.
func PreprocessorOptions(opts []string) []string {
	var out []string
	for i := 0; i < len(opts); i++ {
		o := opts[i]
		for _, name := range []string{"-iquote", "-idirafter"} {
			if o == name && i+1 < len(opts) {
				o = "-I"
			} else if strings.HasPrefix(o, name) {
				o = "-I" + o[len(name):]
			}
		}
		out = append(out, o)
	}
	return out
}

// Run runs the plan's steps in order, each by run (its command line, with the program found by
// Command; run adds Env to its environment); replace, when not nil, may run a step in place of the
// plan's (reporting whether it did). nvcc's rm steps are left out: its temporary files are the
// caller's to remove (nvcc puts them in TMPDIR).
func (p Plan) Run(replace func(Step) (bool, error), run func(cmd []string) error) error {
	for _, s := range p.Steps {
		if s.Tool() == "rm" {
			continue
		}
		if replace != nil {
			done, err := replace(s)
			if err != nil {
				return err
			}
			if done {
				continue
			}
		}
		if err := run(p.Command(s)); err != nil {
			return err
		}
	}
	return nil
}
