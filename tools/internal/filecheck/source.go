package filecheck

import (
	"bytes"
	"fmt"
	"strings"
)

// source is a text that diagnostics point into: the check file, the input, or a pattern given on
// the command line. Its text is as FileCheck reads it (canonicalized).
type source struct {
	name string
	text []byte
}

// canonicalize is FileCheck's reading of a file: a carriage return before a line feed is dropped
// and, unless strict, each run of spaces and tabs becomes one space.
func canonicalize(b []byte, strict bool) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			continue
		}
		if strict || c != ' ' && c != '\t' {
			out = append(out, c)
			continue
		}
		out = append(out, ' ')
		for i+1 < len(b) && (b[i+1] == ' ' || b[i+1] == '\t') {
			i++
		}
	}
	return out
}

// span is a part of a source: its text and the offset where it starts.
type span struct {
	s   string
	off int
}

func (a span) from(i int) span { return span{a.s[i:], a.off + i} }
func (a span) to(i int) span   { return span{a.s[:i], a.off} }
func (a span) end() int        { return a.off + len(a.s) }

func (a span) trimLeft(cut string) span { return a.from(len(a.s) - len(strings.TrimLeft(a.s, cut))) }
func (a span) trimRight(cut string) span {
	return span{strings.TrimRight(a.s, cut), a.off}
}

func (a span) consume(prefix string) (span, bool) {
	if strings.HasPrefix(a.s, prefix) {
		return a.from(len(prefix)), true
	}
	return a, false
}

// diag writes diagnostics as LLVM's SourceMgr prints them: "NAME:LINE:COL: KIND: MESSAGE", the
// line, and a caret under the column (with ~ under ranges).
type diag struct {
	b strings.Builder
}

// rng is a range of offsets in a source, [lo, hi).
type rng struct{ lo, hi int }

// print writes a diagnostic of kind ("error", "note", ...) at offset off of src.
func (d *diag) print(src *source, off int, kind, msg string, ranges ...rng) {
	t := src.text
	line := 1 + bytes.Count(t[:off], []byte("\n"))
	ls := bytes.LastIndexAny(t[:off], "\n\r") + 1
	le := off
	for le < len(t) && t[le] != '\n' && t[le] != '\r' {
		le++
	}
	fmt.Fprintf(&d.b, "%s:%d:%d: %s: %s\n", src.name, line, off-ls+1, kind, msg)
	lineText := t[ls:le]
	for _, c := range lineText {
		if c >= 0x80 { // SourceMgr prints no caret on such a line
			d.sourceLine(lineText)
			return
		}
	}
	caret := bytes.Repeat([]byte{' '}, len(lineText)+1)
	for _, r := range ranges {
		if r.lo > le || r.hi < ls {
			continue
		}
		lo, hi := max(r.lo, ls)-ls, min(r.hi, le)-ls
		for i := lo; i < min(hi, len(caret)); i++ {
			caret[i] = '~'
		}
	}
	caret[min(off-ls, len(lineText))] = '^'
	caret = bytes.TrimRight(caret, " ")
	d.sourceLine(lineText)
	col := 0
	for i, c := range caret {
		if i >= len(lineText) || lineText[i] != '\t' {
			d.b.WriteByte(c)
			col++
			continue
		}
		for {
			d.b.WriteByte(c)
			if col++; col%8 == 0 {
				break
			}
		}
	}
	d.b.WriteByte('\n')
}

// sourceLine writes a line with its tabs expanded to 8 columns.
func (d *diag) sourceLine(line []byte) {
	col := 0
	for _, c := range line {
		if c != '\t' {
			d.b.WriteByte(c)
			col++
			continue
		}
		for {
			d.b.WriteByte(' ')
			if col++; col%8 == 0 {
				break
			}
		}
	}
	d.b.WriteByte('\n')
}

// plain writes a diagnostic without a location.
func (d *diag) plain(msg string) { d.b.WriteString(msg + "\n") }
