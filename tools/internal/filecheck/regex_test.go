package filecheck

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// parseERE accepts and rejects what llvm::Regex does, with its messages, and counts groups.
func TestParseERE(t *testing.T) {
	for _, tc := range []struct {
		expr string
		nsub int
		err  string
	}{
		{expr: "abc"},
		{expr: "a|b|c"},
		{expr: "(a)(b(c))", nsub: 3},
		{expr: "()", nsub: 1},
		{expr: "a{2}b{1,}c{0,3}"},
		{expr: "a{,3}"}, // { not before a digit is itself
		{expr: "[]a-]"},
		{expr: "[^]]"},
		{expr: "[[:alpha:][:digit:]_]"},
		{expr: "[[.hyphen.][=a=]]"},
		{expr: "[[:<:]]a[[:>:]]"},
		{expr: `\d\.\\`},
		{expr: `(a)\1`, nsub: 1},
		{expr: "$*"},
		{expr: "", err: regEmpty},
		{expr: "a|", err: regEmpty},
		{expr: "(|a)", err: regEmpty},
		{expr: "a{0}", err: regEmpty},
		{expr: "*a", err: regBadRpt},
		{expr: "a**", err: regBadRpt},
		{expr: "a*?", err: regBadRpt},
		{expr: "^*", err: regBadRpt},
		{expr: "{1}", err: regBadRpt},
		{expr: "a{256}", err: regBadBR},
		{expr: "a{2,1}", err: regBadBR},
		{expr: "a{1,x}", err: regBadBR},
		{expr: "a{1", err: regEBrace},
		{expr: "(a", err: regEParen},
		{expr: "a)", err: regEParen},
		{expr: "[a", err: regEBrack},
		{expr: "[z-a]", err: regERange},
		{expr: "[a-b-c]", err: regERange},
		{expr: "[a-\xe9]", err: regERange}, // bytes compare as signed chars
		{expr: "[\xc3-\xa9]", err: regERange},
		{expr: "[[:foo:]]", err: regECType},
		{expr: "[[.foo.]]", err: regECollate},
		{expr: `a\`, err: regEEscape},
		{expr: `\1`, err: regESubreg},
		{expr: `(a\1)`, err: regESubreg},
	} {
		_, nsub, err := parseERE(tc.expr, false, true)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.expr, err)
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%q: error %v, want %q", tc.expr, err, tc.err)
		case err == nil && nsub != tc.nsub:
			t.Errorf("%q: %d groups, want %d", tc.expr, nsub, tc.nsub)
		}
	}
}

// backtrackOnly is c matched by the backtracking matcher alone.
func backtrackOnly(c *compiledRegex) *compiledRegex {
	d := *c
	d.re, d.relaxed = nil, nil
	return &d
}

// Matches are leftmost-longest, byte by byte, with REG_NEWLINE's anchors, through either matcher.
func TestRegexMatch(t *testing.T) {
	for _, tc := range []struct {
		expr, text string
		want       []int // the match and the groups; nil: no match
	}{
		{"b+", "abbbc", []int{1, 4}},
		{"a|ab", "xab", []int{1, 3}},
		{"(a|ab)(c|bcd)", "abcd", []int{0, 4, 0, 1, 1, 4}},
		{"((a|ab)(c|bcd))(d*)", "abcd", []int{0, 4, 0, 3, 0, 2, 2, 3, 3, 4}}, // Go's regexp: (d*) is ""
		{"(a|ab)(b*)", "abb", []int{0, 3, 0, 2, 2, 3}},
		{"(a*)(a*)", "aa", []int{0, 2, 0, 2, 2, 2}},
		{"(a{1,3})(a*)", "aaaa", []int{0, 4, 0, 3, 3, 4}},
		{"x*", "abc", []int{0, 0}},
		{"^b", "a\nb", []int{2, 3}},
		{"a$", "a\nb", []int{0, 1}},
		{"^$", "a\n\nb", []int{2, 2}},
		{".", "\n", nil},
		{"[^a]", "a\nb", []int{2, 3}},
		{"[[:space:]]", "a\nb", []int{1, 2}},
		{"a.b", "a\xc3\xa9b", nil},
		{"a..b", "a\xc3\xa9b", []int{0, 4}},
		{"\xc3\xa9+", "x\xc3\xa9\xa9", []int{1, 4}},
		{"[\xa9-\xc3]", "\xb0", []int{0, 1}},
		{"(a*)b\\1", "xaabaa", []int{1, 6, 1, 3}},
		{"(a*)b\\1$", "aab a", nil},
		{"[[:<:]]ab[[:>:]]", "xab ab", []int{4, 6}},
	} {
		c, err := compileRegex(tc.expr, false)
		if err != nil {
			t.Fatalf("%q: %v", tc.expr, err)
		}
		tx := newText([]byte(tc.text))
		for _, m := range []*compiledRegex{c, backtrackOnly(c)} {
			got, err := m.match(tx, 0, len(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q in %q: %v, want %v (Go's regexp: %v)", tc.expr, tc.text, got, tc.want, m.re != nil)
			}
		}
	}
}

// Go's regexp and the backtracking matcher find the same matches, on random expressions and texts.
func TestMatchersAgree(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	atoms := []string{"a", "b", ".", "[ab]", "[^a]", "^", "$", "\xe9", "[[:space:]]"}
	var gen func(depth int) string
	gen = func(depth int) string {
		var b strings.Builder
		for n := 1 + r.Intn(3); n > 0; n-- {
			if depth > 0 && r.Intn(4) == 0 {
				b.WriteString("(" + gen(depth-1) + ")")
			} else {
				b.WriteString(atoms[r.Intn(len(atoms))])
			}
			b.WriteString([]string{"", "", "*", "+", "?", "{1,2}"}[r.Intn(6)])
		}
		if depth > 0 && r.Intn(4) == 0 {
			b.WriteString("|" + gen(depth-1))
		}
		return b.String()
	}
	tried := 0
	for tried < 2000 {
		expr := gen(2)
		c, err := compileRegex(expr, false)
		if err != nil || c.re == nil {
			continue
		}
		tried++
		text := make([]byte, r.Intn(12))
		for i := range text {
			text[i] = "ab\n\xe9 "[r.Intn(5)]
		}
		tx := newText(text)
		lo := r.Intn(len(text) + 1)
		want, _ := c.match(tx, lo, len(text))
		got, err := backtrackOnly(c).match(tx, lo, len(text))
		if err != nil {
			t.Fatal(err)
		}
		if (want == nil) != (got == nil) || want != nil && (want[0] != got[0] || want[1] != got[1]) {
			t.Errorf("%q in %q from %d: Go's regexp %v, the backtracking matcher %v", expr, text, lo, want, got)
		}
	}
}
