package filecheck

import "math/bits"

// This file finds what the groups of a match hold as llvm::Regex does (Henry Spencer's dissect in
// engine.c), once the match is known: each part of the expression, in turn, takes the longest
// text that lets the rest match the rest; an alternation takes its first branch that matches
// its text; a repetition's groups hold its last iteration. Go's regexp, which prefers what a
// backtracking search finds first, can choose otherwise: (a|ab)(c|bcd)(d*) on "abcd" gives the
// third group "d" here and in llvm::Regex, "" in Go's regexp.

// delem is an element of an expression as regcomp lays it out, a sequence of: one byte, an
// anchor, a group's start or end, x? (quest), x+ (plus), or a choice of sequences.
type delem struct {
	kind  dkind
	group bool      // it holds a group (so dissect looks inside)
	node  *reNode   // dByte, dAnchor
	n     int       // dOpen, dClose: the group
	sub   []delem   // dQuest, dPlus
	alts  [][]delem // dChoice (a nil branch: the empty one)
}

type dkind uint8

const (
	dByte dkind = iota
	dAnchor
	dOpen
	dClose
	dQuest
	dPlus
	dChoice
)

// layout lays n out as regcomp compiles it: x* is (x+)?, x? is (x|), x{m,n} is expanded.
func layout(n *reNode) []delem { return markGroups(layoutOf(n)) }

// markGroups sets the group flag of the elements that hold a group; it says whether seq does.
func markGroups(seq []delem) []delem {
	for i := range seq {
		e := &seq[i]
		switch e.kind {
		case dOpen, dClose:
			e.group = true
		case dQuest, dPlus:
			e.sub = markGroups(append([]delem(nil), e.sub...))
			e.group = holdsGroup(e.sub)
		case dChoice:
			alts := make([][]delem, len(e.alts))
			for j, a := range e.alts {
				alts[j] = markGroups(append([]delem(nil), a...))
				e.group = e.group || holdsGroup(alts[j])
			}
			e.alts = alts
		}
	}
	return seq
}

func holdsGroup(seq []delem) bool {
	for _, e := range seq {
		if e.group {
			return true
		}
	}
	return false
}

func layoutOf(n *reNode) []delem {
	switch n.op {
	case opEmpty:
		return nil
	case opLit, opSet:
		return []delem{{kind: dByte, node: n}}
	case opBOL, opEOL, opBOW, opEOW:
		return []delem{{kind: dAnchor, node: n}}
	case opGroup:
		seq := []delem{{kind: dOpen, n: n.n}}
		seq = append(seq, layoutOf(n.subs[0])...)
		return append(seq, delem{kind: dClose, n: n.n})
	case opConcat:
		var seq []delem
		for _, s := range n.subs {
			seq = append(seq, layoutOf(s)...)
		}
		return seq
	case opAlt:
		d := delem{kind: dChoice}
		for _, s := range n.subs {
			d.alts = append(d.alts, layoutOf(s))
		}
		return []delem{d}
	case opRepeat:
		x := layoutOf(n.subs[0])
		switch {
		case n.brace:
			return expand(x, n.min, n.max)
		case n.min == 0 && n.max < 0:
			return []delem{{kind: dQuest, sub: []delem{{kind: dPlus, sub: x}}}}
		case n.min == 1 && n.max < 0:
			return []delem{{kind: dPlus, sub: x}}
		default: // ?
			return []delem{{kind: dChoice, alts: [][]delem{x, nil}}}
		}
	}
	return nil // back-references: not laid out
}

// expand is regcomp's repeat: x{from,to} (to -1: unbounded) as plain sequences.
func expand(x []delem, from, to int) []delem {
	class := func(n int) int { // 0, 1, 2 (N) or 3 (unbounded)
		switch {
		case n < 0:
			return 3
		case n <= 1:
			return n
		}
		return 2
	}
	cat := func(a, b []delem) []delem { return append(append([]delem(nil), a...), b...) }
	switch f, t := class(from), class(to); {
	case f == 0 && t == 0:
		return nil
	case f == 0: // as x{1,to}?
		return []delem{{kind: dChoice, alts: [][]delem{expand(x, 1, to), nil}}}
	case f == 1 && t == 1:
		return x
	case f == 1 && t == 2: // as x?x{1,to-1}
		return cat([]delem{{kind: dChoice, alts: [][]delem{x, nil}}}, expand(x, 1, to-1))
	case f == 1: // as x+
		return []delem{{kind: dPlus, sub: x}}
	case t == 2: // as xx{from-1,to-1}
		return cat(x, expand(x, from-1, to-1))
	}
	return cat(x, expand(x, from-1, -1)) // as xx{from-1,}
}

// dissector finds the groups of a match in text (the searched text; offsets are relative to it).
type dissector struct {
	text []byte
	caps []int
}

// posSet is a set of offsets in the text, from base on.
type posSet struct {
	base int
	w    []uint64
}

// newPosSet is an empty set for the offsets base to q.
func newPosSet(base, q int) posSet { return posSet{base, make([]uint64, (q-base)/64+1)} }

func (s posSet) add(i int) { i -= s.base; s.w[i/64] |= 1 << (i % 64) }

func (s posSet) has(i int) bool {
	i -= s.base
	return i >= 0 && i/64 < len(s.w) && s.w[i/64]&(1<<(i%64)) != 0
}

func (s posSet) empty() bool {
	for _, w := range s.w {
		if w != 0 {
			return false
		}
	}
	return true
}

func (s posSet) each(f func(int)) {
	for wi, w := range s.w {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			f(s.base + wi*64 + b)
			w &^= 1 << b
		}
	}
}

// anchor says whether an anchor holds at offset i.
func (d *dissector) anchor(n *reNode, i int) bool {
	t := d.text
	switch n.op {
	case opBOL:
		return i == 0 || t[i-1] == '\n'
	case opEOL:
		return i == len(t) || t[i] == '\n'
	case opBOW:
		return (i == 0 || !isWordByte(t[i-1])) && i < len(t) && isWordByte(t[i])
	case opEOW:
		return i > 0 && isWordByte(t[i-1]) && (i == len(t) || !isWordByte(t[i]))
	}
	return false
}

// reach is the set of offsets, up to q, where a match of seq that starts at an offset of from
// can end.
func (d *dissector) reach(seq []delem, from posSet, q int) posSet {
	cur := from
	for _, e := range seq {
		next := newPosSet(from.base, q)
		switch e.kind {
		case dByte:
			cur.each(func(i int) {
				if i < q && (e.node.op == opLit && d.text[i] == e.node.b || e.node.op == opSet && e.node.set.has(d.text[i])) {
					next.add(i + 1)
				}
			})
		case dAnchor:
			cur.each(func(i int) {
				if d.anchor(e.node, i) {
					next.add(i)
				}
			})
		case dOpen, dClose:
			next = cur
		case dQuest:
			copy(next.w, cur.w)
			d.reach(e.sub, cur, q).each(next.add)
		case dPlus:
			front := d.reach(e.sub, cur, q)
			copy(next.w, front.w)
			for !front.empty() {
				more := newPosSet(from.base, q)
				d.reach(e.sub, front, q).each(func(i int) {
					if !next.has(i) {
						next.add(i)
						more.add(i)
					}
				})
				front = more
			}
		case dChoice:
			for _, a := range e.alts {
				d.reach(a, cur, q).each(next.add)
			}
		}
		cur = next
	}
	return cur
}

// longest is the end of the longest match of seq from p that ends by q, -1 if none: slow.
func (d *dissector) longest(seq []delem, p, q int) int {
	from := newPosSet(p, q)
	from.add(p)
	end := -1
	d.reach(seq, from, q).each(func(i int) { end = i })
	return end
}

// reachBack is the set of offsets from lo on where a match of seq can start and end at an
// offset of to (offsets up to q).
func (d *dissector) reachBack(seq []delem, to posSet, lo, q int) posSet {
	cur := to
	for k := len(seq) - 1; k >= 0; k-- {
		e := seq[k]
		prev := newPosSet(lo, q)
		switch e.kind {
		case dByte:
			cur.each(func(i int) {
				if p := i - 1; p >= lo && (e.node.op == opLit && d.text[p] == e.node.b || e.node.op == opSet && e.node.set.has(d.text[p])) {
					prev.add(p)
				}
			})
		case dAnchor:
			cur.each(func(i int) {
				if d.anchor(e.node, i) {
					prev.add(i)
				}
			})
		case dOpen, dClose:
			prev = cur
		case dQuest:
			copy(prev.w, cur.w)
			d.reachBack(e.sub, cur, lo, q).each(prev.add)
		case dPlus:
			front := d.reachBack(e.sub, cur, lo, q)
			copy(prev.w, front.w)
			for !front.empty() {
				more := newPosSet(lo, q)
				d.reachBack(e.sub, front, lo, q).each(func(i int) {
					if !prev.has(i) {
						prev.add(i)
						more.add(i)
					}
				})
				front = more
			}
		case dChoice:
			for _, a := range e.alts {
				d.reachBack(a, cur, lo, q).each(prev.add)
			}
		}
		cur = prev
	}
	return cur
}

// dissect records the groups of seq matching exactly text[sp:stop].
func (d *dissector) dissect(seq []delem, sp, stop int) {
	// fin[i]: where seq[i:] can start to end at stop.
	fin := make([]posSet, len(seq)+1)
	fin[len(seq)] = newPosSet(sp, stop)
	fin[len(seq)].add(stop)
	for i := len(seq) - 1; i >= 0; i-- {
		fin[i] = d.reachBack(seq[i:i+1], fin[i+1], sp, stop)
	}
	for i, e := range seq {
		switch e.kind {
		case dByte:
			sp++
		case dOpen:
			d.caps[2*e.n] = sp
		case dClose:
			d.caps[2*e.n+1] = sp
		case dQuest, dPlus, dChoice:
			// The longest this element can take that lets the rest match the rest.
			from := newPosSet(sp, stop)
			from.add(sp)
			r := -1
			d.reach(seq[i:i+1], from, stop).each(func(j int) {
				if fin[i+1].has(j) {
					r = j
				}
			})
			if r < 0 {
				return // cannot happen for a match
			}
			if e.group {
				d.inside(e, sp, r)
			}
			sp = r
		}
	}
}

// inside records the groups inside e, which matches exactly text[sp:r].
func (d *dissector) inside(e delem, sp, r int) {
	switch e.kind {
	case dQuest:
		if d.longest(e.sub, sp, r) >= 0 {
			d.dissect(e.sub, sp, r)
		}
	case dPlus:
		// The last iteration holds the groups.
		ssp, old, sep := sp, sp, -1
		for {
			if sep = d.longest(e.sub, ssp, r); sep < 0 || sep == ssp {
				break
			}
			old, ssp = ssp, sep
		}
		if sep < 0 {
			sep, ssp = ssp, old
		}
		d.dissect(e.sub, ssp, sep)
	case dChoice:
		for _, a := range e.alts {
			if d.longest(a, sp, r) == r {
				d.dissect(a, sp, r)
				break
			}
		}
	}
}
