package mlir

import (
	"bytes"
	"fmt"
	"strings"
)

// ObjectFormat is what a #gpu.object holds, named as gpu-module-to-binary's format option names it.
// MLIR prints the object's string after "offload =", "assembly =" or "bin =", and after nothing for
// a fatbin (its parser also accepts "fatbin =").
type ObjectFormat string

// The object formats.
const (
	ObjectOffload ObjectFormat = "offload" // LLVM bitcode; printed "offload = "
	ObjectISA     ObjectFormat = "isa"     // PTX; printed "assembly = "
	ObjectBin     ObjectFormat = "bin"     // a cubin; printed "bin = "
	ObjectFatbin  ObjectFormat = "fatbin"  // a fatbin; printed with no keyword
)

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
	// Chip is the target's chip parameter; DefaultChip for an #nvvm.target without one.
	Chip string
	// Format is what Data holds.
	Format ObjectFormat
	// Data is the object's bytes, MLIR's string escapes decoded.
	Data []byte
}

// GPUObjects returns the objects of every gpu.binary op of MLIR text, in text order. It reads both
// the custom form that mlir-opt prints,
//
//	gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, properties = {...}, bin = "\7FELF...">]
//
// and the generic form ("gpu.binary"() <{objects = [...], sym_name = "kernels"}> : () -> ()). The
// text is lexed as Modules lexes it (strings decoded as MLIR decodes them: \" \\ \n \t and \XX).
// Errors name the line, "line 3: ...", and wrap a *SyntaxError with the exact position: a string
// with another escape, with a line break or that does not end, unbalanced brackets, a gpu.binary
// without an object list, and an object it cannot read.
func GPUObjects(src []byte) ([]GPUObject, error) {
	f, err := scan(src)
	if err != nil {
		return nil, atLine(err)
	}
	r := &binaryReader{file: f, line: 1}
	var objs []GPUObject
	for i := 0; i < len(f.toks); i++ {
		if !r.isBinaryOp(i) {
			continue
		}
		next, got, err := r.binaryOp(i)
		if err != nil {
			return nil, atLine(err)
		}
		objs = append(objs, got...)
		i = next - 1
	}
	return objs, nil
}

// lineError reports a *SyntaxError as GPUObjects reports its errors: by line, "line 3: message".
type lineError struct{ *SyntaxError }

func (e lineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }
func (e lineError) Unwrap() error { return e.SyntaxError }

func atLine(err error) error {
	if se, ok := err.(*SyntaxError); ok {
		return lineError{se}
	}
	return err
}

// binaryReader reads gpu.binary ops from a scanned text, counting lines forward as it goes.
type binaryReader struct {
	*file
	off, line int // line is the 1-based line of src[off]
}

// lineAt returns the line of src[off], counting on from the last offset asked for.
func (r *binaryReader) lineAt(off int) int {
	if off < r.off {
		r.off, r.line = 0, 1
	}
	r.line += bytes.Count(r.src[r.off:off], []byte{'\n'})
	r.off = off
	return r.line
}

// isBinaryOp says whether toks[i] names a gpu.binary op: the bare name (not a dictionary key) or
// the generic form's "gpu.binary"(.
func (r *binaryReader) isBinaryOp(i int) bool {
	t, toks := r.toks[i], r.toks
	switch t.kind {
	case kBare:
		if r.text(t) != "gpu.binary" {
			return false
		}
		if i+1 < len(toks) {
			next := toks[i+1]
			if isPunct(r.src, next, "=") || isPunct(r.src, next, ",") || isPunct(r.src, next, ":") || next.br == '}' {
				return false // a dictionary key
			}
		}
		return true
	case kString:
		return t.end-t.start < 32 && unquote(r.src[t.start:t.end]) == "gpu.binary" && i+1 < len(toks) && toks[i+1].br == '('
	}
	return false
}

// binaryOp reads the gpu.binary op whose name is toks[at] and returns the index past it and its
// objects. The op ends with its object list: the first bracketed group that is a [...] list (custom
// form) or that holds #gpu.object attributes or an objects = entry (generic form).
func (r *binaryReader) binaryOp(at int) (int, []GPUObject, error) {
	toks, src := r.toks, r.src
	name := ""
	for i := at + 1; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == kAt && name == "":
			name = symbolName(src, t)
		case t.br == '{' || t.br == '(' || t.br == '[':
			end := r.match[i]
			if name == "" {
				for j := i + 1; j+2 < end; j++ {
					if toks[j].kind == kBare && r.text(toks[j]) == "sym_name" && isPunct(src, toks[j+1], "=") && toks[j+2].kind == kString {
						name = unquote(src[toks[j+2].start:toks[j+2].end])
					}
				}
			}
			var objs []GPUObject
			hasObjects := false
			for j := i + 1; j < end; j++ {
				if toks[j].kind == kBare && r.text(toks[j]) == "objects" && j+1 < end && isPunct(src, toks[j+1], "=") {
					hasObjects = true
				}
				if isObjectAttr(src, toks[j]) {
					o, err := r.object(toks[j], name, len(objs))
					if err != nil {
						return 0, nil, err
					}
					objs = append(objs, o)
				}
			}
			if t.br == '[' || hasObjects || len(objs) > 0 {
				return end + 1, objs, nil
			}
			i = end
		case t.br == '}' || t.br == ')' || t.br == ']' || r.isBinaryOp(i):
			return 0, nil, syntaxError(src, toks[at].start, "gpu.binary @%s has no object list", name)
		}
	}
	return 0, nil, syntaxError(src, toks[at].start, "gpu.binary @%s: the text ends before its object list", name)
}

// symbolName is the name of a symbol token, @name or @"name", unescaped.
func symbolName(src []byte, t token) string {
	if src[t.start+1] == '"' {
		return unquote(src[t.start+1 : t.end])
	}
	return string(src[t.start+1 : t.end])
}

// dialectName is the name of a kHash or kBang token without its body, e.g. #gpu.object.
func dialectName(src []byte, t token) string {
	return string(src[t.start:scanSuffixID(src, t.start+1)])
}

func isObjectAttr(src []byte, t token) bool {
	return t.kind == kHash && t.body < t.end && dialectName(src, t) == "#gpu.object"
}

// bodyTokens lexes the body of a dialect attribute token, between its < and >.
func (r *binaryReader) bodyTokens(t token) ([]token, error) {
	return lexFrom(r.src[:t.end-1], t.body+1)
}

// object reads the #gpu.object token t, the index'th object of gpu.binary @binary: the target,
// then optional properties, the object string (after a format keyword, or none for a fatbin), and
// optional kernels.
func (r *binaryReader) object(t token, binary string, index int) (GPUObject, error) {
	src := r.src
	o := GPUObject{Binary: binary, Index: index, Line: r.lineAt(t.start)}
	fail := func(off int, format string, args ...any) (GPUObject, error) {
		return GPUObject{}, syntaxError(src, off, "gpu.binary @%s object %d: %s", binary, index, fmt.Sprintf(format, args...))
	}
	toks, err := r.bodyTokens(t)
	if err != nil {
		return GPUObject{}, err
	}
	parts := splitTop(src, toks)
	if len(parts) == 0 || len(parts[0]) == 0 {
		return fail(t.start, "no target")
	}
	if err := r.target(&o, parts[0], 0); err != nil {
		return fail(parts[0][0].start, "%v", err)
	}
	found := false
	prevEnd := parts[0][len(parts[0])-1].end // where an empty part is, for messages
	for _, part := range parts[1:] {
		format, i := ObjectFatbin, 0
		if len(part) >= 2 && part[0].kind == kBare && isPunct(src, part[1], "=") {
			switch key := r.text(part[0]); key {
			case "properties", "kernels":
				prevEnd = part[len(part)-1].end
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
				return fail(part[0].start, "unknown object field %q", key)
			}
			i = 2
		}
		if i >= len(part) {
			if len(part) > 0 {
				prevEnd = part[len(part)-1].end
			}
			return fail(prevEnd, "expected the object string, found nothing")
		}
		prevEnd = part[len(part)-1].end
		if len(part)-i != 1 || part[i].kind != kString {
			return fail(part[i].start, "expected the object string, found %q", src[part[i].start:prevEnd])
		}
		if found {
			return fail(part[i].start, "a second object string")
		}
		o.Format, o.Data, found = format, unquoteBytes(src[part[i].start:part[i].end]), true
	}
	if !found {
		return fail(t.start, "no object string")
	}
	return o, nil
}

// target reads an object's target attribute, #dialect.target<params> or an alias of one, into
// o.Target, o.Dialect and o.Chip.
func (r *binaryReader) target(o *GPUObject, part []token, depth int) error {
	src := r.src
	t := part[0]
	if t.kind != kHash {
		return fmt.Errorf("expected a target attribute, found %q", src[t.start:part[len(part)-1].end])
	}
	if def, ok := r.aliases[r.text(t)]; ok && len(part) == 1 && t.body == t.end && len(def) > 0 && depth < 8 {
		return r.target(o, def, depth+1)
	}
	o.Target = string(src[t.start:part[len(part)-1].end])
	name := dialectName(src, t)
	dialect, _, ok := strings.Cut(strings.TrimPrefix(name, "#"), ".")
	if !ok {
		return fmt.Errorf("target %s is not a dialect attribute (#dialect.target<...>) nor a known alias", name)
	}
	o.Dialect = dialect
	if dialect == "nvvm" {
		o.Chip = DefaultChip
	}
	if t.body == t.end {
		return nil
	}
	toks, err := r.bodyTokens(t)
	if err != nil {
		return err
	}
	for _, e := range splitTop(src, toks) {
		if len(e) == 3 && e[0].kind == kBare && r.text(e[0]) == "chip" && isPunct(src, e[1], "=") && e[2].kind == kString {
			o.Chip = unquote(src[e[2].start:e[2].end])
		}
	}
	return nil
}

// IsText reports whether data looks like MLIR text rather than PTX: its first token, past blank
// lines and // comments, starts a module, an op or an alias definition (PTX starts with a
// directive).
func IsText(data []byte) bool {
	i := skipSpace(data, 0)
	for _, p := range []string{"module", `"builtin.module"`, "gpu.binary", `"gpu.binary"`, "gpu.module", "#", "!", "{-#"} {
		if bytes.HasPrefix(data[i:], []byte(p)) {
			return true
		}
	}
	return false
}
