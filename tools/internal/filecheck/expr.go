package filecheck

import (
	"math/big"
	"strings"
)

// This file is FileCheck's numeric substitution blocks, [[#%x,VAR:]] and [[#VAR+1]]: their
// formats, expressions and variables. Values are integers of any size, as FileCheck's APInt
// values widen instead of overflowing.

// fmtKind is the kind of a matching format.
type fmtKind uint8

const (
	fmtNone     fmtKind = iota
	fmtUnsigned         // %u
	fmtSigned           // %d
	fmtHexUpper         // %X
	fmtHexLower         // %x
)

// numFormat is a matching format: %u, %d, %x or %X, with a precision (%.8x) and an alternate
// form (%#x, with 0x).
type numFormat struct {
	kind      fmtKind
	precision int
	alt       bool
}

func (f numFormat) String() string {
	return [...]string{"<none>", "%u", "%d", "%X", "%x"}[f.kind]
}

// wildcard is the regular expression of the numbers of format f.
func (f numFormat) wildcard() string {
	alt := ""
	if f.alt {
		alt = "0x"
	}
	prec := func(s string) string { return alt + s + "{" + itoa(f.precision) + "}" }
	switch f.kind {
	case fmtSigned:
		if f.precision > 0 {
			return prec("-?([1-9][0-9]*)?[0-9]")
		}
		return "-?[0-9]+"
	case fmtHexUpper:
		if f.precision > 0 {
			return prec("([1-9A-F][0-9A-F]*)?[0-9A-F]")
		}
		return alt + "[0-9A-F]+"
	case fmtHexLower:
		if f.precision > 0 {
			return prec("([1-9a-f][0-9a-f]*)?[0-9a-f]")
		}
		return alt + "[0-9a-f]+"
	}
	if f.precision > 0 {
		return prec("([1-9][0-9]*)?[0-9]")
	}
	return "[0-9]+"
}

// text writes v in format f; a negative value has no unsigned or hexadecimal text.
func (f numFormat) text(v *big.Int) (string, bool) {
	if f.kind != fmtSigned && v.Sign() < 0 {
		return "", false
	}
	base := 10
	if f.kind == fmtHexUpper || f.kind == fmtHexLower {
		base = 16
	}
	abs := new(big.Int).Abs(v).Text(base)
	if f.kind == fmtHexUpper {
		abs = strings.ToUpper(abs)
	}
	sign, alt := "", ""
	if v.Sign() < 0 {
		sign = "-"
	}
	if f.alt {
		alt = "0x"
	}
	if f.precision > len(abs) {
		abs = strings.Repeat("0", f.precision-len(abs)) + abs
	}
	return sign + alt + abs, true
}

// value reads the text a variable of format f matched.
func (f numFormat) value(s string) *big.Int {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	base := 10
	if f.kind == fmtHexUpper || f.kind == fmtHexLower {
		base = 16
		if f.alt {
			s = strings.TrimPrefix(s, "0x")
		}
	}
	v, ok := new(big.Int).SetString(s, base)
	if !ok {
		v = new(big.Int)
	}
	if neg {
		v.Neg(v)
	}
	return v
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

// numVar is a numeric variable: its implicit format (that of its definition), the line of its
// first definition (0: none yet) and its value (nil: undefined).
type numVar struct {
	name    string
	format  numFormat
	defLine int
	value   *big.Int
	matched rng // the text it matched in the input
}

// exprNode is a node of a numeric expression: a literal, a variable use or an operation.
type exprNode struct {
	lit  *big.Int
	v    *numVar
	op   func(a, b *big.Int) (*big.Int, bool) // false: no value (division by zero)
	l, r *exprNode
	text span // its text in the check file
}

// evalError is why an expression has no value: undefined variables (with their uses) or an
// overflow.
type evalError struct {
	undefined []span
	overflow  bool
}

func (e *exprNode) eval() (*big.Int, *evalError) {
	switch {
	case e.lit != nil:
		return e.lit, nil
	case e.v != nil:
		if e.v.value == nil {
			return nil, &evalError{undefined: []span{e.text}}
		}
		return e.v.value, nil
	}
	a, ea := e.l.eval()
	b, eb := e.r.eval()
	if ea != nil || eb != nil {
		err := &evalError{}
		for _, x := range []*evalError{ea, eb} {
			if x != nil {
				err.undefined = append(err.undefined, x.undefined...)
				err.overflow = err.overflow || x.overflow
			}
		}
		return nil, err
	}
	v, ok := e.op(a, b)
	if !ok {
		return nil, &evalError{overflow: true}
	}
	return v, nil
}

// implicitFormat is the format the expression's variables give it; conflict is the first
// operation whose operands have different formats.
func (e *exprNode) implicitFormat() (f numFormat, conflict *exprNode) {
	switch {
	case e.lit != nil:
		return numFormat{}, nil
	case e.v != nil:
		return e.v.format, nil
	}
	lf, c := e.l.implicitFormat()
	if c != nil {
		return lf, c
	}
	rf, c := e.r.implicitFormat()
	if c != nil {
		return rf, c
	}
	if lf.kind != fmtNone && rf.kind != fmtNone && lf != rf {
		return numFormat{}, e
	}
	if lf.kind != fmtNone {
		return lf, nil
	}
	return rf, nil
}

// uses appends the variable uses of e.
func (e *exprNode) uses(to []*exprNode) []*exprNode {
	switch {
	case e == nil || e.lit != nil:
		return to
	case e.v != nil:
		return append(to, e)
	}
	return e.r.uses(e.l.uses(to))
}

var exprFuncs = map[string]func(a, b *big.Int) (*big.Int, bool){
	"add": func(a, b *big.Int) (*big.Int, bool) { return new(big.Int).Add(a, b), true },
	"sub": func(a, b *big.Int) (*big.Int, bool) { return new(big.Int).Sub(a, b), true },
	"mul": func(a, b *big.Int) (*big.Int, bool) { return new(big.Int).Mul(a, b), true },
	"div": func(a, b *big.Int) (*big.Int, bool) {
		if b.Sign() == 0 {
			return nil, false
		}
		return new(big.Int).Quo(a, b), true
	},
	"max": func(a, b *big.Int) (*big.Int, bool) {
		if a.Cmp(b) < 0 {
			return b, true
		}
		return a, true
	},
	"min": func(a, b *big.Int) (*big.Int, bool) {
		if a.Cmp(b) < 0 {
			return a, true
		}
		return b, true
	},
}
