package filecheck

import (
	"bytes"
	"fmt"
	"math/big"
	"sort"
	"strings"
)

// checkKind is the kind of a directive.
type checkKind uint8

const (
	kindNone checkKind = iota
	kindPlain
	kindNext
	kindSame
	kindNot
	kindDAG
	kindLabel
	kindEmpty
	kindEOF
	kindComment
	kindMisspelled
	kindBadNot
	kindBadCount
)

// checkType is a directive's kind, its count (CHECK-COUNT-n) and its {LITERAL} modifier.
type checkType struct {
	kind    checkKind
	count   int
	literal bool
}

// description names the directive in diagnostics: CHECK-NEXT, CHECK-COUNT, CHECK{LITERAL}.
func (t checkType) description(prefix string) string {
	mod := ""
	if t.literal {
		mod = "{LITERAL}"
	}
	switch t.kind {
	case kindPlain:
		if t.count > 1 {
			return prefix + "-COUNT" + mod
		}
		return prefix + mod
	case kindNext:
		return prefix + "-NEXT" + mod
	case kindSame:
		return prefix + "-SAME" + mod
	case kindNot:
		return prefix + "-NOT" + mod
	case kindDAG:
		return prefix + "-DAG" + mod
	case kindLabel:
		return prefix + "-LABEL" + mod
	case kindEmpty:
		return prefix + "-EMPTY" + mod
	case kindEOF:
		return "implicit EOF"
	}
	return "invalid"
}

// varContext holds the variables of a check file: the string variables' values, which string
// variables some pattern defines, and the numeric variables (@LINE among them).
type varContext struct {
	strVals    map[string]capture
	strDefined map[string]bool
	numTable   map[string]*numVar
	line       *numVar
	all        []*numVar // every numeric variable, to forget their values
}

// capture is a string variable's value and, for one captured from the input, its offset there.
type capture struct {
	value string
	off   int
}

func newVarContext() *varContext {
	c := &varContext{strVals: map[string]capture{}, strDefined: map[string]bool{}, numTable: map[string]*numVar{}}
	c.line = &numVar{name: "@LINE", format: numFormat{kind: fmtUnsigned}}
	c.numTable["@LINE"] = c.line
	return c
}

func (c *varContext) newNumVar(v *numVar) *numVar {
	c.all = append(c.all, v)
	return v
}

// clearLocal forgets the variables whose names do not start with $ (--enable-var-scope).
func (c *varContext) clearLocal() {
	for name := range c.strVals {
		if !strings.HasPrefix(name, "$") {
			delete(c.strVals, name)
		}
	}
	for name, v := range c.numTable {
		if !strings.HasPrefix(name, "$") {
			v.value = nil
			delete(c.numTable, name)
		}
	}
}

// pattern is the pattern of one directive.
type pattern struct {
	typ     checkType
	ctx     *varContext
	line    int // the check file line, 0 for an --implicit-check-not pattern
	src     *source
	loc     int // where the pattern starts in src
	isFixed bool
	fixed   string
	regex   string // as FileCheck builds it, POSIX extended, before substitutions
	substs  []*substitution
	strDefs map[string]int // string variables defined, and their groups
	numDefs map[string]numDef
	icase   bool
}

// substitution is a [[VAR]] or [[#EXPR]] whose value goes into the regular expression at index.
type substitution struct {
	index  int
	name   string    // a string variable's name
	expr   *exprNode // or a numeric expression
	format numFormat
	from   span // its text in the check file
}

type numDef struct {
	v     *numVar
	group int
}

// parseError is an invalid check file: where and why. logged is an error FileCheck prints with
// logAllUnhandledErrors, which adds an empty line.
type parseError struct {
	src    *source
	off    int
	msg    string
	logged bool
}

// logged marks err as one FileCheck logs.
func logged(err error) error {
	if pe, ok := err.(*parseError); ok {
		pe.logged = true
	}
	return err
}

func (e *parseError) Error() string { return e.msg }

func (p *pattern) errorf(off int, format string, args ...any) error {
	return &parseError{src: p.src, off: off, msg: fmt.Sprintf(format, args...)}
}

// backrefLimit is the number of groups a back-reference may name (\1 to \9).
const backrefLimit = 9

// parse reads the pattern text ps of a directive: Pattern::parsePattern.
func (p *pattern) parse(ps span, prefix string, o *Options) error {
	p.strDefs, p.numDefs = map[string]int{}, map[string]numDef{}
	fullLines := o.MatchFullLines && p.typ.kind != kindNot
	p.icase = o.IgnoreCase
	p.loc = ps.off
	if !(o.StrictWhitespace && o.MatchFullLines) {
		ps = ps.trimRight(" \t")
	}
	if ps.s == "" && p.typ.kind != kindEmpty {
		return p.errorf(p.loc, "found empty check string with prefix '%s:'", prefix)
	}
	if ps.s != "" && p.typ.kind == kindEmpty {
		return p.errorf(p.loc, "found non-empty check string for empty check with prefix '%s:'", prefix)
	}
	if p.typ.kind == kindEmpty {
		p.regex = "(\n$)"
		return nil
	}
	if p.typ.literal || !fullLines && (len(ps.s) < 2 || !strings.Contains(ps.s, "{{") && !strings.Contains(ps.s, "[[")) {
		p.isFixed, p.fixed = true, ps.s
		return nil
	}
	var re strings.Builder
	if fullLines {
		re.WriteString("^")
		if !o.StrictWhitespace {
			re.WriteString(" *")
		}
	}
	group := 1 // the next group's number
	for ps.s != "" {
		if strings.HasPrefix(ps.s, "{{") {
			end := strings.Index(ps.s, "}}")
			if end < 0 {
				return p.errorf(ps.off, "found start of regex string with no end '}}'")
			}
			// Wrapped in a group when an alternation may follow, as FileCheck does.
			alt := strings.Contains(ps.s, "|")
			if alt {
				re.WriteString("(")
				group++
			}
			if err := p.addRegex(&re, ps.from(2).to(end-2), &group); err != nil {
				return err
			}
			if alt {
				re.WriteString(")")
			}
			ps = ps.from(end + 2)
			continue
		}
		if strings.HasPrefix(ps.s, "[[") && !strings.HasPrefix(ps.s, "[[[") {
			if err := p.parseBlock(&ps, &re, &group); err != nil {
				return err
			}
			continue
		}
		// Fixed text, up to the next {{ or [[.
		end := len(ps.s)
		if i := strings.Index(ps.s[1:], "{{"); i >= 0 {
			end = i + 1
		}
		if i := strings.Index(ps.s[1:], "[["); i >= 0 && i+1 < end {
			end = i + 1
		}
		re.WriteString(escapeRegex(ps.s[:end]))
		ps = ps.from(end)
	}
	if fullLines {
		if !o.StrictWhitespace {
			re.WriteString(" *")
		}
		re.WriteString("$")
	}
	p.regex = re.String()
	return nil
}

// addRegex appends a regular expression of the pattern, checked alone as FileCheck checks it.
func (p *pattern) addRegex(re *strings.Builder, rs span, group *int) error {
	_, nsub, err := parseERE(rs.s, false, false)
	if err != nil {
		return p.errorf(rs.off, "invalid regex: %v", err)
	}
	re.WriteString(rs.s)
	*group += nsub
	return nil
}

// findVarEnd finds the "]]" that ends a substitution block (outside brackets): -1 if none.
func (p *pattern) findVarEnd(s span) (int, error) {
	depth := 0
	for i := 0; i < len(s.s); {
		if strings.HasPrefix(s.s[i:], "]]") && depth == 0 {
			return i, nil
		}
		switch s.s[i] {
		case '\\':
			i += 2
			continue
		case '[':
			depth++
		case ']':
			if depth == 0 {
				return 0, p.errorf(s.off+i, "missing closing \"]\" for regex variable")
			}
			depth--
		}
		i++
	}
	return -1, nil
}

// parseBlock reads the substitution block at the start of ps: [[VAR:regex]], [[VAR]],
// [[@LINE+n]], [[#...]].
func (p *pattern) parseBlock(ps *span, re *strings.Builder, group *int) error {
	block := ps.from(2)
	end, err := p.findVarEnd(block)
	if err != nil {
		return err
	}
	if end < 0 {
		return p.errorf(ps.off, "Invalid substitution block, no ]] found")
	}
	*ps = block.from(end + 2)
	match, isNum := block.to(end).consume("#")

	var (
		isDef, substNeeded, legacyLine bool
		defName                        string
		from                           span
		matchRegex                     span
		substIndex                     = re.Len()
	)
	if !isNum {
		head := match.s
		varEnd := strings.IndexByte(match.s, ':')
		if varEnd >= 0 {
			head = match.s[:varEnd]
		}
		if i := strings.IndexAny(head, " \t"); i >= 0 {
			return p.errorf(match.off+i, "unexpected whitespace")
		}
		orig := match
		name, pseudo, rest, err := p.parseVariable(match)
		if err != nil {
			return logged(err)
		}
		match = rest
		isDef = varEnd >= 0
		substNeeded = !isDef
		switch {
		case isDef:
			rest, ok := match.consume(":")
			if pseudo || !ok {
				return p.errorf(name.off, "invalid name in string variable definition")
			}
			if _, ok := p.ctx.numTable[name.s]; ok {
				return p.errorf(name.off, "numeric variable with name '%s' already exists", name.s)
			}
			defName, matchRegex = name.s, rest
		case pseudo: // [[@LINE+1]]
			match, legacyLine, isNum = orig, true, true
		default:
			if match.s != "" {
				return p.errorf(name.off, "invalid name in string variable use")
			}
			from = name
		}
	}
	var (
		ex     *exprNode
		format numFormat
		defVar *numVar
	)
	if isNum {
		var err error
		ex, format, defVar, err = p.parseNumericBlock(match, legacyLine)
		if err != nil {
			return logged(err)
		}
		substNeeded = ex != nil
		if defVar != nil {
			isDef, defName = true, defVar.name
		}
		if substNeeded {
			from = match
		} else {
			matchRegex = span{format.wildcard(), match.off}
		}
	}
	if isDef {
		re.WriteString("(")
		substIndex++
		if isNum {
			p.numDefs[defName] = numDef{defVar, *group}
			p.ctx.numTable[defName] = defVar
		} else {
			p.strDefs[defName] = *group
			p.ctx.strDefined[defName] = true
		}
		*group++
	}
	if matchRegex.s != "" {
		if err := p.addRegex(re, matchRegex, group); err != nil {
			return err
		}
	}
	if isDef {
		re.WriteString(")")
	}
	if substNeeded {
		if g, ok := p.strDefs[from.s]; !isNum && ok {
			// Defined earlier on the same line: a back-reference.
			if g < 1 || g > backrefLimit {
				return p.errorf(from.off, "Can't back-reference more than %d variables", backrefLimit)
			}
			fmt.Fprintf(re, "\\%d", g)
		} else {
			s := &substitution{index: substIndex, expr: ex, format: format, from: from}
			if !isNum {
				s.name = from.s
			}
			p.substs = append(p.substs, s)
		}
	}
	return nil
}

// parseVariable reads a variable name at the start of s: [$@]?[a-zA-Z_][a-zA-Z0-9_]*.
func (p *pattern) parseVariable(s span) (name span, pseudo bool, rest span, err error) {
	if s.s == "" {
		return span{}, false, s, p.errorf(s.off, "empty variable name")
	}
	i := 0
	pseudo = s.s[0] == '@'
	if s.s[0] == '$' || pseudo {
		i++
	}
	if i == len(s.s) {
		kind := "global "
		if pseudo {
			kind = "pseudo "
		}
		return span{}, false, s, p.errorf(s.off+i, "empty %svariable name", kind)
	}
	if c := s.s[i]; c != '_' && !isAlpha(c) {
		return span{}, false, s, p.errorf(s.off, "invalid variable name")
	}
	for i++; i < len(s.s) && (s.s[i] == '_' || isAlnum(s.s[i])); i++ {
	}
	return s.to(i), pseudo, s.from(i), nil
}

// operand is what parseOperand accepts.
type operand uint8

const (
	anyOperand    operand = iota
	lineVar               // @LINE only (the first operand of [[@LINE+n]])
	legacyLiteral         // a decimal literal only (its second)
)

// parseNumericBlock reads the text of a numeric substitution block after its "#":
// [%fmt,][VAR:][==]EXPR. It returns the expression (nil if none), its format and the variable
// it defines (nil if none).
func (p *pattern) parseNumericBlock(e span, legacy bool) (*exprNode, numFormat, *numVar, error) {
	var explicit numFormat
	precision := 0
	if comma, paren := strings.IndexByte(e.s, ','), strings.IndexByte(e.s, '('); comma >= 0 && (paren < 0 || comma < paren) {
		f := e.to(comma).trimLeft(" \t").trimRight(" \t")
		e = e.from(comma + 1)
		f, ok := f.consume("%")
		if !ok {
			return nil, numFormat{}, nil, p.errorf(f.off, "invalid matching format specification in expression")
		}
		altLoc := f.off
		f, alt := f.consume("#")
		if f, ok = f.consume("."); ok {
			n := 0
			for n < len(f.s) && isDigit(f.s[n]) {
				n++
			}
			v, ok := new(big.Int).SetString(f.s[:n], 10)
			if n == 0 || !ok || !v.IsInt64() || v.Int64() > 1<<32-1 {
				return nil, numFormat{}, nil, p.errorf(f.off, "invalid precision in format specifier")
			}
			precision = int(v.Int64())
			f = f.from(n)
		}
		if f.s != "" {
			switch f.s[0] {
			case 'u':
				explicit = numFormat{fmtUnsigned, precision, false}
			case 'd':
				explicit = numFormat{fmtSigned, precision, false}
			case 'x':
				explicit = numFormat{fmtHexLower, precision, alt}
			case 'X':
				explicit = numFormat{fmtHexUpper, precision, alt}
			default:
				return nil, numFormat{}, nil, p.errorf(f.off, "invalid format specifier in expression")
			}
			f = f.from(1)
		}
		if alt && explicit.kind != fmtHexLower && explicit.kind != fmtHexUpper {
			return nil, numFormat{}, nil, p.errorf(altLoc, "alternate form only supported for hex values")
		}
		if f = f.trimLeft(" \t"); f.s != "" {
			return nil, numFormat{}, nil, p.errorf(f.off, "invalid matching format specification in expression")
		}
	}
	var def span
	defEnd := strings.IndexByte(e.s, ':')
	if defEnd >= 0 {
		def = e.to(defEnd)
		e = e.from(defEnd + 1)
	}
	e, constraint := e.trimLeft(" \t").consume("==")
	e = e.trimLeft(" \t")
	var ast *exprNode
	if e.s == "" {
		if constraint {
			return nil, numFormat{}, nil, p.errorf(e.off, "empty numeric expression should not have a constraint")
		}
	} else {
		e = e.trimRight(" \t")
		outer := e
		ao := anyOperand
		if legacy {
			ao = lineVar
		}
		var err error
		ast, e, err = p.parseOperand(e, ao, !constraint)
		for err == nil && e.s != "" {
			ast, e, err = p.parseBinop(outer, e, ast, legacy)
			if err == nil && legacy && e.s != "" {
				return nil, numFormat{}, nil, p.errorf(e.off, "unexpected characters at end of expression '%s'", e.s)
			}
		}
		if err != nil {
			return nil, numFormat{}, nil, err
		}
	}
	format := explicit
	if format.kind == fmtNone && ast != nil {
		f, conflict := ast.implicitFormat()
		if conflict != nil {
			lf, _ := conflict.l.implicitFormat()
			rf, _ := conflict.r.implicitFormat()
			return nil, numFormat{}, nil, p.errorf(conflict.text.off,
				"implicit format conflict between '%s' (%v) and '%s' (%v), need an explicit format specifier",
				conflict.l.text.s, lf, conflict.r.text.s, rf)
		}
		format = f
	}
	if format.kind == fmtNone {
		format = numFormat{kind: fmtUnsigned, precision: precision}
	}
	var defVar *numVar
	if defEnd >= 0 {
		var err error
		if defVar, err = p.parseNumericDef(def.trimLeft(" \t"), format); err != nil {
			return nil, numFormat{}, nil, err
		}
	}
	return ast, format, defVar, nil
}

// parseNumericDef reads the name of the numeric variable a block defines.
func (p *pattern) parseNumericDef(e span, format numFormat) (*numVar, error) {
	name, pseudo, rest, err := p.parseVariable(e)
	if err != nil {
		return nil, err
	}
	if pseudo {
		return nil, p.errorf(name.off, "definition of pseudo numeric variable unsupported")
	}
	if p.ctx.strDefined[name.s] {
		return nil, p.errorf(name.off, "string variable with name '%s' already exists", name.s)
	}
	if rest = rest.trimLeft(" \t"); rest.s != "" {
		return nil, p.errorf(rest.off, "unexpected characters after numeric variable name")
	}
	if v, ok := p.ctx.numTable[name.s]; ok {
		if v.format != format {
			return nil, p.errorf(rest.off, "format different from previous variable definition")
		}
		return v, nil
	}
	return p.ctx.newNumVar(&numVar{name: name.s, format: format, defLine: p.line}), nil
}

// parseOperand reads an operand: a parenthesized expression, a function call, a variable or a
// literal. It returns the rest of e.
func (p *pattern) parseOperand(e span, ao operand, maybeConstraint bool) (*exprNode, span, error) {
	if strings.HasPrefix(e.s, "(") {
		if ao != anyOperand {
			return nil, e, p.errorf(e.off, "parenthesized expression not permitted here")
		}
		return p.parseParen(e)
	}
	if ao == lineVar || ao == anyOperand {
		name, pseudo, rest, err := p.parseVariable(e)
		if err == nil {
			if strings.HasPrefix(rest.trimLeft(" \t").s, "(") {
				if ao != anyOperand {
					return nil, e, p.errorf(name.off, "unexpected function call")
				}
				return p.parseCall(rest, name)
			}
			n, err := p.parseVariableUse(name, pseudo)
			return n, rest, err
		}
		if ao == lineVar {
			return nil, e, err
		}
	}
	save := e
	e, neg := e.consume("-")
	radix := 0
	if ao == legacyLiteral {
		radix = 10
	}
	v, rest, ok := consumeInteger(e, radix)
	if !ok {
		c := ""
		if maybeConstraint {
			c = "matching constraint or "
		}
		return nil, save, p.errorf(save.off, "invalid %soperand format", c)
	}
	if neg {
		v.Neg(v)
	}
	return &exprNode{lit: v, text: save.to(len(save.s) - len(rest.s))}, rest, nil
}

// consumeInteger reads an integer at the start of e as llvm::StringRef::consumeInteger does;
// radix 0 senses it from a 0x, 0b, 0o or 0 prefix.
func consumeInteger(e span, radix int) (*big.Int, span, bool) {
	s := e.s
	if radix == 0 {
		radix = 10
		switch lower := strings.ToLower(s); {
		case strings.HasPrefix(lower, "0x"):
			radix, s = 16, s[2:]
		case strings.HasPrefix(lower, "0b"):
			radix, s = 2, s[2:]
		case strings.HasPrefix(s, "0o"):
			radix, s = 8, s[2:]
		case len(s) > 1 && s[0] == '0' && isDigit(s[1]):
			radix, s = 8, s[1:]
		}
	}
	if s == "" {
		return nil, e, false
	}
	s = strings.TrimLeft(s, "0")
	v := new(big.Int)
	if s == "" {
		return v, e.from(len(e.s)), true
	}
	n := 0
	for ; n < len(s); n++ {
		c := s[n]
		var d int
		switch {
		case isDigit(c):
			d = int(c - '0')
		case 'a' <= c && c <= 'z':
			d = int(c-'a') + 10
		case 'A' <= c && c <= 'Z':
			d = int(c-'A') + 10
		default:
			d = 99
		}
		if d >= radix {
			break
		}
		v.Mul(v, big.NewInt(int64(radix)))
		v.Add(v, big.NewInt(int64(d)))
	}
	rest := e.from(len(e.s) - len(s) + n)
	if len(rest.s) == len(e.s) {
		return nil, e, false
	}
	return v, rest, true
}

func (p *pattern) parseParen(e span) (*exprNode, span, error) {
	e = e.trimLeft(" \t").from(1).trimLeft(" \t")
	if e.s == "" {
		return nil, e, p.errorf(e.off, "missing operand in expression")
	}
	sub, e, err := p.parseOperand(e, anyOperand, false)
	e = e.trimLeft(" \t")
	for err == nil && e.s != "" && !strings.HasPrefix(e.s, ")") {
		sub, e, err = p.parseBinop(e, e, sub, false)
		e = e.trimLeft(" \t")
	}
	if err != nil {
		return nil, e, err
	}
	e, ok := e.consume(")")
	if !ok {
		return nil, e, p.errorf(e.off, "missing ')' at end of nested expression")
	}
	return sub, e, nil
}

func (p *pattern) parseBinop(outer, rest span, left *exprNode, legacy bool) (*exprNode, span, error) {
	rest = rest.trimLeft(" \t")
	if rest.s == "" {
		return left, rest, nil
	}
	opLoc, op := rest.off, rest.s[0]
	rest = rest.from(1)
	var f func(a, b *big.Int) (*big.Int, bool)
	switch op {
	case '+':
		f = exprFuncs["add"]
	case '-':
		f = exprFuncs["sub"]
	default:
		return nil, rest, p.errorf(opLoc, "unsupported operation '%c'", op)
	}
	if rest = rest.trimLeft(" \t"); rest.s == "" {
		return nil, rest, p.errorf(rest.off, "missing operand in expression")
	}
	ao := anyOperand
	if legacy {
		ao = legacyLiteral
	}
	right, rest, err := p.parseOperand(rest, ao, false)
	if err != nil {
		return nil, rest, err
	}
	text := outer
	if rest.off >= outer.off && rest.off <= outer.end() {
		text = outer.to(rest.off - outer.off)
	}
	return &exprNode{op: f, l: left, r: right, text: text}, rest, nil
}

func (p *pattern) parseCall(e span, name span) (*exprNode, span, error) {
	e = e.trimLeft(" \t")
	f, ok := exprFuncs[name.s]
	if !ok {
		return nil, e, p.errorf(name.off, "call to undefined function '%s'", name.s)
	}
	e = e.from(1).trimLeft(" \t")
	var args []*exprNode
	for e.s != "" && !strings.HasPrefix(e.s, ")") {
		if strings.HasPrefix(e.s, ",") {
			return nil, e, p.errorf(e.off, "missing argument")
		}
		outer := e
		arg, rest, err := p.parseOperand(e, anyOperand, false)
		e = rest
		for err == nil && e.s != "" {
			e = e.trimLeft(" \t")
			if strings.HasPrefix(e.s, ",") || strings.HasPrefix(e.s, ")") {
				break
			}
			arg, e, err = p.parseBinop(outer, e, arg, false)
		}
		if err != nil {
			return nil, e, err
		}
		args = append(args, arg)
		e = e.trimLeft(" \t")
		if e, ok = e.consume(","); !ok {
			break
		}
		if e = e.trimLeft(" \t"); strings.HasPrefix(e.s, ")") {
			return nil, e, p.errorf(e.off, "missing argument")
		}
	}
	if e, ok = e.consume(")"); !ok {
		return nil, e, p.errorf(e.off, "missing ')' at end of call expression")
	}
	if len(args) != 2 {
		return nil, e, p.errorf(name.off, "function '%s' takes 2 arguments but %d given", name.s, len(args))
	}
	return &exprNode{op: f, l: args[0], r: args[1], text: name}, e, nil
}

func (p *pattern) parseVariableUse(name span, pseudo bool) (*exprNode, error) {
	if pseudo && name.s != "@LINE" {
		return nil, p.errorf(name.off, "invalid pseudo numeric variable '%s'", name.s)
	}
	v, ok := p.ctx.numTable[name.s]
	if !ok {
		// Not defined so far: its uses are undefined when matched.
		v = p.ctx.newNumVar(&numVar{name: name.s, format: numFormat{kind: fmtUnsigned}})
		p.ctx.numTable[name.s] = v
	}
	if v.defLine != 0 && p.line != 0 && v.defLine == p.line {
		return nil, p.errorf(name.off, "numeric variable '%s' defined earlier in the same CHECK directive", name.s)
	}
	return &exprNode{v: v, text: name}, nil
}

// hasVariable says whether the pattern defines or substitutes string variables (or substitutes
// an expression), which CHECK-LABEL may not.
func (p *pattern) hasVariable() bool { return len(p.substs) > 0 || len(p.strDefs) > 0 }

// matchError is a pattern that could not be matched: an undefined variable, an overflow.
type matchError struct {
	off int // in the pattern's source
	msg string
}

// regexFor builds the pattern's regular expression with the substitutions' current values.
func (p *pattern) regexFor() (string, []matchError) {
	if len(p.substs) == 0 {
		return p.regex, nil
	}
	if p.line != 0 {
		p.ctx.line.value = big.NewInt(int64(p.line))
	}
	var b strings.Builder
	var errs []matchError
	last := 0
	for _, s := range p.substs {
		v, err := s.value(p.ctx)
		if err != nil {
			errs = append(errs, err...)
			continue
		}
		b.WriteString(p.regex[last:s.index])
		b.WriteString(v)
		last = s.index
	}
	b.WriteString(p.regex[last:])
	return b.String(), errs
}

// value is the text a substitution puts into the regular expression.
func (s *substitution) value(ctx *varContext) (string, []matchError) {
	if s.expr == nil {
		c, ok := ctx.strVals[s.name]
		if !ok {
			return "", []matchError{{s.from.off, "undefined variable: " + s.name}}
		}
		return escapeRegex(c.value), nil
	}
	v, err := s.expr.eval()
	if err != nil {
		var errs []matchError
		for _, u := range err.undefined {
			errs = append(errs, matchError{u.off, "undefined variable: " + u.s})
		}
		if err.overflow {
			errs = append(errs, matchError{s.from.off, "unable to substitute variable or numeric expression: overflow error"})
		}
		return "", errs
	}
	t, ok := s.format.text(v)
	if !ok {
		return "", []matchError{{s.from.off, "unable to substitute variable or numeric expression: overflow error"}}
	}
	return t, nil
}

// describe is the substitution's value as diagnostics quote it; false when it has none.
func (s *substitution) describe(ctx *varContext) (string, bool) {
	if s.expr == nil {
		c, ok := ctx.strVals[s.name]
		if !ok {
			return "", false
		}
		for i := 0; i < len(c.value); i++ {
			if ch := c.value[i]; ch < 0x20 || ch >= 0x7f || ch == '"' {
				return `"` + writeEscaped(c.value) + `" (escaped value)`, true
			}
		}
		return `"` + c.value + `"`, true
	}
	v, err := s.expr.eval()
	if err != nil {
		return "", false
	}
	t, ok := s.format.text(v)
	return `"` + t + `"`, ok
}

// writeEscaped escapes s as llvm::raw_ostream::write_escaped does.
func writeEscaped(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '"':
			b.WriteString(`\"`)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\%03o", c)
		}
	}
	return b.String()
}

// matcher is what matching needs beyond a pattern: the input and compiled expressions.
type matcher struct {
	in    *text
	lower []byte // the input in lower case, for --ignore-case fixed strings
	cache map[string]*compiledRegex
}

// match finds the pattern in the input's [lo, hi). It returns the match's offset and length;
// found is false when there is none, errs the reasons it could not be matched at all.
func (p *pattern) match(m *matcher, lo, hi int) (pos, n int, found bool, errs []matchError) {
	switch {
	case p.typ.kind == kindEOF:
		return hi, 0, true, nil
	case p.isFixed:
		var i int
		if p.icase {
			if m.lower == nil {
				m.lower = bytes.ToLower(m.in.b)
			}
			i = bytes.Index(m.lower[lo:hi], bytes.ToLower([]byte(p.fixed)))
		} else {
			i = bytes.Index(m.in.b[lo:hi], []byte(p.fixed))
		}
		if i < 0 {
			return 0, 0, false, nil
		}
		return lo + i, len(p.fixed), true, nil
	}
	expr, errs := p.regexFor()
	if errs != nil {
		return 0, 0, false, errs
	}
	key := expr
	if p.icase {
		key = "i:" + expr
	} else {
		key = "c:" + expr
	}
	re, ok := m.cache[key]
	if !ok {
		re, _ = compileRegex(expr, p.icase) // nil when invalid: llvm::Regex then matches nothing
		m.cache[key] = re
	}
	if re == nil {
		return 0, 0, false, nil
	}
	g, err := re.match(m.in, lo, hi)
	if err != nil {
		return 0, 0, false, []matchError{{p.loc, err.Error()}}
	}
	if g == nil {
		return 0, 0, false, nil
	}
	group := func(i int) (string, int) {
		if 2*i+1 >= len(g) || g[2*i] < 0 {
			return "", -1
		}
		return string(m.in.b[g[2*i]:g[2*i+1]]), g[2*i]
	}
	for name, i := range p.strDefs {
		s, off := group(i)
		p.ctx.strVals[name] = capture{s, off}
	}
	skip := 0
	if p.typ.kind == kindEmpty {
		skip = 1 // the newline before the empty line
	}
	for name, d := range p.numDefs {
		s, off := group(d.group)
		if _, ok := p.ctx.numTable[name]; !ok {
			p.ctx.numTable[name] = d.v
		}
		d.v.value = d.v.format.value(s)
		d.v.matched = rng{off, off + len(s)}
	}
	return g[0] + skip, g[1] - g[0] - skip, true, nil
}

// definedVars lists the variables the pattern defined by its last match (name and range in the
// input), in the order of the input, for diagnostics.
func (p *pattern) definedVars() []capturedVar {
	var out []capturedVar
	for name := range p.strDefs {
		if c, ok := p.ctx.strVals[name]; ok && c.off >= 0 {
			out = append(out, capturedVar{name, rng{c.off, c.off + len(c.value)}})
		}
	}
	for name, d := range p.numDefs {
		if d.v.value != nil && d.v.matched.lo >= 0 {
			out = append(out, capturedVar{name, d.v.matched})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].r.lo < out[j].r.lo })
	return out
}

type capturedVar struct {
	name string
	r    rng
}
