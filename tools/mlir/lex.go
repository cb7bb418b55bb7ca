package mlir

import (
	"bytes"
	"fmt"
)

// SyntaxError is MLIR text this package cannot read: what is wrong and where (1-based line, and
// 1-based column counted in bytes, as MLIR counts them).
type SyntaxError struct {
	Offset    int // byte offset in the source
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

func syntaxError(src []byte, off int, format string, args ...any) *SyntaxError {
	line, col := position(src, off)
	return &SyntaxError{Offset: off, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// position turns a byte offset into a 1-based line and column.
func position(src []byte, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	before := src[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	return line, off - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

type kind uint8

const (
	kBare    kind = iota // bare identifier or keyword: module, gpu.module, attributes, f32
	kString              // "..." with MLIR's escapes
	kAt                  // @name or @"name"
	kHash                // #alias, #dialect.attr, with its <...> body when it has one
	kBang                // !alias, !dialect.type, with its <...> body when it has one
	kPercent             // %value
	kCaret               // ^block
	kNumber              // integer or float literal
	kArrow               // ->
	kPunct               // anything else, one byte; {-# and #-} (file metadata) are kPunct too
)

// A token is src[start:end]. br is the bracket it opens or closes ('{', '(', '[' or '}', ')', ']';
// {-# opens and #-} closes a '{'), 0 for other tokens. For a kHash or kBang token with a body,
// body is the offset of the body's '<'; otherwise body == end.
type token struct {
	kind       kind
	br         byte
	start, end int
	body       int
}

// lex splits MLIR text into tokens the way MLIR's lexer does, as far as this package needs:
// comments and whitespace are dropped; strings, symbol names and dialect attribute and type bodies
// (#nvvm.target<...>, scanned as MLIR's parseDialectSymbolBody scans them) are single tokens.
func lex(src []byte) ([]token, error) { return lexFrom(src, 0) }

// lexFrom lexes src[from:], with offsets in src. The contents of a dialect body, t, lex as
// lexFrom(src[:t.end-1], t.body+1).
func lexFrom(src []byte, from int) ([]token, error) {
	// About one token in 4-5 bytes of MLIR text, so a large source's slice does not regrow many
	// times; capped (8 MB of tokens) for text that is mostly long strings, such as gpu.binary blobs.
	toks := make([]token, 0, min((len(src)-from)/4, 1<<18))
	for i := from; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = skipLine(src, i)
			continue
		}
		t := token{start: i}
		switch {
		case c == '"':
			end, err := lexString(src, i)
			if err != nil {
				return nil, err
			}
			t.kind, t.end = kString, end
		case c == '{' && i+2 < len(src) && src[i+1] == '-' && src[i+2] == '#':
			t.kind, t.br, t.end = kPunct, '{', i+3
		case c == '#' && i+2 < len(src) && src[i+1] == '-' && src[i+2] == '}':
			t.kind, t.br, t.end = kPunct, '}', i+3
		case c == '{' || c == '(' || c == '[' || c == '}' || c == ')' || c == ']':
			t.kind, t.br, t.end = kPunct, c, i+1
		case c == '@':
			t.kind, t.end = kAt, i+1
			if i+1 < len(src) && src[i+1] == '"' {
				end, err := lexString(src, i+1)
				if err != nil {
					return nil, err
				}
				t.end = end
			} else if i+1 < len(src) && (isLetter(src[i+1]) || src[i+1] == '_') {
				t.end = scanBare(src, i+2)
			} else {
				t.kind = kPunct
			}
		case c == '%' || c == '^' || c == '#' || c == '!':
			t.kind, t.end = kPunct, i+1
			if end := scanSuffixID(src, i+1); end > i+1 {
				t.end = end
				t.kind = map[byte]kind{'%': kPercent, '^': kCaret, '#': kHash, '!': kBang}[c]
			}
			t.body = t.end
			if t.kind == kHash || t.kind == kBang {
				// A '<' after the name (MLIR allows whitespace and comments between) starts the
				// dialect body.
				j := skipSpace(src, t.end)
				if j < len(src) && src[j] == '<' {
					end, err := dialectBody(src, j, string(src[i:t.end]))
					if err != nil {
						return nil, err
					}
					t.body, t.end = j, end
				}
			}
		case isLetter(c) || c == '_':
			t.kind, t.end = kBare, scanBare(src, i+1)
		case isDigit(c):
			t.kind, t.end = kNumber, scanNumber(src, i)
		case c == '-' && i+1 < len(src) && src[i+1] == '>':
			t.kind, t.end = kArrow, i+2
		default:
			t.kind, t.end = kPunct, i+1
		}
		if t.body == 0 {
			t.body = t.end
		}
		toks = append(toks, t)
		i = t.end
	}
	return toks, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func skipLine(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(src)
}

// skipSpace skips whitespace and comments.
func skipSpace(src []byte, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r':
			i++
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
			i = skipLine(src, i)
		default:
			return i
		}
	}
	return i
}

// scanBare scans the rest of a bare identifier: [a-zA-Z0-9_$.]*.
func scanBare(src []byte, i int) int {
	for i < len(src) && (isLetter(src[i]) || isDigit(src[i]) || src[i] == '_' || src[i] == '$' || src[i] == '.') {
		i++
	}
	return i
}

// scanSuffixID scans what follows %, ^, # or !: digits, or [a-zA-Z$._-][a-zA-Z0-9$._-]*.
func scanSuffixID(src []byte, i int) int {
	if i < len(src) && isDigit(src[i]) {
		for i < len(src) && isDigit(src[i]) {
			i++
		}
		return i
	}
	punct := func(c byte) bool { return c == '$' || c == '.' || c == '_' || c == '-' }
	if i >= len(src) || !(isLetter(src[i]) || punct(src[i])) {
		return i
	}
	for i < len(src) && (isLetter(src[i]) || isDigit(src[i]) || punct(src[i])) {
		i++
	}
	return i
}

// scanNumber scans an integer or float literal as MLIR's lexer does.
func scanNumber(src []byte, i int) int {
	at := func(j int) byte {
		if j < len(src) {
			return src[j]
		}
		return 0
	}
	if src[i] == '0' && at(i+1) == 'x' {
		if !isHex(at(i + 2)) {
			return i + 1 // 0xi32 is 0 followed by xi32
		}
		i += 2
		for isHex(at(i)) {
			i++
		}
		return i
	}
	for isDigit(at(i)) {
		i++
	}
	if at(i) != '.' {
		return i
	}
	i++
	for isDigit(at(i)) {
		i++
	}
	if c := at(i); c == 'e' || c == 'E' {
		if isDigit(at(i+1)) || (at(i+1) == '-' || at(i+1) == '+') && isDigit(at(i+2)) {
			i += 2
			for isDigit(at(i)) {
				i++
			}
		}
	}
	return i
}

// lexString scans the string literal that starts at src[i] == '"' and returns the offset after its
// closing quote. Like MLIR, it rejects a newline (or \v, \f, or the end of the text) before the
// closing quote and escapes other than \" \\ \n \t and \XX (two hex digits).
func lexString(src []byte, i int) (int, error) {
	for j := i + 1; ; j++ {
		if j >= len(src) {
			return 0, syntaxError(src, i, "unterminated string: the text ends before its closing quote")
		}
		switch src[j] {
		case '"':
			return j + 1, nil
		case '\n', '\v', '\f':
			return 0, syntaxError(src, i, "unterminated string: a line break before its closing quote")
		case '\\':
			if j+1 >= len(src) {
				return 0, syntaxError(src, i, "unterminated string: the text ends in an escape")
			}
			switch n := src[j+1]; {
			case n == '"' || n == '\\' || n == 'n' || n == 't':
				j++
				continue
			case j+2 < len(src) && isHex(n) && isHex(src[j+2]):
				j += 2
				continue
			}
			return 0, syntaxError(src, j, "unknown escape %q in string literal (MLIR knows \\\" \\\\ \\n \\t and \\XX)", src[j:j+2])
		}
	}
}

// unquote decodes a string token (with its quotes) to its bytes. The token was checked by lexString.
func unquote(s []byte) string { return string(unquoteBytes(s)) }

// unquoteBytes is unquote into a new byte slice.
func unquoteBytes(s []byte) []byte {
	s = s[1 : len(s)-1]
	if bytes.IndexByte(s, '\\') < 0 {
		return bytes.Clone(s)
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			out = append(out, s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case '"', '\\':
			out = append(out, c)
		default:
			if i+1 < len(s) {
				out = append(out, unhex(c)<<4|unhex(s[i+1]))
				i++
			}
		}
	}
	return out
}

func unhex(c byte) byte {
	switch {
	case isDigit(c):
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// quote prints s as MLIR prints a string (llvm::printEscapedString): printable ASCII as is, except
// '"' (as \22) and '\' (as \\); every other byte as \XX with upper-case hex digits.
func quote(s string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b = append(b, '\\', '\\')
		case c >= 0x20 && c < 0x7f && c != '"':
			b = append(b, c)
		default:
			b = append(b, '\\', hex[c>>4], hex[c&15])
		}
	}
	return string(append(b, '"'))
}

// dialectBody scans the body of a dialect attribute or type, from its '<' at src[i], as MLIR's
// parseDialectSymbolBody does: <>, [], () and {} nest and must match, strings are skipped as
// strings, and "->" is an arrow, not a '>'. It returns the offset after the closing '>'.
func dialectBody(src []byte, i int, name string) (int, error) {
	stack := []int{i}
	for j := i + 1; ; j++ {
		if j >= len(src) {
			open := stack[len(stack)-1]
			return 0, syntaxError(src, open, "%q in the body of %s is never closed", src[open], name)
		}
		switch c := src[j]; c {
		case '<', '[', '(', '{':
			stack = append(stack, j)
		case '-':
			if j+1 < len(src) && src[j+1] == '>' {
				j++
			}
		case '>', ']', ')', '}':
			open := src[stack[len(stack)-1]]
			if closer(open) != c {
				return 0, syntaxError(src, j, "unbalanced brackets: %q in the body of %s does not close the %q at %s",
					c, name, open, where(src, stack[len(stack)-1]))
			}
			if stack = stack[:len(stack)-1]; len(stack) == 0 {
				return j + 1, nil
			}
		case '"':
			end, err := lexString(src, j)
			if err != nil {
				return 0, err
			}
			j = end - 1
		case 0:
			return 0, syntaxError(src, j, "NUL byte in the body of %s", name)
		}
	}
}

func closer(open byte) byte {
	switch open {
	case '<':
		return '>'
	case '[':
		return ']'
	case '(':
		return ')'
	}
	return '}'
}

func where(src []byte, off int) string {
	line, col := position(src, off)
	return fmt.Sprintf("%d:%d", line, col)
}
