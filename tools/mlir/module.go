package mlir

import (
	"strings"
)

// Module is one gpu.module op of a source text.
type Module struct {
	Name      string // the symbol name, unescaped (@"k 1" is k 1)
	Start     int    // byte offset of the gpu.module keyword
	End       int    // byte offset just after the closing } of its body
	Line, Col int    // where the gpu.module keyword is (1-based)
	// BodyStart and BodyEnd delimit the module's body region, between its braces:
	// src[BodyStart:BodyEnd] is the text after the { and before the closing }.
	BodyStart, BodyEnd int
	// TopLevel is whether the module is a direct child of the top-level module: the only
	// gpu.modules MLIR's --nvvm-attach-target looks at (so the only ones Attach changes). The
	// top-level module is the file's one builtin.module op when it has just one op and that op
	// is a module; otherwise the implicit module around all of the file's ops (as mlir-opt does).
	TopLevel bool
	Targets  []TargetAttr // the module's targets, in order; none when it has none
}

// TargetAttr is one element of a gpu.module's targets.
type TargetAttr struct {
	Text       string // as written, e.g. #nvvm.target<chip = "sm_90"> or an alias such as #sm90
	Start, End int    // byte offsets of Text
	// Attr is the attribute with aliases resolved: an #nvvm.target as mlir-opt 21 prints it,
	// anything else as its tokens with whitespace and comments left out (one space between
	// tokens). Attach compares targets by Attr.
	Attr string
	// NVVM is the target, when Attr is an #nvvm.target whose parameters Target can hold (Module
	// is empty); nil otherwise.
	NVVM *Target
}

// Modules lists the gpu.module ops of an MLIR source text, in text order, nested ones included.
// Comments, string literals and dialect attribute bodies are skipped as MLIR skips them. It fails
// with a *SyntaxError on an unterminated string, unbalanced brackets, a gpu.module without a
// name or with a header it cannot read, and on a gpu.module in MLIR's generic op form.
func Modules(src []byte) ([]Module, error) {
	f, err := parse(src)
	if err != nil {
		return nil, err
	}
	out := make([]Module, len(f.modules))
	for i, m := range f.modules {
		out[i] = m.Module
	}
	return out, nil
}

// file is a parsed source text.
type file struct {
	src     []byte
	toks    []token
	match   []int // for a bracket token, the index of its partner; -1 for other tokens
	aliases map[string][]token
	// explicit: the top-level module is the file's one op, a builtin.module (not the implicit one).
	explicit bool
	modules  []*module
}

// module is a gpu.module with where its targets are written.
type module struct {
	Module
	insertAt int    // where " [targets]" goes when it has no targets: after the name or <handler>
	list     *tlist // its targets list, when it has one
}

// tlist is a written list of targets: "[" items "]", after the name or as attributes {targets = [...]}.
type tlist struct {
	open, close int      // byte offsets of [ and ]
	items       [][2]int // byte spans of the elements
	keys        []string // the elements as attributes, for comparing
}

func (f *file) text(t token) string { return string(f.src[t.start:t.end]) }

func isPunct(src []byte, t token, s string) bool {
	return t.kind == kPunct && string(src[t.start:t.end]) == s
}

// matchBrackets pairs {}, () and [] (with {-# #-} as braces) and returns each bracket's partner.
func matchBrackets(src []byte, toks []token) ([]int, error) {
	match := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		match[i] = -1
		switch t.br {
		case '{', '(', '[':
			stack = append(stack, i)
		case '}', ')', ']':
			if len(stack) == 0 {
				return nil, syntaxError(src, t.start, "unbalanced %q: nothing to close", t.br)
			}
			o := stack[len(stack)-1]
			if closer(toks[o].br) != t.br {
				return nil, syntaxError(src, t.start, "%q does not close the %q at %s", t.br, toks[o].br, where(src, toks[o].start))
			}
			stack = stack[:len(stack)-1]
			match[i], match[o] = o, i
		}
	}
	if len(stack) > 0 {
		o := toks[stack[len(stack)-1]]
		return nil, syntaxError(src, o.start, "%q is never closed", o.br)
	}
	return match, nil
}

// splitTop splits tokens at the commas outside any bracket or <...> (as in a dictionary or a
// dialect attribute's parameters: array<i32: 1, 2> is one value). A '>' with no '<' to close
// counts for nothing.
func splitTop(src []byte, toks []token) [][]token { return split(src, toks, true) }

// splitList splits the elements of a targets list: at every comma outside brackets. Its elements
// are target attributes, each one token (#nvvm.target<...>, or an alias), so a '<' of anything
// else must not hide a comma.
func splitList(src []byte, toks []token) [][]token { return split(src, toks, false) }

func split(src []byte, toks []token, angles bool) [][]token {
	if len(toks) == 0 {
		return nil
	}
	var out [][]token
	depth, angle, from := 0, 0, 0
	for i, t := range toks {
		switch {
		case t.br == '{' || t.br == '(' || t.br == '[':
			depth++
		case t.br == '}' || t.br == ')' || t.br == ']':
			depth--
		case angles && isPunct(src, t, "<"):
			angle++
		case angles && angle > 0 && isPunct(src, t, ">"):
			angle--
		case depth == 0 && angle == 0 && isPunct(src, t, ","):
			out = append(out, toks[from:i])
			from = i + 1
		}
	}
	return append(out, toks[from:])
}

// isOpName says whether toks[i] at the top level names an op: a dotted bare identifier
// (func.func, gpu.module), module, or a string followed by "(" (the generic form).
func (f *file) isOpName(i int) bool {
	t := f.toks[i]
	switch t.kind {
	case kBare:
		s := f.text(t)
		return s == "module" || strings.Contains(s, ".")
	case kString:
		return i+1 < len(f.toks) && f.toks[i+1].br == '('
	}
	return false
}

// parse reads the text's tokens, aliases and gpu.modules.
func parse(src []byte) (*file, error) {
	f, err := scan(src)
	if err != nil {
		return nil, err
	}
	if err := f.findModules(); err != nil {
		return nil, err
	}
	return f, nil
}

// scan lexes src, pairs its brackets and reads its top level: alias definitions (#a = ...,
// !t = ...), file metadata ({-# ... #-}) and ops.
func scan(src []byte) (*file, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	match, err := matchBrackets(src, toks)
	if err != nil {
		return nil, err
	}
	f := &file{src: src, toks: toks, match: match, aliases: map[string][]token{}}

	// One op that is a builtin.module is the top-level module; else mlir-opt wraps the ops in one.
	var ops []string
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.br == '{' || t.br == '(' || t.br == '[' {
			i = match[i]
			continue
		}
		if (t.kind == kHash || t.kind == kBang) && t.body == t.end && i+1 < len(toks) && isPunct(src, toks[i+1], "=") {
			j := i + 2
			for j < len(toks) && !f.startsTopLevel(j) {
				if toks[j].br == '{' || toks[j].br == '(' || toks[j].br == '[' {
					j = match[j]
				}
				j++
			}
			if _, dup := f.aliases[f.text(t)]; !dup {
				f.aliases[f.text(t)] = toks[i+2 : j]
			}
			i = j - 1
			continue
		}
		if f.isOpName(i) {
			name := f.text(t)
			if t.kind == kString {
				name = unquote(src[t.start:t.end])
			}
			ops = append(ops, name)
		}
	}
	f.explicit = len(ops) == 1 && (ops[0] == "module" || ops[0] == "builtin.module")
	return f, nil
}

// findModules reads the gpu.modules of f, in text order.
func (f *file) findModules() error {
	src, toks, explicit := f.src, f.toks, f.explicit
	// stack holds the open brackets around the current token; braces the open '{' among them.
	var stack, braces []int
	headerEnd := 0 // the end of the last gpu.module header
	for i, t := range toks {
		switch t.br {
		case '}', ')', ']':
			if toks[stack[len(stack)-1]].br == '{' {
				braces = braces[:len(braces)-1]
			}
			stack = stack[:len(stack)-1]
		}
		n, inner := len(braces), -1
		if n > 0 {
			inner = braces[n-1]
		}
		switch t.br {
		case '{', '(', '[':
			stack = append(stack, i)
			if t.br == '{' {
				braces = append(braces, i)
			}
		}
		if t.kind == kBare && f.text(t) == "gpu.module" {
			if f.isKey(i) {
				continue // a dictionary key, not an op
			}
			m, err := f.module(i)
			if err != nil {
				return err
			}
			// A direct child of the top-level module sits right in a region: in no bracket (the
			// implicit module), or right inside the one '{' of the explicit module's body; not in
			// a [...] or (...), nor in {-# #-}, nor in another gpu.module's header.
			if explicit {
				m.TopLevel = n == 1 && stack[len(stack)-1] == inner && f.text(toks[inner]) == "{"
			} else {
				m.TopLevel = len(stack) == 0
			}
			if m.Start < headerEnd {
				m.TopLevel = false
			}
			headerEnd = max(headerEnd, m.BodyStart)
			f.modules = append(f.modules, m)
		}
		if t.kind == kString && unquote(src[t.start:t.end]) == "gpu.module" && i+1 < len(toks) && toks[i+1].br == '(' {
			return syntaxError(src, t.start, `gpu.module in the generic op form ("gpu.module"(...)) is not supported: print it in the custom form`)
		}
	}
	return nil
}

// startsTopLevel says whether toks[j] starts a new top-level statement: an op, an alias
// definition or file metadata.
func (f *file) startsTopLevel(j int) bool {
	t := f.toks[j]
	if f.isOpName(j) || f.text(t) == "{-#" {
		return true
	}
	return (t.kind == kHash || t.kind == kBang) && j+1 < len(f.toks) && isPunct(f.src, f.toks[j+1], "=")
}

// module reads the gpu.module whose keyword is toks[i]:
//
//	gpu.module @name (<handler>)? ([targets])? (attributes {dict})? {body}
func (f *file) module(i int) (*module, error) {
	toks, src := f.toks, f.src
	kw := toks[i]
	line, col := position(src, kw.start)
	m := &module{Module: Module{Start: kw.start, Line: line, Col: col}}
	if i+1 >= len(toks) || toks[i+1].kind != kAt {
		found := "the end of the text"
		if i+1 < len(toks) {
			found = describe(src, toks[i+1])
		}
		return nil, syntaxError(src, kw.start, "gpu.module without a name: want @name, found %s", found)
	}
	name := toks[i+1]
	m.Name = f.symbol(name)
	header := func(j int, want string) error {
		found := "the end of the text"
		if j < len(toks) {
			found = describe(src, toks[j])
		}
		at := len(src)
		if j < len(toks) {
			at = toks[j].start
		}
		return syntaxError(src, at, "gpu.module @%s: want %s, found %s", m.Name, want, found)
	}
	j := i + 2
	if j < len(toks) && isPunct(src, toks[j], "<") { // the offloading handler
		open, level := j, 0
		for ; j < len(toks); j++ {
			t := toks[j]
			if t.br == '{' || t.br == '(' || t.br == '[' {
				j = f.match[j]
				continue
			}
			if t.br != 0 {
				j = len(toks) // a closer: the handler runs past its op
				break
			}
			if isPunct(src, t, "<") {
				level++
			} else if isPunct(src, t, ">") {
				if level--; level == 0 {
					break
				}
			}
		}
		if j == len(toks) {
			return nil, syntaxError(src, toks[open].start, "gpu.module @%s: the '<' of its offloading handler is not closed by a '>'", m.Name)
		}
		j++
	}
	m.insertAt = toks[j-1].end
	if j < len(toks) && toks[j].br == '[' {
		l, err := f.list(m, j)
		if err != nil {
			return nil, err
		}
		m.list = l
		j = f.match[j] + 1
	}
	if j < len(toks) && toks[j].kind == kBare && f.text(toks[j]) == "attributes" {
		j++
		if j >= len(toks) || f.text(toks[j]) != "{" {
			return nil, header(j, "'{' after attributes")
		}
		if m.list == nil {
			l, err := f.attrTargets(m, j)
			if err != nil {
				return nil, err
			}
			m.list = l
		}
		j = f.match[j] + 1
	}
	if j >= len(toks) || f.text(toks[j]) != "{" {
		return nil, header(j, "'[', 'attributes' or the '{' of its body")
	}
	m.BodyStart, m.BodyEnd, m.End = toks[j].end, toks[f.match[j]].start, toks[f.match[j]].end
	if m.list != nil {
		for k, span := range m.list.items {
			m.Targets = append(m.Targets, f.targetAttr(span, m.list.keys[k]))
		}
	}
	return m, nil
}

// list reads the targets list whose '[' is toks[open].
func (f *file) list(m *module, open int) (*tlist, error) {
	close := f.match[open]
	l := &tlist{open: f.toks[open].start, close: f.toks[close].start}
	if close == open+1 {
		return l, nil
	}
	for _, item := range splitList(f.src, f.toks[open+1:close]) {
		if len(item) == 0 {
			return nil, syntaxError(f.src, f.toks[open].start, "gpu.module @%s: an empty element in its targets list", m.Name)
		}
		span := [2]int{item[0].start, item[len(item)-1].end}
		l.items = append(l.items, span)
		l.keys = append(l.keys, f.key(item))
	}
	return l, nil
}

// attrTargets finds "targets = [...]" in the attribute dictionary whose '{' is toks[open].
func (f *file) attrTargets(m *module, open int) (*tlist, error) {
	for _, e := range splitTop(f.src, f.toks[open+1:f.match[open]]) {
		if len(e) == 0 {
			continue
		}
		var key string
		switch e[0].kind {
		case kBare:
			key = f.text(e[0])
		case kString:
			key = unquote(f.src[e[0].start:e[0].end])
		}
		if key != "targets" {
			continue
		}
		if len(e) < 4 || !isPunct(f.src, e[1], "=") || e[2].br != '[' || f.match[f.indexOf(e[2])] != f.indexOf(e[len(e)-1]) {
			return nil, syntaxError(f.src, e[0].start, "gpu.module @%s: targets in its attributes is not a list [...]", m.Name)
		}
		return f.list(m, f.indexOf(e[2]))
	}
	return nil, nil
}

// indexOf finds the index of a token of f (tokens are unique by start offset).
func (f *file) indexOf(t token) int {
	lo, hi := 0, len(f.toks)
	for lo < hi {
		mid := (lo + hi) / 2
		if f.toks[mid].start < t.start {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// key is an element of a targets list as an attribute to compare: aliases resolved, an
// #nvvm.target printed as MLIR prints it, anything else as written less whitespace.
func (f *file) key(item []token) string {
	for range 8 { // aliases of aliases, a few deep
		if len(item) != 1 || item[0].kind != kHash || item[0].body != item[0].end {
			break
		}
		v, ok := f.aliases[f.text(item[0])]
		if !ok || len(v) == 0 {
			break
		}
		item = v
	}
	if len(item) == 1 {
		if a, ok := parseNVVM(f.src, item[0]); ok {
			return a.String()
		}
	}
	return canonicalValue(f.src, item)
}

func (f *file) targetAttr(span [2]int, key string) TargetAttr {
	ta := TargetAttr{Text: string(f.src[span[0]:span[1]]), Start: span[0], End: span[1], Attr: key}
	toks, err := lex([]byte(key))
	if err == nil && len(toks) == 1 {
		if a, ok := parseNVVM([]byte(key), toks[0]); ok {
			if t, ok := a.target(); ok {
				ta.NVVM = &t
			}
		}
	}
	return ta
}

func describe(src []byte, t token) string {
	s := string(src[t.start:t.end])
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return "'" + s + "'"
}
