package mlir

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The defaults of MLIR's --nvvm-attach-target options, which are also the default values of the
// #nvvm.target parameters (a parameter at its default is not printed).
const (
	DefaultTriple   = "nvptx64-nvidia-cuda"
	DefaultChip     = "sm_50"
	DefaultFeatures = "+ptx60"
	DefaultO        = 2
)

// Target is one NVVM target: the options of MLIR's --nvvm-attach-target pass, under the same names.
type Target struct {
	// Module selects the gpu.modules by name, as the pass's module option does: a POSIX extended
	// regular expression searched for anywhere in the name; empty selects every module. See
	// "Module patterns" in the package documentation for the dialect and the forms Validate
	// rejects.
	Module string

	Triple   string // option triple
	Chip     string // option chip, e.g. sm_90
	Features string // option features, e.g. +ptx80
	O        int    // option O: the optimization level, 0 to 3
	Fast     bool   // option fast: fast math
	FTZ      bool   // option ftz: flush denormals to zero
	// Link lists bitcode libraries to link (option l).
	Link []string
	// PtxasOptions is the option ptxas-cmd-options: one string that MLIR splits into arguments as
	// a GNU shell would (quotes, backslash escapes), after removing one pair of quotes around it.
	PtxasOptions string
}

// DefaultTarget is the target MLIR's --nvvm-attach-target attaches when given no options.
func DefaultTarget() Target {
	return Target{Triple: DefaultTriple, Chip: DefaultChip, Features: DefaultFeatures, O: DefaultO}
}

// Validate says whether MLIR 21 handles t well. It rejects what NVVMTargetAttr::verify calls
// invalid (an optimization level outside 0..3, an empty triple or chip; mlir-opt 21 does not run
// that check when it parses an attribute or runs the pass, so it prints O = 4), a chip whose SM number
// MLIR's target verifier cannot read or finds below 20 (it reads the digits right after the first
// three characters: sm_90 and sm_90a read as 90; for compute_90 it reads no digits and goes on with
// an uninitialized number), an empty link library and a NUL byte in the ptxas options (MLIR would
// cut the option there). The module regex must be one MLIR and Go read alike (see Module).
func (t Target) Validate() error {
	var errs []error
	if _, err := moduleRegex(t.Module); err != nil {
		errs = append(errs, fmt.Errorf("module regex: %w", err))
	}
	if t.O < 0 || t.O > 3 {
		errs = append(errs, fmt.Errorf("O = %d: the optimization level must be 0, 1, 2 or 3", t.O))
	}
	if t.Triple == "" {
		errs = append(errs, errors.New("the triple is empty"))
	}
	if err := checkChip(t.Chip); err != nil {
		errs = append(errs, err)
	}
	for _, l := range t.Link {
		if l == "" {
			errs = append(errs, errors.New("a link library path is empty"))
			break
		}
	}
	if strings.IndexByte(t.PtxasOptions, 0) >= 0 {
		errs = append(errs, errors.New("the ptxas options contain a NUL byte"))
	}
	return errors.Join(errs...)
}

// checkChip accepts the chips whose SM number MLIR 21's NVVMTargetAttr::verifyTarget reads: the
// decimal digits right after the first three characters, at least 20. (For other chips MLIR reads
// an uninitialized number, or crashes on an empty chip.)
func checkChip(chip string) error {
	if chip == "" {
		return errors.New("the chip is empty")
	}
	digits := ""
	if len(chip) > 3 {
		rest := chip[3:]
		n := 0
		for n < len(rest) && isDigit(rest[n]) {
			n++
		}
		digits = rest[:n]
	}
	v, err := strconv.ParseInt(digits, 10, 32)
	if err != nil || v < 20 {
		return fmt.Errorf("chip %q: MLIR reads the SM number from the digits after the first three characters (sm_90, sm_90a); it must be 20 or more", chip)
	}
	return nil
}

// Pass is t as an nvvm-attach-target pass of an MLIR pass pipeline (mlir-opt's --pass-pipeline),
// e.g. nvvm-attach-target{O=3 triple={nvptx64-nvidia-cuda} chip={sm_80} features={+ptx70}}. Values go
// in {...}, which MLIR's pass option parser takes verbatim: a value must not hold an unbalanced
// brace or quote (Validate does not check that; rules_gpu's own values never do).
func (t Target) Pass() string {
	p := []string{fmt.Sprintf("O=%d", t.O), "triple={" + t.Triple + "}", "chip={" + t.Chip + "}", "features={" + t.Features + "}"}
	if t.Module != "" {
		p = append(p, "module={"+t.Module+"}")
	}
	if t.Fast {
		p = append(p, "fast")
	}
	if t.FTZ {
		p = append(p, "ftz")
	}
	if len(t.Link) > 0 {
		p = append(p, "l={"+strings.Join(t.Link, ",")+"}")
	}
	if t.PtxasOptions != "" {
		p = append(p, "ptxas-cmd-options={"+t.PtxasOptions+"}")
	}
	return "nvvm-attach-target{" + strings.Join(p, " ") + "}"
}

// Attribute is the #nvvm.target attribute for t exactly as mlir-opt 21 prints it: parameters at
// their default are left out; the others come in the order O, triple, chip, features, flags, link;
// flags is a dictionary sorted by name ({fast, ftz, "ptxas-cmd-options" = [...]}) holding the
// ptxas options split into arguments; strings are escaped as MLIR escapes them. With every
// parameter at its default it is just "#nvvm.target". (Module is not part of the attribute.)
func (t Target) Attribute() string {
	return t.nvvm().String()
}

// nvvm is the attribute for t, as the pass builds it.
func (t Target) nvvm() nvvmAttr {
	a := nvvmAttr{O: t.O, Triple: t.Triple, Chip: t.Chip, Features: t.Features, VerifyTarget: true}
	if t.Fast {
		a.Flags = append(a.Flags, flagEntry{name: "fast"})
	}
	if t.FTZ {
		a.Flags = append(a.Flags, flagEntry{name: "ftz"})
	}
	if args := tokenizeCmdOptions(t.PtxasOptions); len(args) > 0 {
		a.Flags = append(a.Flags, flagEntry{name: "ptxas-cmd-options", value: stringArray(args)})
	}
	a.HasFlags = len(a.Flags) > 0
	if len(t.Link) > 0 {
		a.Link, a.HasLink = stringArray(t.Link), true
	}
	return a
}

// nvvmAttr is an #nvvm.target attribute with every parameter MLIR 21 gives it. Flags and Link hold
// printed values; Has* tell an absent parameter from an empty one (flags = {} is printed).
type nvvmAttr struct {
	O                      int
	Triple, Chip, Features string
	Flags                  []flagEntry // in any order; String sorts them as MLIR's DictionaryAttr does
	HasFlags               bool
	Link                   string // printed array, e.g. ["a.bc", "b.bc"]
	HasLink                bool
	VerifyTarget           bool
}

// flagEntry is one entry of the flags dictionary: a name and its printed value ("" for a unit attribute,
// printed as the name alone).
type flagEntry struct{ name, value string }

func (a nvvmAttr) String() string {
	var p []string
	if a.O != DefaultO {
		p = append(p, "O = "+strconv.Itoa(a.O))
	}
	if a.Triple != DefaultTriple {
		p = append(p, "triple = "+quote(a.Triple))
	}
	if a.Chip != DefaultChip {
		p = append(p, "chip = "+quote(a.Chip))
	}
	if a.Features != DefaultFeatures {
		p = append(p, "features = "+quote(a.Features))
	}
	if a.HasFlags {
		fs := append([]flagEntry(nil), a.Flags...)
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].name < fs[j].name })
		entries := make([]string, len(fs))
		for i, f := range fs {
			entries[i] = dictKey(f.name)
			if f.value != "" {
				entries[i] += " = " + f.value
			}
		}
		p = append(p, "flags = {"+strings.Join(entries, ", ")+"}")
	}
	if a.HasLink {
		p = append(p, "link = "+a.Link)
	}
	if !a.VerifyTarget {
		p = append(p, "verifyTarget = false")
	}
	if len(p) == 0 {
		return "#nvvm.target"
	}
	return "#nvvm.target<" + strings.Join(p, ", ") + ">"
}

// target turns a into a Target when every parameter has a Target field: the flags are only fast,
// ftz and ptxas-cmd-options (an array of non-empty strings), link is an array of strings and
// verifyTarget is true.
func (a nvvmAttr) target() (Target, bool) {
	t := Target{O: a.O, Triple: a.Triple, Chip: a.Chip, Features: a.Features}
	if !a.VerifyTarget {
		return Target{}, false
	}
	for _, f := range a.Flags {
		switch {
		case f.name == "fast" && f.value == "":
			t.Fast = true
		case f.name == "ftz" && f.value == "":
			t.FTZ = true
		case f.name == "ptxas-cmd-options":
			args, ok := parseStringArray(f.value)
			if !ok || len(args) == 0 {
				return Target{}, false
			}
			quoted := make([]string, len(args))
			for i, s := range args {
				if s == "" {
					return Target{}, false
				}
				quoted[i] = escapeArg(s)
			}
			t.PtxasOptions = strings.Join(quoted, " ")
		default:
			return Target{}, false
		}
	}
	if a.HasLink {
		l, ok := parseStringArray(a.Link)
		if !ok || len(l) == 0 {
			return Target{}, false
		}
		t.Link = l
	}
	return t, true
}

func stringArray(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// parseStringArray reads back what stringArray prints.
func parseStringArray(s string) ([]string, bool) {
	toks, err := lex([]byte(s))
	if err != nil || len(toks) < 2 || toks[0].br != '[' || toks[len(toks)-1].br != ']' {
		return nil, false
	}
	var out []string
	for i, t := range toks[1 : len(toks)-1] {
		if i%2 == 1 {
			if t.kind != kPunct || s[t.start:t.end] != "," {
				return nil, false
			}
			continue
		}
		if t.kind != kString {
			return nil, false
		}
		out = append(out, unquote([]byte(s[t.start:t.end])))
	}
	if len(toks) > 2 && len(toks)%2 != 1 {
		return nil, false // a trailing comma
	}
	return out, true
}

// dictKey prints a dictionary key as MLIR does: bare when it is a bare identifier, else quoted.
func dictKey(name string) string {
	if name != "" && (isLetter(name[0]) || name[0] == '_') && scanBare([]byte(name), 1) == len(name) {
		return name
	}
	return quote(name)
}

// escapeArg writes one argument so that tokenizeCmdOptions reads it back: a backslash before every
// byte the GNU tokenizer treats specially. The result never starts with a quote, so the quote
// removal around the whole string cannot apply.
func escapeArg(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r', '\n', '"', '\'', '\\':
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// tokenizeCmdOptions splits the ptxas options as MLIR 21's gpu::TargetOptions::tokenizeCmdOptions
// does: one pair of double quotes around the whole string is removed, then one pair of single
// quotes, then the rest is split as llvm::cl::TokenizeGNUCommandLine splits it (whitespace
// separates; a backslash escapes the next byte, in quotes too; '...' and "..." group; an
// unterminated quote runs to the end; empty arguments are dropped).
func tokenizeCmdOptions(s string) []string {
	if s != "" && s[0] == '"' && s[len(s)-1] == '"' {
		s = strings.TrimSuffix(s[1:], `"`)
	}
	if s != "" && s[0] == '\'' && s[len(s)-1] == '\'' {
		s = strings.TrimSuffix(s[1:], `'`)
	}
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	var args []string
	var tok []byte
	for i := 0; i < len(s); i++ {
		if len(tok) == 0 {
			for i < len(s) && space(s[i]) {
				i++
			}
			if i == len(s) {
				break
			}
		}
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			tok = append(tok, s[i])
			continue
		}
		if c == '"' || c == '\'' {
			i++
			for i < len(s) && s[i] != c {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				tok = append(tok, s[i])
				i++
			}
			if i == len(s) {
				break
			}
			continue
		}
		if space(c) {
			if len(tok) > 0 {
				args = append(args, string(tok))
			}
			tok = tok[:0]
			continue
		}
		tok = append(tok, c)
	}
	if len(tok) > 0 {
		args = append(args, string(tok))
	}
	return args
}

// parseNVVM reads the #nvvm.target token t of src (the name, then optionally its <...> body) into
// the attribute it denotes. It fails on anything MLIR's parser would not take as an #nvvm.target.
func parseNVVM(src []byte, t token) (nvvmAttr, bool) {
	a := nvvmAttr{O: DefaultO, Triple: DefaultTriple, Chip: DefaultChip, Features: DefaultFeatures, VerifyTarget: true}
	if t.kind != kHash || string(src[t.start:scanSuffixID(src, t.start+1)]) != "#nvvm.target" {
		return a, false
	}
	if t.body == t.end {
		return a, true
	}
	body := src[t.body+1 : t.end-1]
	toks, err := lex(body)
	if err != nil {
		return a, false
	}
	seen := map[string]bool{}
	for _, entry := range splitTop(body, toks) {
		if len(entry) < 3 || entry[0].kind != kBare || !isPunct(body, entry[1], "=") {
			return a, false
		}
		key := string(body[entry[0].start:entry[0].end])
		if seen[key] {
			return a, false
		}
		seen[key] = true
		val := entry[2:]
		vtext := string(body[val[0].start:val[len(val)-1].end])
		switch key {
		case "O":
			n, ok := parseInt(body, val)
			if !ok {
				return a, false
			}
			a.O = n
		case "triple", "chip", "features":
			if len(val) != 1 || val[0].kind != kString {
				return a, false
			}
			s := unquote([]byte(vtext))
			switch key {
			case "triple":
				a.Triple = s
			case "chip":
				a.Chip = s
			default:
				a.Features = s
			}
		case "flags":
			fs, ok := parseDict(body, val)
			if !ok {
				return a, false
			}
			a.Flags, a.HasFlags = fs, true
		case "link":
			if len(val) < 2 || val[0].br != '[' || val[len(val)-1].br != ']' {
				return a, false
			}
			a.Link, a.HasLink = canonicalValue(body, val), true
		case "verifyTarget":
			if len(val) != 1 || (vtext != "true" && vtext != "false") {
				return a, false
			}
			a.VerifyTarget = vtext == "true"
		default:
			return a, false
		}
	}
	return a, true
}

func parseInt(src []byte, val []token) (int, bool) {
	neg := false
	if len(val) == 2 && isPunct(src, val[0], "-") {
		neg, val = true, val[1:]
	}
	if len(val) != 1 || val[0].kind != kNumber {
		return 0, false
	}
	n, err := strconv.ParseInt(string(src[val[0].start:val[0].end]), 0, 32)
	if err != nil {
		return 0, false
	}
	if neg {
		n = -n
	}
	return int(n), true
}

// parseDict reads a dictionary attribute {k, k = v, "k" = v} into flags with printed values.
func parseDict(src []byte, val []token) ([]flagEntry, bool) {
	if len(val) < 2 || val[0].br != '{' || val[len(val)-1].br != '}' || string(src[val[0].start:val[0].end]) != "{" {
		return nil, false
	}
	fs := []flagEntry{}
	seen := map[string]bool{}
	for _, e := range splitTop(src, val[1:len(val)-1]) {
		if len(e) == 0 {
			return nil, false
		}
		var name string
		switch e[0].kind {
		case kBare:
			name = string(src[e[0].start:e[0].end])
		case kString:
			name = unquote(src[e[0].start:e[0].end])
		default:
			return nil, false
		}
		if seen[name] {
			return nil, false
		}
		seen[name] = true
		f := flagEntry{name: name}
		if len(e) > 1 {
			if len(e) < 3 || !isPunct(src, e[1], "=") {
				return nil, false
			}
			f.value = canonicalValue(src, e[2:])
		}
		fs = append(fs, f)
	}
	return fs, true
}

// canonicalValue prints an attribute value as MLIR would for the forms the flags and link of an
// #nvvm.target hold (strings, arrays of them, bare keywords): strings printed as MLIR prints them,
// ", " between elements, no space inside brackets. Other forms come out as their tokens joined by
// single spaces: not MLIR's printing, but the same for texts that differ only in whitespace.
func canonicalValue(src []byte, val []token) string {
	var b strings.Builder
	for i, t := range val {
		comma := isPunct(src, t, ",")
		if i > 0 && val[i-1].br != '[' && t.br != ']' && !comma {
			b.WriteByte(' ')
		}
		switch text := src[t.start:t.end]; {
		case t.kind == kString:
			b.WriteString(quote(unquote(text)))
		case comma:
			b.WriteByte(',')
		default:
			b.WriteString(squeeze(string(text)))
		}
	}
	return b.String()
}

// squeeze removes whitespace and comments outside string literals, except one space between two
// word characters.
func squeeze(s string) string {
	var b strings.Builder
	word := func(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.' }
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			end, err := lexString([]byte(s), i)
			if err != nil {
				end = len(s)
			}
			b.WriteString(s[i:end])
			i = end
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/' && i+1 < len(s) && s[i+1] == '/':
			j := skipSpace([]byte(s), i)
			out := b.String()
			if len(out) > 0 && word(out[len(out)-1]) && j < len(s) && word(s[j]) {
				b.WriteByte(' ')
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}
