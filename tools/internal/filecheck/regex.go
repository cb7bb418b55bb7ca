package filecheck

import "strings"

// This file parses POSIX extended regular expressions exactly as llvm::Regex (Henry Spencer's
// regcomp.c, as LLVM carries it) parses them, into a tree that regexmatch.go runs.

// reOp is the kind of a node of a parsed regular expression.
type reOp uint8

const (
	opEmpty   reOp = iota // matches the empty string
	opLit                 // one byte: b
	opSet                 // one byte of set
	opBOL                 // ^: the start of the text or of a line
	opEOL                 // $: the end of the text or of a line
	opBOW                 // [[:<:]]: the start of a word
	opEOW                 // [[:>:]]: the end of a word
	opGroup               // ( subs[0] ), capture group n
	opBackref             // \n
	opConcat              // subs in turn
	opAlt                 // one of subs
	opRepeat              // subs[0], min to max times (max -1: unbounded)
)

// reNode is a node of a parsed regular expression.
type reNode struct {
	op       reOp
	b        byte
	set      *byteSet
	n        int
	min, max int
	brace    bool // a {m,n} repetition (regcomp expands those), not * + ?
	subs     []*reNode
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) del(b byte)      { s[b>>6] &^= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }

func (s *byteSet) count() int {
	n := 0
	for i := 0; i < 256; i++ {
		if s.has(byte(i)) {
			n++
		}
	}
	return n
}

// llvm::Regex's error codes, as its regerror explains them.
const (
	regECollate = "invalid collating element"
	regECType   = "invalid character class"
	regEEscape  = "trailing backslash (\\)"
	regESubreg  = "invalid backreference number"
	regEBrack   = "brackets ([ ]) not balanced"
	regEParen   = "parentheses not balanced"
	regEBrace   = "braces not balanced"
	regBadBR    = "invalid repetition count(s)"
	regERange   = "invalid character range"
	regBadRpt   = "repetition-operator operand invalid"
	regEmpty    = "empty (sub)expression"
)

// regexError is why llvm::Regex rejects a regular expression.
type regexError string

func (e regexError) Error() string { return string(e) }

// dupMax is the largest repetition count (RE_DUP_MAX); infinity stands for an unbounded one.
const (
	dupMax   = 255
	infinity = dupMax + 1
)

// ereParser is regcomp's parse state: the expression, the position in it, the flags
// (REG_ICASE, REG_NEWLINE), the groups opened so far and which of groups 1-9 are closed (those a
// back-reference may name).
type ereParser struct {
	s              string
	i              int
	icase, newline bool
	nsub           int
	closed         [10]bool
}

// parseERE parses a POSIX extended regular expression as llvm::Regex does (REG_EXTENDED, with
// REG_ICASE and REG_NEWLINE as given). It returns the tree and the number of groups.
func parseERE(s string, icase, newline bool) (n *reNode, nsub int, err error) {
	p := &ereParser{s: s, icase: icase, newline: newline}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(regexError)
			if !ok {
				panic(r)
			}
			n, nsub, err = nil, 0, e
		}
	}()
	n = p.ere(-1)
	return n, p.nsub, nil
}

func (p *ereParser) fail(e string)         { panic(regexError(e)) }
func (p *ereParser) more() bool            { return p.i < len(p.s) }
func (p *ereParser) more2() bool           { return p.i+1 < len(p.s) }
func (p *ereParser) peek() byte            { return p.s[p.i] }
func (p *ereParser) peek2() byte           { return p.s[p.i+1] }
func (p *ereParser) see(c byte) bool       { return p.more() && p.peek() == c }
func (p *ereParser) seeTwo(a, b byte) bool { return p.more2() && p.peek() == a && p.peek2() == b }

func (p *ereParser) next() byte {
	c := p.s[p.i]
	p.i++
	return c
}

func (p *ereParser) eat(c byte) bool {
	if p.see(c) {
		p.i++
		return true
	}
	return false
}

func (p *ereParser) eatTwo(a, b byte) bool {
	if p.seeTwo(a, b) {
		p.i += 2
		return true
	}
	return false
}

// ere parses alternatives of concatenations up to stop (a byte, or -1 for the end): p_ere.
func (p *ereParser) ere(stop int) *reNode {
	var alts []*reNode
	for {
		var seq []*reNode
		emitted := false
		for p.more() && p.peek() != '|' && int(p.peek()) != stop {
			if n := p.ereExp(); n != nil {
				seq = append(seq, n)
				emitted = true
			}
		}
		if !emitted {
			p.fail(regEmpty) // an empty alternative
		}
		alts = append(alts, concat(seq))
		if !p.eat('|') {
			break
		}
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return &reNode{op: opAlt, subs: alts}
}

func concat(seq []*reNode) *reNode {
	switch len(seq) {
	case 0:
		return &reNode{op: opEmpty}
	case 1:
		return seq[0]
	}
	return &reNode{op: opConcat, subs: seq}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

// isRepetition says whether the next byte starts a repetition operator ("{" only before a digit).
func (p *ereParser) isRepetition() bool {
	c := p.peek()
	return c == '*' || c == '+' || c == '?' || c == '{' && p.more2() && isDigit(p.peek2())
}

// ereExp parses one atom and its repetition operator, if any: p_ere_exp. It returns nil for an
// atom repeated {0} times, which regcomp drops.
func (p *ereParser) ereExp() *reNode {
	var atom *reNode
	wasCaret := false
	switch c := p.next(); c {
	case '(':
		if !p.more() {
			p.fail(regEParen)
		}
		p.nsub++
		sub := p.nsub
		inner := &reNode{op: opEmpty}
		if !p.see(')') {
			inner = p.ere(')')
		}
		if sub < len(p.closed) {
			p.closed[sub] = true
		}
		if !p.more() || p.next() != ')' {
			p.fail(regEParen)
		}
		atom = &reNode{op: opGroup, n: sub, subs: []*reNode{inner}}
	case ')':
		p.fail(regEParen)
	case '^':
		atom = &reNode{op: opBOL}
		wasCaret = true
	case '$':
		atom = &reNode{op: opEOL}
	case '|':
		p.fail(regEmpty)
	case '*', '+', '?':
		p.fail(regBadRpt)
	case '.':
		var s byteSet
		for i := 0; i < 256; i++ {
			s.add(byte(i))
		}
		if p.newline {
			s.del('\n')
		}
		atom = &reNode{op: opSet, set: &s}
	case '[':
		atom = p.bracket()
	case '\\':
		if !p.more() {
			p.fail(regEEscape)
		}
		c = p.next()
		if '1' <= c && c <= '9' {
			n := int(c - '0')
			if !p.closed[n] {
				p.fail(regESubreg)
			}
			atom = &reNode{op: opBackref, n: n}
		} else {
			atom = p.ordinary(c) // any other escaped byte is itself
		}
	case '{':
		if p.more() && isDigit(p.peek()) {
			p.fail(regBadRpt)
		}
		atom = p.ordinary(c)
	default:
		atom = p.ordinary(c)
	}

	if !p.more() || !p.isRepetition() {
		return atom
	}
	c := p.next()
	if wasCaret {
		p.fail(regBadRpt)
	}
	switch c {
	case '*':
		atom = repeat(atom, 0, infinity)
	case '+':
		atom = repeat(atom, 1, infinity)
	case '?':
		atom = repeat(atom, 0, 1)
	case '{':
		count := p.count()
		count2 := count
		if p.eat(',') {
			if p.more() && isDigit(p.peek()) {
				count2 = p.count()
				if count > count2 {
					p.fail(regBadBR)
				}
			} else {
				count2 = infinity
			}
		}
		atom = repeat(atom, count, count2)
		if atom != nil {
			atom.brace = true
		}
		if !p.eat('}') {
			for p.more() && p.peek() != '}' {
				p.i++
			}
			if !p.more() {
				p.fail(regEBrace)
			}
			p.fail(regBadBR)
		}
	}
	if p.more() && p.isRepetition() {
		p.fail(regBadRpt) // a repeated repetition: a**, a*?, a+{2}
	}
	return atom
}

func repeat(n *reNode, min, max int) *reNode {
	if max == 0 {
		return nil // x{0} and x{0,0} match nothing and regcomp drops them
	}
	if max == infinity {
		max = -1
	}
	return &reNode{op: opRepeat, min: min, max: max, subs: []*reNode{n}}
}

// count parses a repetition count: p_count.
func (p *ereParser) count() int {
	count, digits := 0, 0
	for p.more() && isDigit(p.peek()) && count <= dupMax {
		count = count*10 + int(p.next()-'0')
		digits++
	}
	if digits == 0 || count > dupMax {
		p.fail(regBadBR)
	}
	return count
}

// ordinary is one byte, or, with REG_ICASE, a letter in either case.
func (p *ereParser) ordinary(c byte) *reNode {
	if p.icase && isAlpha(c) {
		var s byteSet
		s.add(c)
		s.add(otherCase(c))
		return &reNode{op: opSet, set: &s}
	}
	return &reNode{op: opLit, b: c}
}

func otherCase(c byte) byte {
	switch {
	case 'a' <= c && c <= 'z':
		return c - 'a' + 'A'
	case 'A' <= c && c <= 'Z':
		return c - 'A' + 'a'
	}
	return c
}

// bracket parses a bracket expression after its "[": p_bracket.
func (p *ereParser) bracket() *reNode {
	if len(p.s)-p.i > 5 {
		if strings.HasPrefix(p.s[p.i:], "[:<:]]") {
			p.i += 6
			return &reNode{op: opBOW}
		}
		if strings.HasPrefix(p.s[p.i:], "[:>:]]") {
			p.i += 6
			return &reNode{op: opEOW}
		}
	}
	var s byteSet
	invert := p.eat('^')
	if p.eat(']') {
		s.add(']')
	} else if p.eat('-') {
		s.add('-')
	}
	for p.more() && p.peek() != ']' && !p.seeTwo('-', ']') {
		p.bracketTerm(&s)
	}
	if p.eat('-') {
		s.add('-')
	}
	if !p.more() || p.next() != ']' {
		p.fail(regEBrack)
	}
	if p.icase {
		for i := 0; i < 256; i++ {
			if c := byte(i); s.has(c) && isAlpha(c) {
				s.add(otherCase(c))
			}
		}
	}
	if invert {
		for i := range s {
			s[i] = ^s[i]
		}
		if p.newline {
			s.del('\n')
		}
	}
	if s.count() == 1 {
		for i := 0; i < 256; i++ {
			if s.has(byte(i)) {
				return &reNode{op: opLit, b: byte(i)}
			}
		}
	}
	return &reNode{op: opSet, set: &s}
}

// bracketTerm parses one term of a bracket expression: p_b_term.
func (p *ereParser) bracketTerm(s *byteSet) {
	var c byte
	switch p.peek() {
	case '[':
		if p.more2() {
			c = p.peek2()
		}
	case '-':
		p.fail(regERange)
	}
	switch c {
	case ':': // a character class, [:alpha:]
		p.i += 2
		if !p.more() {
			p.fail(regEBrack)
		}
		if c := p.peek(); c == '-' || c == ']' {
			p.fail(regECType)
		}
		start := p.i
		for p.more() && isAlpha(p.peek()) {
			p.i++
		}
		chars, ok := charClasses[p.s[start:p.i]]
		if !ok {
			p.fail(regECType)
		}
		for i := 0; i < len(chars); i++ {
			s.add(chars[i])
		}
		if !p.more() {
			p.fail(regEBrack)
		}
		if !p.eatTwo(':', ']') {
			p.fail(regECType)
		}
	case '=': // an equivalence class, [=a=]: the one character
		p.i += 2
		if !p.more() {
			p.fail(regEBrack)
		}
		if c := p.peek(); c == '-' || c == ']' {
			p.fail(regECollate)
		}
		s.add(p.collatingElement('='))
		if !p.more() {
			p.fail(regEBrack)
		}
		if !p.eatTwo('=', ']') {
			p.fail(regECollate)
		}
	default: // a character or a range
		start := p.symbol()
		finish := start
		if p.see('-') && p.more2() && p.peek2() != ']' {
			p.i++
			if p.eat('-') {
				finish = '-'
			} else {
				finish = p.symbol()
			}
		}
		// regcomp compares them as (signed) chars.
		if int8(start) > int8(finish) {
			p.fail(regERange)
		}
		for i := int(int8(start)); i <= int(int8(finish)); i++ {
			s.add(byte(i))
		}
	}
}

// symbol parses a character or a collating symbol, [.hyphen.]: p_b_symbol.
func (p *ereParser) symbol() byte {
	if !p.more() {
		p.fail(regEBrack)
	}
	if !p.eatTwo('[', '.') {
		return p.next()
	}
	c := p.collatingElement('.')
	if !p.eatTwo('.', ']') {
		p.fail(regECollate)
	}
	return c
}

// collatingElement parses the name of a collating element ended by end and "]": p_b_coll_elem.
func (p *ereParser) collatingElement(end byte) byte {
	start := p.i
	for p.more() && !p.seeTwo(end, ']') {
		p.i++
	}
	if !p.more() {
		p.fail(regEBrack)
	}
	name := p.s[start:p.i]
	if c, ok := charNames[name]; ok {
		return c
	}
	if len(name) == 1 {
		return name[0]
	}
	p.fail(regECollate)
	return 0
}

// charClasses are the bracket expression classes, in the C locale.
var charClasses = map[string]string{
	"alnum":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	"alpha":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
	"blank":  " \t",
	"cntrl":  "\007\b\t\n\v\f\r\001\002\003\004\005\006\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037\177",
	"digit":  "0123456789",
	"graph":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
	"lower":  "abcdefghijklmnopqrstuvwxyz",
	"print":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ ",
	"punct":  "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
	"space":  "\t\n\v\f\r ",
	"upper":  "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
	"xdigit": "0123456789ABCDEFabcdef",
}

// charNames are the names of collating elements, [.space.].
var charNames = map[string]byte{
	"NUL": 0, "SOH": 1, "STX": 2, "ETX": 3, "EOT": 4, "ENQ": 5, "ACK": 6, "BEL": 7, "alert": 7,
	"BS": 8, "backspace": '\b', "HT": 9, "tab": '\t', "LF": 10, "newline": '\n', "VT": 11,
	"vertical-tab": '\v', "FF": 12, "form-feed": '\f', "CR": 13, "carriage-return": '\r',
	"SO": 14, "SI": 15, "DLE": 16, "DC1": 17, "DC2": 18, "DC3": 19, "DC4": 20, "NAK": 21,
	"SYN": 22, "ETB": 23, "CAN": 24, "EM": 25, "SUB": 26, "ESC": 27, "IS4": 28, "FS": 28,
	"IS3": 29, "GS": 29, "IS2": 30, "RS": 30, "IS1": 31, "US": 31, "space": ' ',
	"exclamation-mark": '!', "quotation-mark": '"', "number-sign": '#', "dollar-sign": '$',
	"percent-sign": '%', "ampersand": '&', "apostrophe": '\'', "left-parenthesis": '(',
	"right-parenthesis": ')', "asterisk": '*', "plus-sign": '+', "comma": ',', "hyphen": '-',
	"hyphen-minus": '-', "period": '.', "full-stop": '.', "slash": '/', "solidus": '/',
	"zero": '0', "one": '1', "two": '2', "three": '3', "four": '4', "five": '5', "six": '6',
	"seven": '7', "eight": '8', "nine": '9', "colon": ':', "semicolon": ';',
	"less-than-sign": '<', "equals-sign": '=', "greater-than-sign": '>', "question-mark": '?',
	"commercial-at": '@', "left-square-bracket": '[', "backslash": '\\', "reverse-solidus": '\\',
	"right-square-bracket": ']', "circumflex": '^', "circumflex-accent": '^', "underscore": '_',
	"low-line": '_', "grave-accent": '`', "left-brace": '{', "left-curly-bracket": '{',
	"vertical-line": '|', "right-brace": '}', "right-curly-bracket": '}', "tilde": '~', "DEL": 127,
}

// escapeRegex escapes the regular expression metacharacters of s: llvm::Regex::escape.
func escapeRegex(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("()^$|*+?.[]\\{}", s[i]) >= 0 || s[i] == 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
