package compile

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

// Equivalence with MLIR itself. Our pipeline (mlir-opt lowering, mlir-translate, llvm-link with
// libdevice, opt, llc, ptxas) and MLIR's own serialisation (mlir-opt --gpu-lower-to-nvvm-pipeline,
// whose gpu-module-to-binary runs LLVM's NVPTX back end in-process and then ptxas) build the same
// kernels with the same parameter lists, for every test kernel and chip at O=3. Resource usage
// (ptxas -v of both PTX) is logged side by side; shared memory, fixed by the kernels' workgroup
// buffers, must be equal.
//
// MLIR's serialisation with CUDA 12.4 here needs a toolkit root: MLIR runs <root>/bin/ptxas (else
// ptxas from PATH) and links <root>/nvvm/libdevice/libdevice.10.bc only when it finds a root (else
// the PTX calls __nv_* functions that ptxas cannot resolve). Debian's MLIR has no built-in root, so
// the root comes from CUDA_ROOT (or CUDA_HOME, CUDA_PATH), or from gpu-module-to-binary's toolkit=
// option. The test makes one from the tools it uses, so both routes run the same ptxas and libdevice.
func TestEquivalenceWithMLIR(t *testing.T) {
	tools := findTools(t)
	root := mlirToolkitRoot(t, tools)
	cuobjdump, _ := exec.LookPath("cuobjdump")
	if p := os.Getenv("CUOBJDUMP"); p != "" {
		cuobjdump = p
	}
	var table []string
	for _, src := range []string{"testdata/saxpy.mlir", "testdata/reduce.mlir"} {
		for _, c := range []string{"sm_80", "sm_90"} {
			t.Run(filepath.Base(src)+"/"+c, func(t *testing.T) {
				dir := t.TempDir()
				ch := mustChip(t, c)
				ours := func(format Format) string {
					out := filepath.Join(dir, "ours."+string(format))
					job := Job{Target: "//t:k", Src: src, Out: out, Format: format, Chip: ch, Toolkit: chip.Toolkit{Major: 12, Minor: 4}, Codegen: Codegen{O: 3}}
					if err := tools.Compile(context.Background(), job); err != nil {
						t.Fatal(err)
					}
					return out
				}
				ourPTX, ourCubin := ours(FormatISA), ours(FormatBin)
				mlirPTX, mlirCubin := mlirSerialise(t, tools.MLIROpt, root, src, c, "isa", dir), mlirSerialise(t, tools.MLIROpt, root, src, c, "bin", dir)

				for _, p := range []string{ourCubin, mlirCubin} {
					img, err := artifact.Open(p)
					if err != nil {
						t.Fatal(err)
					}
					if img.Format != artifact.FormatCubin || img.Images[0].ArchName() != c {
						t.Errorf("%s: %s for %s, want a cubin for %s", filepath.Base(p), img.Format, img.Images[0].ArchName(), c)
					}
				}

				ourEntries, mlirEntries := ptxEntries(t, ourPTX), ptxEntries(t, mlirPTX)
				if len(ourEntries) == 0 {
					t.Fatalf("our PTX has no .entry")
				}
				if !reflect.DeepEqual(sortedKeys(ourEntries), sortedKeys(mlirEntries)) {
					t.Errorf("kernels differ: ours %v, MLIR's %v", sortedKeys(ourEntries), sortedKeys(mlirEntries))
				}
				for name, params := range ourEntries {
					if m, ok := mlirEntries[name]; ok && !reflect.DeepEqual(params, m) {
						t.Errorf("%s: parameters differ:\n ours   %q\n MLIR's %q", name, params, m)
					}
				}

				ourRes, mlirRes := ptxasResources(t, tools.Ptxas, c, ourPTX), ptxasResources(t, tools.Ptxas, c, mlirPTX)
				t.Logf("PTX ISA: ours %s, MLIR's %s; PTX bodies %s", ptxISA(t, ourPTX), ptxISA(t, mlirPTX), ptxBodyDiff(t, ourPTX, mlirPTX))
				for _, name := range sortedKeys(ourEntries) {
					o, m := ourRes[name], mlirRes[name]
					row := fmt.Sprintf("%-14s %-13s %s  regs %3d / %3d  smem %5d / %5d  stack %3d / %3d  spills %d+%d / %d+%d",
						filepath.Base(src), name, c, o.regs, m.regs, o.smem, m.smem, o.stack, m.stack, o.spillStores, o.spillLoads, m.spillStores, m.spillLoads)
					t.Log("ours / MLIR's: " + row)
					table = append(table, row)
					if o.smem != m.smem {
						t.Errorf("%s: shared memory differs: ours %d bytes, MLIR's %d", name, o.smem, m.smem)
					}
				}

				// The cubins are what ptxas makes of the PTX: their registers and stack (cuobjdump) are
				// what ptxas -v reported for it, and their shared memory is equal. (A cubin's SHARED
				// can exceed ptxas -v's smem: sm_90 cubins of kernels using shared memory reserve 1 KB
				// more, which ptxas -v does not count.)
				if cuobjdump == "" {
					t.Log("no cuobjdump: the cubins' resource usage is not checked")
					return
				}
				ourBin, mlirBin := cubinResources(t, cuobjdump, ourCubin), cubinResources(t, cuobjdump, mlirCubin)
				for _, pair := range []struct {
					cubin string
					got   map[string]resources
					want  map[string]resources
				}{{ourCubin, ourBin, ourRes}, {mlirCubin, mlirBin, mlirRes}} {
					for name, want := range pair.want {
						g := pair.got[name]
						if g.regs != want.regs || g.stack != want.stack || g.smem < want.smem {
							t.Errorf("%s %s: cuobjdump says regs %d stack %d shared %d; ptxas -v of its PTX: regs %d stack %d smem %d",
								filepath.Base(pair.cubin), name, g.regs, g.stack, g.smem, want.regs, want.stack, want.smem)
						}
					}
				}
				for _, name := range sortedKeys(ourEntries) {
					t.Logf("cubins, ours / MLIR's: %s %s: REG %d / %d, SHARED %d / %d, STACK %d / %d", name, c,
						ourBin[name].regs, mlirBin[name].regs, ourBin[name].smem, mlirBin[name].smem, ourBin[name].stack, mlirBin[name].stack)
					if ourBin[name].smem != mlirBin[name].smem {
						t.Errorf("%s: the cubins' shared memory differs: ours %d, MLIR's %d", name, ourBin[name].smem, mlirBin[name].smem)
					}
				}
			})
		}
	}
	if len(table) > 0 {
		t.Logf("resource usage at O=3, ours / MLIR's (ptxas -v):\n%s", strings.Join(table, "\n"))
	}
}

// mlirToolkitRoot makes a CUDA toolkit root for MLIR's serialiser holding the pipeline's own ptxas
// and libdevice: bin/ptxas and nvvm/libdevice/libdevice.10.bc.
func mlirToolkitRoot(t *testing.T, tools Tools) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "cuda")
	for link, target := range map[string]string{
		"bin/ptxas":                      tools.Ptxas,
		"nvvm/libdevice/libdevice.10.bc": tools.Libdevice,
	} {
		if !strings.ContainsRune(target, filepath.Separator) {
			var err error
			if target, err = exec.LookPath(target); err != nil {
				t.Fatal(err)
			}
		}
		abs, err := filepath.Abs(target)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(root, link)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, p); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// mlirSerialise builds src for chip with MLIR's own pipeline,
//
//	CUDA_ROOT=<root> mlir-opt --gpu-lower-to-nvvm-pipeline="cubin-chip=<chip> cubin-format=<format> opt-level=3"
//
// and writes its one object (PTX for isa, a cubin for bin) to dir/mlir.<format>.
func mlirSerialise(t *testing.T, mlirOpt, root, src, chipName, format, dir string) string {
	t.Helper()
	printed := filepath.Join(dir, "mlir-"+format+".mlir")
	cmd := exec.Command(mlirOpt, src, "--gpu-lower-to-nvvm-pipeline=cubin-chip="+chipName+" cubin-format="+format+" opt-level=3", "-o", printed)
	cmd.Env = append(os.Environ(), "CUDA_ROOT="+root)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	text, err := os.ReadFile(printed)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := mlir.GPUObjects(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 {
		t.Fatalf("MLIR made %d objects, want 1", len(objs))
	}
	o := objs[0]
	want := map[string]mlir.ObjectFormat{"isa": mlir.ObjectISA, "bin": mlir.ObjectBin}[format]
	if o.Format != want || o.Chip != chipName || o.Dialect != "nvvm" {
		t.Fatalf("MLIR's object is %s for %s %s, want %s for nvvm %s", o.Format, o.Dialect, o.Chip, want, chipName)
	}
	out := filepath.Join(dir, "mlir."+format)
	if err := os.WriteFile(out, o.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	entryStart = regexp.MustCompile(`(?m)^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([\w$.]+)\s*\(`)
	ptxISALine = regexp.MustCompile(`(?m)^\s*\.version\s+(\S+)`)
)

// ptxEntries returns each .entry of the PTX file with its .param declarations, whitespace
// normalised.
func ptxEntries(t *testing.T, path string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	entries := map[string][]string{}
	for _, m := range entryStart.FindAllStringSubmatchIndex(text, -1) {
		name := text[m[2]:m[3]]
		end := strings.IndexByte(text[m[1]:], ')')
		if end < 0 {
			t.Fatalf("%s: .entry %s: no closing parenthesis", path, name)
		}
		params := []string{}
		for _, p := range strings.Split(text[m[1]:m[1]+end], ",") {
			if p = strings.Join(strings.Fields(p), " "); p != "" {
				params = append(params, p)
			}
		}
		entries[name] = params
	}
	return entries
}

func ptxISA(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if m := ptxISALine.FindSubmatch(data); m != nil {
		return string(m[1])
	}
	return "?"
}

var ptxReg = regexp.MustCompile(`%(r|rd|rs|p|f|fd|h|hh)\d+`)

// ptxBodyDiff compares two PTX files as multisets of lines, without comments, the .version line and
// register numbers, and says which lines only one of them has.
func ptxBodyDiff(t *testing.T, a, b string) string {
	t.Helper()
	body := func(path string) map[string]int {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := map[string]int{}
		for _, l := range strings.Split(string(data), "\n") {
			if i := strings.Index(l, "//"); i >= 0 {
				l = l[:i]
			}
			l = strings.Join(strings.Fields(ptxReg.ReplaceAllString(l, "%$1")), " ")
			if l != "" && !strings.HasPrefix(l, ".version") {
				lines[l]++
			}
		}
		return lines
	}
	x, y := body(a), body(b)
	only := func(p, q map[string]int) (out []string) {
		for _, l := range sortedKeys(p) {
			for range p[l] - q[l] {
				out = append(out, l)
			}
		}
		return out
	}
	ox, oy := only(x, y), only(y, x)
	if len(ox) == 0 && len(oy) == 0 {
		return "the same lines (apart from .version, comments and register numbers)"
	}
	return fmt.Sprintf("differ: only ours %q; only MLIR's %q", ox, oy)
}

type resources struct{ regs, smem, stack, spillStores, spillLoads int }

var (
	ptxasEntry = regexp.MustCompile(`Compiling entry function '([^']+)'`)
	ptxasProps = regexp.MustCompile(`Function properties for (\S+)`)
	ptxasFrame = regexp.MustCompile(`(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads`)
	ptxasUsed  = regexp.MustCompile(`Used (\d+) registers`)
	ptxasSmem  = regexp.MustCompile(`(\d+) bytes smem`)
	cuobjRes   = regexp.MustCompile(`Function ([\w$.]+):\s+REG:(\d+) STACK:(\d+) SHARED:(\d+)`)
)

// ptxasResources compiles the PTX with ptxas -v at -O3 and returns each entry's resource usage.
func ptxasResources(t *testing.T, ptxas, chipName, ptx string) map[string]resources {
	t.Helper()
	cmd := exec.Command(ptxas, "-v", "-arch="+chipName, "-O3", "-o", ptx+".v.cubin", ptx)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	res := map[string]resources{}
	var entry, props string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		line := sc.Text()
		if m := ptxasEntry.FindStringSubmatch(line); m != nil {
			entry, props = m[1], ""
			continue
		}
		if m := ptxasProps.FindStringSubmatch(line); m != nil {
			props = m[1]
			continue
		}
		r := res[entry]
		if m := ptxasFrame.FindStringSubmatch(line); m != nil && entry != "" && props == entry {
			r.stack, r.spillStores, r.spillLoads = atoi(m[1]), atoi(m[2]), atoi(m[3])
		}
		if m := ptxasUsed.FindStringSubmatch(line); m != nil && entry != "" {
			r.regs = atoi(m[1])
			if s := ptxasSmem.FindStringSubmatch(line); s != nil {
				r.smem = atoi(s[1])
			}
		}
		if entry != "" {
			res[entry] = r
		}
	}
	if len(res) == 0 {
		t.Fatalf("ptxas -v reported no entry functions:\n%s", out)
	}
	return res
}

// cubinResources returns each function's resource usage as cuobjdump -res-usage reports it.
func cubinResources(t *testing.T, cuobjdump, cubin string) map[string]resources {
	t.Helper()
	out, err := exec.Command(cuobjdump, "-res-usage", cubin).CombinedOutput()
	if err != nil {
		t.Fatalf("cuobjdump -res-usage %s: %v\n%s", cubin, err, out)
	}
	res := map[string]resources{}
	for _, m := range cuobjRes.FindAllStringSubmatch(string(out), -1) {
		res[m[1]] = resources{regs: atoi(m[2]), stack: atoi(m[3]), smem: atoi(m[4])}
	}
	return res
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
