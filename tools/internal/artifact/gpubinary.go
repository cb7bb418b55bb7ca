package artifact

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
)

// FormatMLIR is MLIR text holding gpu.binary ops: what mlir-opt's gpu-module-to-binary pass prints.
const FormatMLIR Format = "mlir"

// ObjectFormat is what a #gpu.object holds, named as gpu-module-to-binary's format option names it.
// MLIR prints the object's string after "offload =", "assembly =" or "bin =", and after nothing for
// a fatbin (a parser also accepts "fatbin =").
type ObjectFormat string

// The object formats.
const (
	ObjectOffload ObjectFormat = "offload" // LLVM bitcode; printed "offload = "
	ObjectISA     ObjectFormat = "isa"     // PTX; printed "assembly = "
	ObjectBin     ObjectFormat = "bin"     // a cubin; printed "bin = "
	ObjectFatbin  ObjectFormat = "fatbin"  // a fatbin; printed with no keyword
)

// DefaultNVVMChip is the chip of an #nvvm.target that names none (NVVM's default).
const DefaultNVVMChip = "sm_50"

// GPUObject is one #gpu.object of a gpu.binary op.
type GPUObject struct {
	// Binary is the symbol name of the gpu.binary op (the gpu.module it was serialised from).
	Binary string
	// Index is the object's position in the op's object list, from 0.
	Index int
	// Line is the 1-based line of the text where the object starts.
	Line int
	// Target is the object's target attribute as written, e.g. `#nvvm.target<O = 3, chip = "sm_80">`
	// (an alias is resolved to its definition).
	Target string
	// Dialect is the target attribute's dialect: "nvvm" for CUDA, "rocdl", "xevm", ...
	Dialect string
	// Chip is the target's chip, DefaultNVVMChip for an #nvvm.target without one.
	Chip string
	// Format is what Data holds.
	Format ObjectFormat
	// Data is the object's bytes, MLIR's string escapes decoded.
	Data []byte
}

// Images returns the GPU images of an NVVM object: a cubin as one ELF image, PTX as one PTX image,
// a fatbin as its entries.
func (o GPUObject) Images() ([]fatbin.Entry, error) {
	if o.Dialect != "nvvm" {
		return nil, fmt.Errorf("line %d: gpu.binary @%s object %d: target %s is not a CUDA (#nvvm.target) target", o.Line, o.Binary, o.Index, o.Target)
	}
	var (
		e   fatbin.Entry
		err error
	)
	switch o.Format {
	case ObjectBin:
		e, err = CubinImage(o.Data)
	case ObjectISA:
		e, err = PTXImage(o.Data)
	case ObjectFatbin:
		var f *fatbin.File
		if f, err = fatbin.Read(o.Data); err == nil {
			return f.Entries, nil
		}
	case ObjectOffload:
		err = fmt.Errorf("it holds LLVM bitcode (format offload), not a GPU image; serialise with format isa, bin or fatbin")
	default:
		err = fmt.Errorf("unknown object format %q", o.Format)
	}
	if err != nil {
		return nil, fmt.Errorf("line %d: gpu.binary @%s object %d (%s, %s): %w", o.Line, o.Binary, o.Index, o.Format, o.Chip, err)
	}
	return []fatbin.Entry{e}, nil
}

// IsMLIR reports whether data looks like MLIR text rather than PTX: its first token, past blank lines
// and // comments, starts a module, an op or an alias definition (PTX starts with a directive).
func IsMLIR(data []byte) bool {
	for len(data) > 0 {
		data = bytes.TrimLeft(data, " \t\r\n")
		if !bytes.HasPrefix(data, []byte("//")) {
			break
		}
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		} else {
			data = nil
		}
	}
	for _, p := range []string{"module", `"builtin.module"`, "gpu.binary", `"gpu.binary"`, "gpu.module", "#", "!", "{-#"} {
		if bytes.HasPrefix(data, []byte(p)) {
			return true
		}
	}
	return false
}

// parseMLIR returns the images of every NVVM object of every gpu.binary op of MLIR text, in text order.
func parseMLIR(data []byte) (*Artifact, error) {
	objs, err := ParseGPUBinaries(data)
	if err != nil {
		return nil, err
	}
	if len(objs) == 0 {
		return nil, fmt.Errorf("MLIR text without gpu.binary ops: serialise its gpu.modules first (mlir-opt --gpu-module-to-binary, or --gpu-lower-to-nvvm-pipeline)")
	}
	a := &Artifact{Format: FormatMLIR}
	for _, o := range objs {
		imgs, err := o.Images()
		if err != nil {
			return nil, err
		}
		a.Images = append(a.Images, imgs...)
	}
	return a, nil
}

// ParseGPUBinaries returns the objects of every gpu.binary op of MLIR text, in text order. It reads
// both the custom form that mlir-opt prints,
//
//	gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, properties = {...}, bin = "\7FELF...">]
//
// and the generic form ("gpu.binary"() <{objects = [...], sym_name = "kernels"}> : () -> ()). Strings
// are decoded as MLIR's lexer does: \" \\ \n \t and \XX (two hex digits); any other escape, a newline
// inside a string or a string that does not end is an error naming its line.
func ParseGPUBinaries(data []byte) ([]GPUObject, error) {
	toks, err := lexMLIR(data)
	if err != nil {
		return nil, err
	}
	p := &mlirParser{data: data, toks: toks, aliases: map[string]int{}}
	// Alias definitions (#name = attr) stand at the top level, outside any bracket.
	depth := 0
	for i, t := range toks {
		switch {
		case isOpen(t):
			depth++
		case isClose(t):
			depth--
		case depth == 0 && t.kind == tokWord && strings.HasPrefix(t.text, "#") && p.punct(i+1, "=") && i+2 < len(toks):
			p.aliases[t.text] = i + 2
		}
	}
	var objs []GPUObject
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		custom := t.kind == tokWord && t.text == "gpu.binary"
		generic := t.kind == tokString && string(t.value) == "gpu.binary" && p.punct(i+1, "(")
		if !custom && !generic {
			continue
		}
		next, got, err := p.binaryOp(i)
		if err != nil {
			return nil, err
		}
		objs = append(objs, got...)
		i = next - 1
	}
	return objs, nil
}

type tokKind int

const (
	tokWord   tokKind = iota // a bare word: an identifier, @symbol, #attr, number, keyword, "->"
	tokPunct                 // one of ( ) [ ] { } < > , = :
	tokString                // a string literal; value holds it decoded
)

type token struct {
	kind       tokKind
	text       string // the word or punctuation (empty for strings)
	value      []byte // a string's decoded contents
	start, end int    // byte offsets in the text
	line       int
}

const mlirPunct = "()[]{}<>,=:"

// lexMLIR splits MLIR text into words, punctuation and decoded strings, dropping // comments.
func lexMLIR(data []byte) ([]token, error) {
	var toks []token
	line := 1
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			i++
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case c == '"':
			v, end, err := lexString(data, i, line)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tokString, value: v, start: i, end: end, line: line})
			i = end
		case isArrow(data, i):
			// "->", ">=" and "<=" (function types, affine sets) are words, not brackets.
			toks = append(toks, token{kind: tokWord, text: string(data[i : i+2]), start: i, end: i + 2, line: line})
			i += 2
		case strings.IndexByte(mlirPunct, c) >= 0:
			toks = append(toks, token{kind: tokPunct, text: string(c), start: i, end: i + 1, line: line})
			i++
		default:
			j := i
			for j < len(data) && !isSpace(data[j]) && data[j] != '"' && strings.IndexByte(mlirPunct, data[j]) < 0 &&
				!isArrow(data, j) && !(data[j] == '/' && j+1 < len(data) && data[j+1] == '/') {
				j++
			}
			toks = append(toks, token{kind: tokWord, text: string(data[i:j]), start: i, end: j, line: line})
			i = j
		}
	}
	return toks, nil
}

func isArrow(data []byte, i int) bool {
	if i+1 >= len(data) {
		return false
	}
	a, b := data[i], data[i+1]
	return a == '-' && b == '>' || (a == '>' || a == '<') && b == '='
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// lexString decodes the string literal whose opening quote is at data[start], as MLIR's lexer does
// (mlir/lib/AsmParser/Lexer.cpp, Token::getStringValue), and returns it with the offset past its
// closing quote.
func lexString(data []byte, start, line int) ([]byte, int, error) {
	var out []byte
	for i := start + 1; ; {
		if i >= len(data) {
			return nil, 0, fmt.Errorf("line %d: unterminated string: the text ends before its closing quote", line)
		}
		c := data[i]
		switch c {
		case '"':
			return out, i + 1, nil
		case '\n', '\v', '\f':
			return nil, 0, fmt.Errorf("line %d: unterminated string: a line break before its closing quote", line)
		case '\\':
			if i+1 >= len(data) {
				return nil, 0, fmt.Errorf("line %d: unterminated string: the text ends in an escape", line)
			}
			switch e := data[i+1]; {
			case e == '"' || e == '\\':
				out = append(out, e)
				i += 2
			case e == 'n':
				out = append(out, '\n')
				i += 2
			case e == 't':
				out = append(out, '\t')
				i += 2
			case i+2 < len(data) && isHex(e) && isHex(data[i+2]):
				out = append(out, unhex(e)<<4|unhex(data[i+2]))
				i += 3
			default:
				return nil, 0, fmt.Errorf("line %d: unknown escape %q in string literal (MLIR knows \\\" \\\\ \\n \\t and \\XX)", line, data[i:min(i+2, len(data))])
			}
		default:
			out = append(out, c)
			i++
		}
	}
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

type mlirParser struct {
	data    []byte
	toks    []token
	aliases map[string]int // alias name -> index of the first token of its value
}

func (p *mlirParser) punct(i int, s string) bool {
	return i < len(p.toks) && p.toks[i].kind == tokPunct && p.toks[i].text == s
}

func (p *mlirParser) word(i int, s string) bool {
	return i < len(p.toks) && p.toks[i].kind == tokWord && p.toks[i].text == s
}

// group returns the index of the token that closes the bracket opened at toks[i].
func (p *mlirParser) group(i int) (int, error) {
	var stack []byte
	for j := i; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.kind != tokPunct {
			continue
		}
		switch c := t.text[0]; c {
		case '(', '[', '{', '<':
			stack = append(stack, c)
		case ')', ']', '}', '>':
			want := map[byte]byte{')': '(', ']': '[', '}': '{', '>': '<'}[c]
			if len(stack) == 0 || stack[len(stack)-1] != want {
				return 0, fmt.Errorf("line %d: unbalanced %q (opened on line %d)", t.line, c, p.toks[i].line)
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return j, nil
			}
		}
	}
	return 0, fmt.Errorf("line %d: %q is never closed", p.toks[i].line, p.toks[i].text)
}

func isOpen(t token) bool { return t.kind == tokPunct && strings.ContainsRune("([{<", rune(t.text[0])) }
func isClose(t token) bool {
	return t.kind == tokPunct && strings.ContainsRune(")]}>", rune(t.text[0]))
}

// binaryOp reads the gpu.binary op whose name is toks[at] and returns the index past it and its
// objects. The op ends with its object list: the first bracketed group that is a [...] list (custom
// form) or that holds #gpu.object attributes or an objects = entry (generic form).
func (p *mlirParser) binaryOp(at int) (int, []GPUObject, error) {
	opLine := p.toks[at].line
	name := ""
	for i := at + 1; i < len(p.toks); i++ {
		t := p.toks[i]
		switch {
		case t.kind == tokWord && strings.HasPrefix(t.text, "@") && name == "":
			name = t.text[1:]
			if name == "" && i+1 < len(p.toks) && p.toks[i+1].kind == tokString && p.toks[i+1].start == t.end {
				name = string(p.toks[i+1].value)
				i++
			}
		case isOpen(t):
			end, err := p.group(i)
			if err != nil {
				return 0, nil, err
			}
			if name == "" {
				for j := i; j+2 <= end; j++ {
					if p.word(j, "sym_name") && p.punct(j+1, "=") && p.toks[j+2].kind == tokString {
						name = string(p.toks[j+2].value)
					}
				}
			}
			var objs []GPUObject
			hasObjects := false
			for j := i + 1; j < end; j++ {
				if p.word(j, "objects") && p.punct(j+1, "=") {
					hasObjects = true
				}
				if p.word(j, "#gpu.object") && p.punct(j+1, "<") {
					close, err := p.group(j + 1)
					if err != nil {
						return 0, nil, err
					}
					o, err := p.object(j+2, close)
					if err != nil {
						return 0, nil, fmt.Errorf("line %d: gpu.binary @%s object %d: %w", p.toks[j].line, name, len(objs), err)
					}
					o.Index, o.Line = len(objs), p.toks[j].line
					objs = append(objs, o)
					j = close
				}
			}
			if t.text == "[" || hasObjects || len(objs) > 0 {
				for k := range objs {
					objs[k].Binary = name
				}
				return end + 1, objs, nil
			}
			i = end
		case isClose(t) || t.kind == tokWord && t.text == "gpu.binary":
			return 0, nil, fmt.Errorf("line %d: gpu.binary @%s has no object list", opLine, name)
		}
	}
	return 0, nil, fmt.Errorf("line %d: gpu.binary @%s: the text ends before its object list", opLine, name)
}

// object reads the contents of #gpu.object<...>, toks[from:to]: the target, then optional
// properties, the object string (after a format keyword, or none for a fatbin), optional kernels.
func (p *mlirParser) object(from, to int) (GPUObject, error) {
	var o GPUObject
	parts, err := p.split(from, to)
	if err != nil {
		return o, err
	}
	if len(parts) == 0 || parts[0][0] == parts[0][1] {
		return o, fmt.Errorf("no target")
	}
	if err := p.target(&o, parts[0][0], parts[0][1], 0); err != nil {
		return o, err
	}
	found := false
	for _, part := range parts[1:] {
		i, end := part[0], part[1]
		format := ObjectFatbin
		if i < end && p.toks[i].kind == tokWord && p.punct(i+1, "=") {
			switch key := p.toks[i].text; key {
			case "properties", "kernels":
				continue
			case "offload":
				format = ObjectOffload
			case "assembly":
				format = ObjectISA
			case "bin":
				format = ObjectBin
			case "fatbin":
				format = ObjectFatbin
			default:
				return o, fmt.Errorf("line %d: unknown object field %q", p.toks[i].line, key)
			}
			i += 2
		}
		if i >= end {
			return o, fmt.Errorf("line %d: expected the object string, found nothing", p.toks[max(i-1, 0)].line)
		}
		if end-i != 1 || p.toks[i].kind != tokString {
			return o, fmt.Errorf("line %d: expected the object string, found %q", p.toks[i].line, p.data[p.toks[i].start:p.toks[end-1].end])
		}
		if found {
			return o, fmt.Errorf("line %d: a second object string", p.toks[i].line)
		}
		o.Format, o.Data, found = format, p.toks[i].value, true
	}
	if !found {
		return o, fmt.Errorf("no object string")
	}
	return o, nil
}

// split cuts toks[from:to] at its top-level commas, returning [start, end) token ranges.
func (p *mlirParser) split(from, to int) ([][2]int, error) {
	var parts [][2]int
	start := from
	for i := from; i < to; i++ {
		switch t := p.toks[i]; {
		case isOpen(t):
			end, err := p.group(i)
			if err != nil {
				return nil, err
			}
			i = end
		case p.punct(i, ","):
			parts = append(parts, [2]int{start, i})
			start = i + 1
		}
	}
	return append(parts, [2]int{start, to}), nil
}

// target reads a target attribute, toks[from:to]: #dialect.target<params> or an alias of one.
func (p *mlirParser) target(o *GPUObject, from, to, depth int) error {
	t := p.toks[from]
	if t.kind != tokWord || !strings.HasPrefix(t.text, "#") {
		return fmt.Errorf("line %d: expected a target attribute, found %q", t.line, p.data[t.start:p.toks[to-1].end])
	}
	if def, ok := p.aliases[t.text]; ok && to-from == 1 && depth < 8 {
		end := def + 1
		if p.punct(def+1, "<") {
			close, err := p.group(def + 1)
			if err != nil {
				return err
			}
			end = close + 1
		}
		return p.target(o, def, end, depth+1)
	}
	o.Target = string(p.data[t.start:p.toks[to-1].end])
	dialect, _, ok := strings.Cut(strings.TrimPrefix(t.text, "#"), ".")
	if !ok {
		return fmt.Errorf("line %d: target %s is not a dialect attribute (#dialect.target<...>) nor a known alias", t.line, t.text)
	}
	o.Dialect = dialect
	if dialect == "nvvm" {
		o.Chip = DefaultNVVMChip
	}
	if p.punct(from+1, "<") {
		close, err := p.group(from + 1)
		if err != nil {
			return err
		}
		parts, err := p.split(from+2, close)
		if err != nil {
			return err
		}
		for _, part := range parts {
			if i := part[0]; part[1]-i == 3 && p.word(i, "chip") && p.punct(i+1, "=") && p.toks[i+2].kind == tokString {
				o.Chip = string(p.toks[i+2].value)
			}
		}
	}
	return nil
}
