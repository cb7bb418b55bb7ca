package gazelle

import (
	"regexp"
	"strings"
)

// mlirKind is what an .mlir file is to the build.
type mlirKind int

const (
	// mlirNone: no GPU code that a rule builds (no top-level gpu.module, no GPU program).
	mlirNone mlirKind = iota
	// mlirModules: kernels in gpu.modules, without a host program: gpu_module targets.
	mlirModules
	// mlirProgram: a host func.func @main that launches kernels (gpu.launch regions or
	// gpu.launch_func of its gpu.modules): a gpu_binary.
	mlirProgram
	// mlirTest: a program whose output its // CHECK: lines check: a gpu_test.
	mlirTest
)

func (k mlirKind) String() string {
	return [...]string{"none", "modules", "program", "test"}[k]
}

// mlirFile is what the extension reads from an .mlir file.
type mlirFile struct {
	Modules []string // the names of its gpu.modules that are not inside another one, in text order
	Main    bool     // a func.func @main outside every gpu.module (a host entry point)
	Launch  bool     // a gpu.launch or gpu.launch_func outside every gpu.module
	Check   bool     // a FileCheck directive comment: // CHECK:, // CHECK-NEXT:, ...
}

// Kind classifies the file: a program when it has a host @main that launches kernels (a test when
// its CHECK lines say what it prints), else modules when it has gpu.modules, else none.
func (f mlirFile) Kind() mlirKind {
	switch {
	case f.Main && f.Launch && f.Check:
		return mlirTest
	case f.Main && f.Launch:
		return mlirProgram
	case len(f.Modules) > 0:
		return mlirModules
	}
	return mlirNone
}

// checkDirective is a FileCheck directive with the default prefix, as gpu_test checks them.
var checkDirective = regexp.MustCompile(`^//\s*CHECK(-NEXT|-SAME|-NOT|-DAG|-LABEL|-EMPTY|-COUNT-[0-9]+)?:`)

// parseMLIR reads the ops of MLIR source text that decide its targets. It reads the text as MLIR's
// lexer does where that matters: // comments and "..." string literals (with \ escapes) are not
// code, symbol names may be quoted (@"my kernels"), and op names are bare identifiers with dots. An
// op's body is found past its header (gpu.module's targets [...] and offloading handler <...>, an
// `attributes {...}` dictionary). Modules are the gpu.modules that MLIR's passes, and so
// gpu_module's module attribute, look at: those at the top level of the file or right inside a
// builtin.module at its top level. It never fails: text it cannot read (an unterminated string,
// unbalanced braces) is classified by what was read, and the build reports the error itself.
//
// (rules_gpu's full reader of MLIR text is tools/internal/mlir, which Go's internal-package rule
// keeps from a package that users' gazelle binaries import; this reads only which ops appear where.)
func parseMLIR(src string) mlirFile {
	var f mlirFile
	toks := lexMLIR(src, &f)
	const (
		other = iota
		builtinBody
		gpuModuleBody
	)
	var braces []int // the kind of each open {
	inGPUModule := 0
	// After an op name whose body matters, until the body's {: which body it is, the depth in
	// [ ( < of its header, and whether the next { opens an attributes dictionary.
	pending, headerDepth, attrDict := other, 0, false
	topLevel := func() bool {
		return len(braces) == 0 || len(braces) == 1 && braces[0] == builtinBody
	}
	for i, t := range toks {
		switch {
		case pending != other && (t == "[" || t == "(" || t == "<"):
			headerDepth++
		case pending != other && (t == "]" || t == ")" || t == ">") && headerDepth > 0:
			headerDepth--
		case pending != other && t == "attributes" && headerDepth == 0:
			attrDict = true
		case t == "{":
			kind := other
			if pending != other && headerDepth == 0 {
				if attrDict {
					attrDict = false
				} else {
					kind, pending = pending, other
				}
			}
			if kind == gpuModuleBody {
				inGPUModule++
			}
			braces = append(braces, kind)
		case t == "}":
			if n := len(braces); n > 0 {
				if braces[n-1] == gpuModuleBody {
					inGPUModule--
				}
				braces = braces[:n-1]
			}
		case inGPUModule > 0 || pending != other:
			// Device code, or an op's header.
		case t == "gpu.module":
			if i+1 < len(toks) && strings.HasPrefix(toks[i+1], "@") {
				if topLevel() {
					f.Modules = append(f.Modules, toks[i+1][1:])
				}
				pending, headerDepth, attrDict = gpuModuleBody, 0, false
			}
		case (t == "module" || t == "builtin.module") && len(braces) == 0:
			pending, headerDepth, attrDict = builtinBody, 0, false
		case t == "func.func":
			// func.func [private|public|nested] @name
			for j := i + 1; j < len(toks) && j <= i+2; j++ {
				if toks[j] == "@main" {
					f.Main = true
				}
			}
		case t == "gpu.launch" || t == "gpu.launch_func":
			f.Launch = true
		}
	}
	return f
}

// lexMLIR splits MLIR text into the tokens parseMLIR looks at: bare identifiers (with dots),
// symbol references (@name, with a quoted name unquoted), "->" and single punctuation. String
// literals and other text are dropped; comments are dropped after noting CHECK directives in f.
func lexMLIR(src string, f *mlirFile) []string {
	var toks []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case strings.HasPrefix(src[i:], "//"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			if checkDirective.MatchString(src[i : i+end]) {
				f.Check = true
			}
			i += end
		case c == '"':
			_, n := mlirString(src[i:])
			i += n
		case c == '@':
			if i+1 < len(src) && src[i+1] == '"' {
				s, n := mlirString(src[i+1:])
				toks = append(toks, "@"+s)
				i += 1 + n
			} else {
				n := bareIdent(src[i+1:])
				toks = append(toks, "@"+src[i+1:i+1+n])
				i += 1 + n
			}
		case isIdentStart(c):
			n := bareIdent(src[i:])
			toks = append(toks, src[i:i+n])
			i += n
		case strings.HasPrefix(src[i:], "->"):
			toks = append(toks, "->")
			i += 2
		case strings.IndexByte("{}[]()<>", c) >= 0:
			toks = append(toks, string(c))
			i++
		case c == '%' || c == '^' || c == '#' || c == '!':
			// A value, block, attribute alias or type alias name: skip its identifier so that its
			// parts are not read as op names (%gpu.module is not an op).
			i++
			i += bareIdent(src[i:])
		default:
			i++
		}
	}
	return toks
}

// mlirString reads a "..." literal at the start of s; it returns the contents (escapes left as
// written) and the length read, to the end of s when unterminated.
func mlirString(s string) (string, int) {
	for j := 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return s[1:j], j + 1
		case '\n':
			return s[1:j], j // MLIR strings do not span lines
		}
	}
	return s[min(1, len(s)):], len(s)
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// bareIdent is the length of MLIR's bare identifier at the start of s: letters, digits, _, $ and .
// (it is 0 when s does not start with one).
func bareIdent(s string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		if isIdentStart(c) || c >= '0' && c <= '9' || c == '$' || c == '.' {
			n++
			continue
		}
		break
	}
	return n
}
