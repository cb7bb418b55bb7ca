package filecheck

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
)

// Options are FileCheck's options that change how a check file reads and matches.
type Options struct {
	// CheckPrefixes are the directive prefixes (--check-prefix, --check-prefixes); none: CHECK.
	CheckPrefixes []string
	// CommentPrefixes start comments (--comment-prefixes); none: COM and RUN.
	CommentPrefixes []string
	// ImplicitCheckNot are patterns checked as CHECK-NOT between all matches
	// (--implicit-check-not).
	ImplicitCheckNot []string
	// StrictWhitespace keeps spaces and tabs as they are (--strict-whitespace).
	StrictWhitespace bool
	// MatchFullLines requires each pattern to match whole lines (--match-full-lines).
	MatchFullLines bool
	// IgnoreCase matches letters in either case (--ignore-case).
	IgnoreCase bool
	// AllowUnusedPrefixes accepts check prefixes that no directive uses (--allow-unused-prefixes).
	AllowUnusedPrefixes bool
	// EnableVarScope forgets variables whose names do not start with $ at each CHECK-LABEL block
	// (--enable-var-scope).
	EnableVarScope bool
	// AllowEmpty accepts an empty input (--allow-empty).
	AllowEmpty bool
}

// Error is a failure FileCheck reports: its diagnostics, as FileCheck prints them, and its exit
// status: 2 for invalid options, an invalid check file or an empty input, 1 for input that does
// not match.
type Error struct {
	Status      int
	Diagnostics string
}

func (e *Error) Error() string { return strings.TrimSuffix(e.Diagnostics, "\n") }

// Checks are the directives of a check file, ready to match inputs.
type Checks struct {
	opts    Options
	strings []*checkString
	ctx     *varContext
}

// checkString is a positive directive (or the end of the input) with the CHECK-DAG and
// CHECK-NOT directives before it.
type checkString struct {
	pat     *pattern
	prefix  string
	loc     int // where the pattern starts, for diagnostics
	dagNots []dagNot
}

type dagNot struct {
	pat    *pattern
	prefix string
}

var prefixSyntax = regexp.MustCompile(`^[a-zA-Z0-9_-]*$`)

// Parse reads a check file, name its name in diagnostics. It returns an *Error (status 2) for
// invalid options or an invalid check file.
func Parse(name string, data []byte, opts Options) (*Checks, error) {
	invalid := func(d *diag) error { return &Error{Status: 2, Diagnostics: d.b.String()} }
	var d diag
	// Validate the prefixes, as FileCheck does, before reading.
	unique := map[string]bool{}
	if len(opts.CheckPrefixes) == 0 {
		unique["CHECK"] = true
	}
	if len(opts.CommentPrefixes) == 0 {
		unique["COM"], unique["RUN"] = true, true
	}
	for _, list := range []struct {
		kind     string
		prefixes []string
	}{{"check", opts.CheckPrefixes}, {"comment", opts.CommentPrefixes}} {
		for _, p := range list.prefixes {
			switch {
			case p == "":
				d.plain("error: supplied " + list.kind + " prefix must not be the empty string")
			case !prefixSyntax.MatchString(p):
				d.plain("error: supplied " + list.kind + " prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '" + p + "'")
			case unique[p]:
				d.plain("error: supplied " + list.kind + " prefix must be unique among check and comment prefixes: '" + p + "'")
			default:
				unique[p] = true
				continue
			}
			return nil, invalid(&d)
		}
	}
	defaultPrefix := len(opts.CheckPrefixes) == 0
	if defaultPrefix {
		opts.CheckPrefixes = []string{"CHECK"}
	}
	if len(opts.CommentPrefixes) == 0 {
		opts.CommentPrefixes = []string{"COM", "RUN"}
	}

	c := &Checks{opts: opts, ctx: newVarContext()}
	src := &source{name: name, text: canonicalize(data, opts.StrictWhitespace)}
	fail := func(err error) (*Checks, error) {
		if pe, ok := err.(*parseError); ok {
			d.print(pe.src, pe.off, "error", pe.msg)
			if pe.logged {
				d.plain("")
			}
			return nil, invalid(&d)
		}
		return nil, err
	}

	var implicit []dagNot
	for _, s := range opts.ImplicitCheckNot {
		const before = "-implicit-check-not='"
		cmd := &source{name: "command line", text: []byte(before + s + "'")}
		p := &pattern{typ: checkType{kind: kindNot, count: 1}, ctx: c.ctx, src: cmd}
		if err := p.parse(span{s, len(before)}, "IMPLICIT-CHECK", &opts); err != nil {
			return fail(err)
		}
		implicit = append(implicit, dagNot{p, "IMPLICIT-CHECK"})
	}
	dagNots := append([]dagNot(nil), implicit...)

	text := string(src.text)
	m := newPrefixMatcher(opts, text)
	notFound := map[string]bool{}
	for _, p := range opts.CheckPrefixes {
		notFound[p] = true
	}
	distinct := len(notFound)
	line := 1
	pos := 0
	for {
		typ, prefix, start, after, ok := m.next(text, &pos, &line)
		if !ok {
			break
		}
		if typ.kind != kindComment {
			delete(notFound, prefix)
		}
		if after == len(text) {
			pos = start + len(prefix) // FileCheck goes on from the prefix when nothing follows
		} else {
			pos = after
		}
		switch typ.kind {
		case kindMisspelled:
			d.print(src, start, "error", "misspelled directive '"+text[start:after]+"'")
			return nil, invalid(&d)
		case kindBadNot:
			d.print(src, pos, "error", "unsupported -NOT combo on prefix '"+prefix+"'")
			return nil, invalid(&d)
		case kindBadCount:
			d.print(src, pos, "error", "invalid count in -COUNT specification on prefix '"+prefix+"'")
			return nil, invalid(&d)
		}
		// The pattern: the rest of the line, without its leading whitespace.
		if !(opts.StrictWhitespace && opts.MatchFullLines) {
			for pos < len(text) && (text[pos] == ' ' || text[pos] == '\t') {
				pos++
			}
		}
		eol := strings.IndexAny(text[pos:], "\n\r")
		if eol < 0 {
			eol = len(text)
		} else {
			eol += pos
		}
		ps := span{text[pos:eol], pos}
		pos = eol
		if typ.kind == kindComment {
			continue
		}
		p := &pattern{typ: typ, ctx: c.ctx, line: line, src: src}
		if err := p.parse(ps, prefix, &opts); err != nil {
			return fail(err)
		}
		if typ.kind == kindLabel && p.hasVariable() {
			d.print(src, start, "error", "found '"+prefix+"-LABEL:' with variable definition or use")
			return nil, invalid(&d)
		}
		if (typ.kind == kindNext || typ.kind == kindSame || typ.kind == kindEmpty) && len(c.strings) == 0 {
			name := map[checkKind]string{kindNext: "NEXT", kindSame: "SAME", kindEmpty: "EMPTY"}[typ.kind]
			d.print(src, start, "error", "found '"+prefix+"-"+name+"' without previous '"+prefix+": line")
			return nil, invalid(&d)
		}
		if typ.kind == kindDAG || typ.kind == kindNot {
			dagNots = append(dagNots, dagNot{p, prefix})
			continue
		}
		c.strings = append(c.strings, &checkString{pat: p, prefix: prefix, loc: ps.off, dagNots: dagNots})
		dagNots = append([]dagNot(nil), implicit...)
	}

	if (len(notFound) == distinct || !opts.AllowUnusedPrefixes && len(notFound) > 0) &&
		(len(implicit) == 0 || !defaultPrefix) {
		var missing []string
		for p := range notFound {
			missing = append(missing, "'"+p+":'")
		}
		sort.Strings(missing)
		s := " "
		if len(missing) > 1 {
			s = "es "
		}
		d.plain("error: no check strings found with prefix" + s + strings.Join(missing, ", "))
		return nil, invalid(&d)
	}
	if len(dagNots) > 0 {
		eof := &pattern{typ: checkType{kind: kindEOF, count: 1}, ctx: c.ctx, line: line + 1, src: src}
		c.strings = append(c.strings, &checkString{pat: eof, prefix: opts.CheckPrefixes[0], loc: len(text), dagNots: dagNots})
	}
	if err := c.checkDefined(src, &d); err != nil {
		return nil, err
	}
	return c, nil
}

// checkDefined rejects a use of a variable that no directive matched before it defines: FileCheck
// reports those when it matches (exit status 1), this package when it reads the check file.
// Directives match in this order: a directive's CHECK-DAGs (each group followed by the
// CHECK-NOTs before it), the directive, its last CHECK-NOTs; with --enable-var-scope, the local
// variables go after each CHECK-LABEL.
func (c *Checks) checkDefined(src *source, d *diag) error {
	str, num := map[string]bool{}, map[*numVar]bool{c.ctx.line: true}
	check := func(p *pattern) *matchError {
		for _, s := range p.substs {
			if s.expr == nil {
				if !str[s.name] {
					return &matchError{s.from.off, "undefined variable: " + s.name}
				}
				continue
			}
			for _, u := range s.expr.uses(nil) {
				if !num[u.v] {
					return &matchError{u.text.off, "undefined variable: " + u.text.s}
				}
			}
		}
		return nil
	}
	define := func(p *pattern) {
		for name := range p.strDefs {
			str[name] = true
		}
		for _, def := range p.numDefs {
			num[def.v] = true
		}
	}
	for _, cs := range c.strings {
		var order []*pattern
		var nots []*pattern
		for i, dn := range cs.dagNots {
			if dn.pat.typ.kind == kindNot {
				nots = append(nots, dn.pat)
				continue
			}
			order = append(order, dn.pat)
			if i+1 == len(cs.dagNots) || cs.dagNots[i+1].pat.typ.kind == kindNot {
				order, nots = append(order, nots...), nil
			}
		}
		order = append(append(order, cs.pat), nots...)
		for _, p := range order {
			if err := check(p); err != nil {
				d.print(p.src, err.off, "error", err.msg)
				return &Error{Status: 2, Diagnostics: d.b.String()}
			}
			if p.typ.kind != kindNot {
				define(p)
			}
		}
		if c.opts.EnableVarScope && cs.pat.typ.kind == kindLabel {
			for name := range str {
				if !strings.HasPrefix(name, "$") {
					delete(str, name)
				}
			}
			for v := range num {
				if v != c.ctx.line && !strings.HasPrefix(v.name, "$") {
					delete(num, v)
				}
			}
		}
	}
	return nil
}

// prefixMatcher finds the next prefix in the check file: FileCheck's PrefixMatcher and
// FindFirstMatchingPrefix.
type prefixMatcher struct {
	opts     Options
	prefixes []string
	next_    []int // the next occurrence of each prefix, math.MaxInt: none
}

func newPrefixMatcher(opts Options, text string) *prefixMatcher {
	m := &prefixMatcher{opts: opts}
	m.prefixes = append(append(m.prefixes, opts.CheckPrefixes...), opts.CommentPrefixes...)
	sort.SliceStable(m.prefixes, func(i, j int) bool { return len(m.prefixes[i]) > len(m.prefixes[j]) })
	for _, p := range m.prefixes {
		m.next_ = append(m.next_, index(text, p, 0))
	}
	return m
}

func index(s, sub string, from int) int {
	if i := strings.Index(s[from:], sub); i >= 0 {
		return from + i
	}
	return math.MaxInt
}

func isWordPart(c byte) bool { return isAlnum(c) || c == '-' || c == '_' }

// next finds the next directive from *pos: its type, prefix, the offset of the prefix and of
// the text after the directive's colon.
func (m *prefixMatcher) next(text string, pos, line *int) (typ checkType, prefix string, start, after int, ok bool) {
	for *pos < len(text) {
		best := -1
		for i, p := range m.prefixes {
			if m.next_[i] < *pos {
				m.next_[i] = index(text, p, *pos)
			}
			if m.next_[i] != math.MaxInt && (best < 0 || m.next_[best] > m.next_[i]) {
				best = i
			}
		}
		if best < 0 {
			return checkType{}, "", 0, 0, false
		}
		prefix, start = m.prefixes[best], m.next_[best]
		skipped := text[*pos:start]
		*line += strings.Count(skipped, "\n")
		*pos = start
		if skipped == "" || !isWordPart(skipped[len(skipped)-1]) {
			typ, after = m.checkType(text, start, prefix)
			if typ.kind != kindNone {
				return typ, prefix, start, after, true
			}
		}
		// Not a directive: skip the prefix and the rest of its word.
		i := start + len(prefix)
		for i < len(text) && isWordPart(text[i]) {
			i++
		}
		*pos = i
	}
	return checkType{}, "", 0, 0, false
}

// checkType reads the directive after prefix at start: FindCheckType. after is where its text
// starts (for errors, where reading stopped).
func (m *prefixMatcher) checkType(text string, start int, prefix string) (checkType, int) {
	if len(text)-start <= len(prefix) {
		return checkType{}, 0
	}
	rest := start + len(prefix)
	for _, c := range m.opts.CommentPrefixes {
		if c == prefix {
			if text[rest] == ':' {
				return checkType{kind: kindComment}, rest + 1
			}
			return checkType{}, 0
		}
	}
	modifiers := func(t checkType) (checkType, int) {
		if rest < len(text) && text[rest] == ':' {
			return t, rest + 1
		}
		if rest >= len(text) || text[rest] != '{' {
			return checkType{}, 0
		}
		rest++
		for {
			rest = skipSpace(text, rest)
			if !strings.HasPrefix(text[rest:], "LITERAL") {
				return checkType{}, rest
			}
			t.literal = true
			rest = skipSpace(text, rest+len("LITERAL"))
			if rest >= len(text) || text[rest] != ',' {
				break
			}
			rest++
		}
		if !strings.HasPrefix(text[rest:], "}:") {
			return checkType{}, rest
		}
		return t, rest + 2
	}
	plain := checkType{kind: kindPlain, count: 1}
	if text[rest] == ':' {
		return plain, rest + 1
	}
	if text[rest] == '{' {
		return modifiers(plain)
	}
	misspelled := false
	switch text[rest] {
	case '_':
		misspelled = true
	case '-':
	default:
		return checkType{}, 0
	}
	rest++
	t, after := m.suffix(text, &rest, modifiers)
	if t.kind != kindNone && misspelled {
		return checkType{kind: kindMisspelled}, after
	}
	return t, after
}

func skipSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\n\v\f\r", s[i]) >= 0 {
		i++
	}
	return i
}

// suffix reads the directive's suffix after "PREFIX-": NEXT, COUNT-n, ...
func (m *prefixMatcher) suffix(text string, rest *int, modifiers func(checkType) (checkType, int)) (checkType, int) {
	s := text[*rest:]
	if strings.HasPrefix(s, "COUNT-") {
		*rest += len("COUNT-")
		i := *rest
		for i < len(text) && isDigit(text[i]) {
			i++
		}
		bad := func() (checkType, int) { return checkType{kind: kindBadCount}, i }
		if i == *rest {
			return bad()
		}
		n := 0
		for _, c := range text[*rest:i] {
			if n = n*10 + int(c-'0'); n > math.MaxInt32 {
				return bad()
			}
		}
		*rest = i
		if n <= 0 || i >= len(text) || text[i] != ':' && text[i] != '{' {
			return bad()
		}
		return modifiers(checkType{kind: kindPlain, count: n})
	}
	for _, bad := range []string{"DAG-NOT:", "NOT-DAG:", "NEXT-NOT:", "NOT-NEXT:", "SAME-NOT:", "NOT-SAME:", "EMPTY-NOT:", "NOT-EMPTY:"} {
		if strings.HasPrefix(s, bad) {
			return checkType{kind: kindBadNot}, *rest
		}
	}
	for _, k := range []struct {
		name string
		kind checkKind
	}{{"NEXT", kindNext}, {"SAME", kindSame}, {"NOT", kindNot}, {"DAG", kindDAG}, {"LABEL", kindLabel}, {"EMPTY", kindEmpty}} {
		if strings.HasPrefix(s, k.name) {
			*rest += len(k.name)
			return modifiers(checkType{kind: k.kind, count: 1})
		}
	}
	return checkType{}, *rest
}

// Match matches input against the checks, name the input's name in diagnostics ("<stdin>" for
// standard input). It returns nil when the input matches, else an *Error: status 1 with
// FileCheck's diagnostics, or 2 for an empty input (unless AllowEmpty).
func (c *Checks) Match(name string, input []byte) error {
	if len(input) == 0 && !c.opts.AllowEmpty {
		return &Error{Status: 2, Diagnostics: "error: '" + name + "' is empty.\n"}
	}
	for _, v := range c.ctx.all {
		v.value = nil
	}
	c.ctx.strVals = map[string]capture{}
	r := &run{
		Checks: c,
		src:    &source{name: name, text: canonicalize(input, c.opts.StrictWhitespace)},
		m:      &matcher{cache: map[string]*compiledRegex{}},
	}
	r.m.in = newText(r.src.text)
	if !r.checkInput() {
		return &Error{Status: 1, Diagnostics: r.d.b.String()}
	}
	return nil
}

// run is one matching of an input.
type run struct {
	*Checks
	src *source
	m   *matcher
	d   diag
}

// checkInput matches the check strings in turn, CHECK-LABEL blocks first: FileCheck::checkInput.
func (r *run) checkInput() bool {
	failed := false
	buf := 0 // the start of the input not yet split into blocks
	end := len(r.src.text)
	i, j, e := 0, 0, len(r.strings)
	for {
		var lo, hi int
		if j == e {
			lo, hi = buf, end
		} else {
			label := r.strings[j]
			if label.pat.typ.kind != kindLabel {
				j++
				continue
			}
			pos, n, ok := r.check(label, buf, end, true)
			if !ok {
				return false // without the label, there is nothing more to check
			}
			lo, hi = buf, pos+n
			buf = pos + n
			j++
		}
		if i != 0 && r.opts.EnableVarScope {
			r.ctx.clearLocal()
		}
		for ; i != j; i++ {
			pos, n, ok := r.check(r.strings[i], lo, hi, false)
			if !ok {
				failed = true
				i = j
				break
			}
			lo = pos + n
		}
		if j == e {
			break
		}
	}
	return !failed
}

// check matches a check string in [lo, hi): FileCheckString::Check. It returns where the match
// starts and its length (of all its matches, for CHECK-COUNT).
func (r *run) check(cs *checkString, lo, hi int, labelScan bool) (pos, n int, ok bool) {
	last := lo
	var nots []dagNot
	if !labelScan {
		if last, ok = r.checkDAG(cs, lo, hi, &nots); !ok {
			return 0, 0, false
		}
	}
	lastEnd, first := last, 0
	for i := 1; i <= cs.pat.typ.count; i++ {
		mpos, mlen, found, errs := cs.pat.match(r.m, lastEnd, hi)
		if !found {
			r.noMatch(true, cs.prefix, cs.pat.src, cs.loc, cs.pat, i, lastEnd, hi, errs)
			return 0, 0, false
		}
		if i == 1 {
			first = mpos
		}
		lastEnd = mpos + mlen
	}
	if labelScan {
		return first, lastEnd - first, true
	}
	if !r.checkNext(cs, last, first) || !r.checkSame(cs, last, first) || !r.checkNot(nots, last, first) {
		return 0, 0, false
	}
	return first, lastEnd - first, true
}

// newlines counts the newlines in [lo, hi) (\r\n and \n\r count once) and finds where the first
// one ends.
func (r *run) newlines(lo, hi int) (n, first int) {
	t := r.src.text
	for i := lo; i < hi; {
		if t[i] != '\n' && t[i] != '\r' {
			i++
			continue
		}
		n++
		if i+1 < hi && (t[i+1] == '\n' || t[i+1] == '\r') && t[i] != t[i+1] {
			i++
		}
		i++
		if n == 1 {
			first = i
		}
	}
	return n, first
}

func (r *run) checkNext(cs *checkString, lo, hi int) bool {
	kind := cs.pat.typ.kind
	if kind != kindNext && kind != kindEmpty {
		return true
	}
	name := cs.prefix + "-NEXT"
	if kind == kindEmpty {
		name = cs.prefix + "-EMPTY"
	}
	n, first := r.newlines(lo, hi)
	if n == 1 {
		return true
	}
	check := cs.pat.src
	if n == 0 {
		r.d.print(check, cs.loc, "error", name+": is on the same line as previous match")
	} else {
		r.d.print(check, cs.loc, "error", name+": is not on the line after the previous match")
	}
	r.d.print(r.src, hi, "note", "'next' match was here")
	r.d.print(r.src, lo, "note", "previous match ended here")
	if n > 1 {
		r.d.print(r.src, first, "note", "non-matching line after previous match is here")
	}
	return false
}

func (r *run) checkSame(cs *checkString, lo, hi int) bool {
	if cs.pat.typ.kind != kindSame {
		return true
	}
	if n, _ := r.newlines(lo, hi); n == 0 {
		return true
	}
	r.d.print(cs.pat.src, cs.loc, "error", cs.prefix+"-SAME: is not on the same line as the previous match")
	r.d.print(r.src, hi, "note", "'next' match was here")
	r.d.print(r.src, lo, "note", "previous match ended here")
	return false
}

// checkNot checks that no CHECK-NOT pattern matches in [lo, hi), reporting each that does.
func (r *run) checkNot(nots []dagNot, lo, hi int) bool {
	ok := true
	for _, dn := range nots {
		pos, n, found, errs := dn.pat.match(r.m, lo, hi)
		if found {
			r.excludedFound(dn, pos, n)
			ok = false
			continue
		}
		if errs != nil {
			r.noMatch(false, dn.prefix, dn.pat.src, dn.pat.loc, dn.pat, 1, lo, hi, errs)
			ok = false
		}
	}
	return ok
}

// checkDAG matches the CHECK-DAG groups before a directive and checks the CHECK-NOTs between them:
// FileCheckString::CheckDag. It returns where the directive's search starts; nots gets the
// CHECK-NOTs after the last group.
func (r *run) checkDAG(cs *checkString, lo, hi int, nots *[]dagNot) (int, bool) {
	if len(cs.dagNots) == 0 {
		return lo, true
	}
	start := lo
	type matchRange struct{ pos, end int }
	var ranges []matchRange // sorted, not overlapping
	for k, dn := range cs.dagNots {
		if dn.pat.typ.kind == kindNot {
			*nots = append(*nots, dn)
			continue
		}
		from := start
		mi := 0
		for {
			pos, n, found, errs := dn.pat.match(r.m, from, hi)
			if !found {
				r.noMatch(true, dn.prefix, dn.pat.src, dn.pat.loc, dn.pat, 1, from, hi, errs)
				return 0, false
			}
			m := matchRange{pos, pos + n}
			overlap := false
			for ; mi < len(ranges); mi++ {
				if m.pos < ranges[mi].end {
					overlap = ranges[mi].pos < m.end
					break
				}
			}
			if !overlap {
				ranges = append(ranges[:mi], append([]matchRange{m}, ranges[mi:]...)...)
				break
			}
			from = ranges[mi].end
			mi++
		}
		if k+1 == len(cs.dagNots) || cs.dagNots[k+1].pat.typ.kind == kindNot {
			if len(*nots) > 0 {
				if !r.checkNot(*nots, start, ranges[0].pos) {
					return 0, false
				}
				*nots = nil
			}
			start = ranges[len(ranges)-1].end
			ranges = nil
		}
	}
	return start, true
}

// noMatch reports a pattern not found in [lo, hi) (or one that could not be matched, errs):
// printNoMatch. For a CHECK-NOT (expected false) only errors are reported.
func (r *run) noMatch(expected bool, prefix string, check *source, loc int, p *pattern, count, lo, hi int, errs []matchError) {
	for _, e := range errs {
		r.d.print(p.src, e.off, "error", e.msg)
	}
	if !expected && errs == nil {
		return
	}
	if errs == nil {
		msg := p.typ.description(prefix) + ": expected string not found in input"
		if p.typ.count > 1 {
			msg += fmt.Sprintf(" (%d out of %d)", count, p.typ.count)
		}
		r.d.print(check, loc, "error", msg)
		r.d.print(r.src, lo, "note", "scanning from here")
	}
	r.substitutions(p, lo)
	if expected {
		r.fuzzyMatch(p, lo, hi)
	}
}

// excludedFound reports a CHECK-NOT pattern found: printMatch.
func (r *run) excludedFound(dn dagNot, pos, n int) {
	p := dn.pat
	r.d.print(p.src, p.loc, "error", p.typ.description(dn.prefix)+": excluded string found in input")
	r.d.print(r.src, pos, "note", "found here", rng{pos, pos + n})
	r.substitutions(p, pos)
	for _, v := range p.definedVars() {
		r.d.print(r.src, v.r.lo, "note", `captured var "`+v.name+`"`, v.r)
	}
}

// substitutions notes the values the pattern's substitutions had: printSubstitutions.
func (r *run) substitutions(p *pattern, at int) {
	for _, s := range p.substs {
		v, ok := s.describe(r.ctx)
		if !ok {
			continue
		}
		r.d.print(r.src, at, "note", `with "`+writeEscaped(s.from.s)+`" equal to `+v)
	}
}

// fuzzyMatch notes the place of the input most like the pattern: printFuzzyMatch.
func (r *run) fuzzyMatch(p *pattern, lo, hi int) {
	example := p.fixed
	if example == "" {
		example = p.regex
	}
	buf := r.src.text[lo:hi]
	limit := min(4096, len(buf))
	if 4096*2048 < limit*max(len(p.fixed), len(p.regex)) {
		return
	}
	lines, best, bestQuality := 0, -1, 0.0
	for i := 0; i < limit; i++ {
		if buf[i] == '\n' {
			lines++
		}
		if buf[i] == ' ' || buf[i] == '\t' {
			continue
		}
		prefix := buf[i:min(len(buf), i+len(example))]
		if nl := strings.IndexByte(string(prefix), '\n'); nl >= 0 {
			prefix = prefix[:nl]
		}
		quality := float64(editDistance(string(prefix), example)) + float64(lines)/100
		if best < 0 || quality < bestQuality {
			best, bestQuality = i, quality
		}
	}
	if best > 0 && bestQuality < 50 {
		r.d.print(r.src, lo+best, "note", "possible intended match here")
	}
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			old := row[j]
			cost := prev
			if a[i-1] != b[j-1] {
				cost++
			}
			row[j] = min(row[j]+1, row[j-1]+1, cost)
			prev = old
		}
	}
	return row[len(b)]
}
