package filecheck

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// This file matches the regular expressions regex.go parses, as llvm::Regex matches them with
// REG_NEWLINE: the leftmost match, and of those the longest, byte by byte. Go's regexp (in its
// leftmost-longest mode) does the work, on the input read as Latin-1 so that one rune is one byte;
// an expression Go's regexp cannot express (a back-reference, a word boundary [[:<:]] or
// [[:>:]]) is matched by a backtracking matcher instead.

// text is the input: its bytes and, for Go's regexp, the same bytes read as Latin-1.
type text struct {
	b    []byte
	s    string // each byte of b as the rune of its value (string(b) when b is ASCII)
	high []int  // the offsets in b of bytes 0x80 and above, which take two bytes in s
}

func newText(b []byte) *text {
	t := &text{b: b}
	for i, c := range b {
		if c >= 0x80 {
			t.high = append(t.high, i)
		}
	}
	if t.high == nil {
		t.s = string(b)
		return t
	}
	var s strings.Builder
	s.Grow(len(b) + len(t.high))
	for _, c := range b {
		s.WriteRune(rune(c))
	}
	t.s = s.String()
	return t
}

// conv is the offset in s of offset o of b.
func (t *text) conv(o int) int { return o + sort.SearchInts(t.high, o) }

// orig is the offset in b of offset c of s (at a rune boundary).
func (t *text) orig(c int) int {
	if t.high == nil {
		return c
	}
	return sort.Search(c+1, func(o int) bool { return t.conv(o) >= c })
}

// compiledRegex is a regular expression ready to match.
type compiledRegex struct {
	nsub     int
	tree     *reNode
	layout   []delem // for dissect, laid out when first needed
	backrefs bool
	re       *regexp.Regexp // nil: the backtracking matcher runs
	relaxed  *regexp.Regexp // for the backtracking matcher: a superset, to skip lines quickly
	oneLine  bool           // no match can hold a newline
}

// compileRegex parses and compiles a regular expression as FileCheck compiles a pattern's
// (REG_NEWLINE, and REG_ICASE when icase).
func compileRegex(expr string, icase bool) (*compiledRegex, error) {
	tree, nsub, err := parseERE(expr, icase, true)
	if err != nil {
		return nil, err
	}
	c := &compiledRegex{nsub: nsub, tree: tree, oneLine: !canMatchNewline(tree), backrefs: hasBackref(tree)}
	var b strings.Builder
	if goSyntax(&b, tree, false) {
		if re, err := regexp.Compile(b.String()); err == nil {
			re.Longest()
			c.re = re
			return c, nil
		}
	}
	// The backtracking matcher runs; a regexp that drops back-references and word boundaries
	// finds the lines where it may match.
	b.Reset()
	goSyntax(&b, tree, true)
	if re, err := regexp.Compile(b.String()); err == nil {
		c.relaxed = re
	}
	return c, nil
}

// dissectLimit is the longest match whose groups dissect finds; Go's regexp's choice stands for
// longer ones.
const dissectLimit = 1 << 16

// match finds the leftmost-longest match in t.b[lo:hi]. It returns the offsets (in t.b) of the
// match and of each group, -1 for a group that did not take part; nil when there is no match.
func (c *compiledRegex) match(t *text, lo, hi int) ([]int, error) {
	var m []int
	if c.re != nil {
		clo := t.conv(lo)
		if m = c.re.FindStringSubmatchIndex(t.s[clo:t.conv(hi)]); m == nil {
			return nil, nil
		}
		for i, x := range m {
			if x >= 0 {
				m[i] = t.orig(clo + x)
			}
		}
	} else {
		var err error
		if m, err = c.backtrack(t, lo, hi); m == nil || err != nil {
			return nil, err
		}
	}
	if c.nsub > 0 && !c.backrefs && m[1]-m[0] <= dissectLimit {
		// The groups as llvm::Regex finds them.
		if c.layout == nil {
			c.layout = layout(c.tree)
		}
		d := &dissector{text: t.b[lo:hi], caps: make([]int, len(m))}
		for i := range d.caps {
			d.caps[i] = -1
		}
		d.dissect(c.layout, m[0]-lo, m[1]-lo)
		for i := 2; i < len(m); i++ {
			m[i] = d.caps[i]
			if m[i] >= 0 {
				m[i] += lo
			}
		}
	}
	return m, nil
}

func hasBackref(n *reNode) bool {
	if n.op == opBackref {
		return true
	}
	for _, s := range n.subs {
		if hasBackref(s) {
			return true
		}
	}
	return false
}

// canMatchNewline says whether a match of n may hold a newline.
func canMatchNewline(n *reNode) bool {
	switch n.op {
	case opLit:
		return n.b == '\n'
	case opSet:
		return n.set.has('\n')
	}
	for _, s := range n.subs {
		if canMatchNewline(s) {
			return true
		}
	}
	return false
}

// goSyntax writes n in Go's regexp syntax, for text read as Latin-1. It says false when n holds
// what Go's regexp cannot express (back-references, word boundaries); relaxed writes those as
// what matches a superset (any text, the empty string).
func goSyntax(b *strings.Builder, n *reNode, relaxed bool) bool {
	ok := true
	switch n.op {
	case opEmpty:
		b.WriteString("(?:)")
	case opLit:
		writeGoByte(b, n.b)
	case opSet:
		b.WriteString("[")
		empty := true
		for i := 0; i < 256; i++ {
			if !n.set.has(byte(i)) {
				continue
			}
			j := i
			for j+1 < 256 && n.set.has(byte(j+1)) {
				j++
			}
			fmt.Fprintf(b, `\x{%x}`, i)
			if j > i {
				fmt.Fprintf(b, `-\x{%x}`, j)
			}
			empty = false
			i = j
		}
		if empty {
			b.WriteString(`^\x{0}-\x{10ffff}`)
		}
		b.WriteString("]")
	case opBOL:
		b.WriteString("(?m:^)")
	case opEOL:
		b.WriteString("(?m:$)")
	case opBOW, opEOW:
		b.WriteString("(?:)")
		ok = false
	case opBackref:
		b.WriteString("(?s:.*)")
		ok = false
	case opGroup:
		b.WriteString("(")
		ok = goSyntax(b, n.subs[0], relaxed)
		b.WriteString(")")
	case opConcat, opAlt:
		b.WriteString("(?:")
		for i, s := range n.subs {
			if i > 0 && n.op == opAlt {
				b.WriteString("|")
			}
			ok = goSyntax(b, s, relaxed) && ok
		}
		b.WriteString(")")
	case opRepeat:
		b.WriteString("(?:")
		ok = goSyntax(b, n.subs[0], relaxed)
		b.WriteString(")")
		switch {
		case n.min == 0 && n.max < 0:
			b.WriteString("*")
		case n.min == 1 && n.max < 0:
			b.WriteString("+")
		case n.min == 0 && n.max == 1:
			b.WriteString("?")
		case n.max < 0:
			fmt.Fprintf(b, "{%d,}", n.min)
		default:
			fmt.Fprintf(b, "{%d,%d}", n.min, n.max)
		}
	}
	return ok
}

func writeGoByte(b *strings.Builder, c byte) {
	if c >= 0x20 && c < 0x7f {
		b.WriteString(regexp.QuoteMeta(string(rune(c))))
		return
	}
	fmt.Fprintf(b, `\x{%x}`, c)
}

// backtrackLimit bounds the steps of one backtracking search.
const backtrackLimit = 20_000_000

// errTooComplex is the backtracking matcher giving up.
var errTooComplex = fmt.Errorf("the regular expression is too complex to match with back-references (over %d steps)", backtrackLimit)

// backtracker is the state of one backtracking search of text (the searched part of the input).
type backtracker struct {
	text    []byte
	caps    []int
	best    []int
	steps   int
	aborted bool
}

// backtrack finds the leftmost-longest match in t.b[lo:hi] by trying every way to match at each
// start in turn.
func (c *compiledRegex) backtrack(t *text, lo, hi int) ([]int, error) {
	m := &backtracker{text: t.b[lo:hi], caps: make([]int, 2*(c.nsub+1))}
	try := func(start int) bool {
		for i := range m.caps {
			m.caps[i] = -1
		}
		m.best = nil
		m.run(c.tree, start, func(end int) bool {
			if m.best == nil || end > m.best[1] {
				m.best = append(m.best[:0], m.caps...)
				m.best[0], m.best[1] = start, end
			}
			return false // go on: a longer match may come
		})
		return m.best != nil
	}
	found := false
	if c.oneLine && c.relaxed != nil {
		// A match lies within one line: skip the lines the relaxed expression does not match.
		for ls := 0; ls <= len(m.text) && !found && !m.aborted; {
			le := bytes.IndexByte(m.text[ls:], '\n')
			if le < 0 {
				le = len(m.text)
			} else {
				le += ls
			}
			if c.relaxed.MatchString(t.s[t.conv(lo+ls):t.conv(lo+le)]) {
				for s := ls; s <= le && !m.aborted; s++ {
					if found = try(s); found {
						break
					}
				}
			}
			ls = le + 1
		}
	} else {
		for s := 0; s <= len(m.text) && !m.aborted; s++ {
			if found = try(s); found {
				break
			}
		}
	}
	if m.aborted {
		return nil, errTooComplex
	}
	if !found {
		return nil, nil
	}
	for i, x := range m.best {
		if x >= 0 {
			m.best[i] = x + lo
		}
	}
	return m.best, nil
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

// run matches n at i and calls k with the end of each way it matches, until k returns true.
func (m *backtracker) run(n *reNode, i int, k func(int) bool) bool {
	if m.steps++; m.steps > backtrackLimit {
		m.aborted = true
		return true
	}
	t := m.text
	switch n.op {
	case opEmpty:
		return k(i)
	case opLit:
		return i < len(t) && t[i] == n.b && k(i+1)
	case opSet:
		return i < len(t) && n.set.has(t[i]) && k(i+1)
	case opBOL:
		return (i == 0 || t[i-1] == '\n') && k(i)
	case opEOL:
		return (i == len(t) || t[i] == '\n') && k(i)
	case opBOW:
		return (i == 0 || !isWordByte(t[i-1])) && i < len(t) && isWordByte(t[i]) && k(i)
	case opEOW:
		return i > 0 && isWordByte(t[i-1]) && (i == len(t) || !isWordByte(t[i])) && k(i)
	case opBackref:
		s, e := m.caps[2*n.n], m.caps[2*n.n+1]
		if s < 0 || e < 0 {
			return false
		}
		l := e - s
		return i+l <= len(t) && bytes.Equal(t[i:i+l], t[s:e]) && k(i+l)
	case opGroup:
		g := 2 * n.n
		return m.run(n.subs[0], i, func(j int) bool {
			o0, o1 := m.caps[g], m.caps[g+1]
			m.caps[g], m.caps[g+1] = i, j
			if k(j) {
				return true
			}
			m.caps[g], m.caps[g+1] = o0, o1
			return false
		})
	case opConcat:
		return m.seq(n.subs, i, k)
	case opAlt:
		for _, s := range n.subs {
			if m.run(s, i, k) {
				return true
			}
		}
		return false
	case opRepeat:
		return m.repeat(n, 0, i, k)
	}
	return false
}

func (m *backtracker) seq(subs []*reNode, i int, k func(int) bool) bool {
	if len(subs) == 0 {
		return k(i)
	}
	return m.run(subs[0], i, func(j int) bool { return m.seq(subs[1:], j, k) })
}

// repeat matches the rest of n's repetitions after count of them, greedily.
func (m *backtracker) repeat(n *reNode, count, i int, k func(int) bool) bool {
	if n.max < 0 || count < n.max {
		if m.run(n.subs[0], i, func(j int) bool {
			if j == i && count >= n.min {
				return false // an empty repetition gets nowhere
			}
			return m.repeat(n, count+1, j, k)
		}) {
			return true
		}
	}
	return count >= n.min && k(i)
}
