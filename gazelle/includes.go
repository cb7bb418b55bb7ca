package gazelle

import (
	"bytes"
	"path"
	"strconv"
	"strings"
)

// include is one #include line of a CUDA C++ source or header.
type include struct {
	File   string // the including file, relative to the repository root
	Line   int    // 1-based
	Path   string // as written between the quotes or angle brackets
	Quoted bool   // "..." rather than <...>
}

// where is the include's position as messages name it: FILE:LINE.
func (in include) where() string { return in.File + ":" + strconv.Itoa(in.Line) }

// written is the include as it appears in the source: #include "x.h" or #include <x.h>.
func (in include) written() string {
	if in.Quoted {
		return `#include "` + in.Path + `"`
	}
	return "#include <" + in.Path + ">"
}

// parseIncludes lists the #include directives of C/C++/CUDA source text, in order. It reads the
// preprocessor's lines as the preprocessor does, as far as finding includes needs: a directive may
// have blanks around and after its '#', a backslash-newline continues a line, and directives inside
// /* ... */ comments do not count. Every include counts, whatever #if surrounds it (a dependency
// that only one configuration needs is still one the build must declare). An #include of a macro
// (#include HEADER) names no file and is left out. file, relative to the repository root, is
// recorded in each include for messages.
func parseIncludes(file string, src []byte) []include {
	var out []include
	inComment := false
	lines := bytes.Split(src, []byte("\n"))
	for i := 0; i < len(lines); i++ {
		lineNo := i + 1
		line := string(lines[i])
		// A backslash at the end joins the next line (translation phase 2).
		for strings.HasSuffix(strings.TrimRight(line, "\r"), `\`) && i+1 < len(lines) {
			line = strings.TrimSuffix(strings.TrimRight(line, "\r"), `\`) + string(lines[i+1])
			i++
		}
		code := stripComments(line, &inComment)
		if in, ok := includeDirective(code); ok {
			in.File, in.Line = file, lineNo
			out = append(out, in)
		}
	}
	return out
}

// stripComments removes the comments of one line, carrying an open /* ... */ across lines in
// inComment. String and character literals are kept whole, so a "/*" or "//" inside one is text.
func stripComments(line string, inComment *bool) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if *inComment {
			end := strings.Index(line[i:], "*/")
			if end < 0 {
				return b.String()
			}
			*inComment = false
			i += end + 2
			b.WriteByte(' ')
			continue
		}
		switch c := line[i]; {
		case strings.HasPrefix(line[i:], "/*"):
			*inComment = true
			i += 2
		case strings.HasPrefix(line[i:], "//"):
			return b.String()
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(line) && line[j] != c {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(line))
			b.WriteString(line[i:j])
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// includeDirective reads `# include "x"` or `#include <x>` from a line without comments.
func includeDirective(code string) (include, bool) {
	s := strings.TrimLeft(code, " \t")
	if !strings.HasPrefix(s, "#") {
		return include{}, false
	}
	s = strings.TrimLeft(s[1:], " \t")
	if !strings.HasPrefix(s, "include") {
		return include{}, false
	}
	s = strings.TrimLeft(s[len("include"):], " \t")
	if len(s) < 2 {
		return include{}, false
	}
	closer := map[byte]byte{'"': '"', '<': '>'}[s[0]]
	if closer == 0 {
		return include{}, false // #include MACRO, or #include_next, #includex
	}
	end := strings.IndexByte(s[1:], closer)
	if end <= 0 {
		return include{}, false
	}
	return include{Path: s[1 : 1+end], Quoted: s[0] == '"'}, true
}

// candidates are the repository paths a quoted include may name, in the order the compiler
// searches them: beside the including file, then from each include root (the repository root, and
// the rule's include directories, relative to the repository root). Paths that leave the
// repository are dropped; duplicates are listed once.
func (in include) candidates(roots []string) []string {
	var out []string
	add := func(p string) {
		p = path.Clean(p)
		if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
			return
		}
		for _, q := range out {
			if q == p {
				return
			}
		}
		out = append(out, p)
	}
	if in.Quoted {
		add(path.Join(path.Dir(in.File), in.Path))
	}
	add(in.Path)
	for _, r := range roots {
		add(path.Join(r, in.Path))
	}
	return out
}
