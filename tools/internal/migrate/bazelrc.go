package migrate

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
)

// bazelrcResult is what migrateBazelrc did to the root .bazelrc.
type bazelrcResult struct {
	change              *Change
	notes, untranslated []Item
	// attrs are the format and ptx that every migrated cuda_library gets (see the package
	// documentation); nil when the chips flag says it all. attrsItem is the note that says so.
	attrs     *Attrs
	attrsItem *Item
	// chipsSet says that a build or common line without a config sets the archs (translated or
	// not) or rules_gpu's chips: every target then has its chips from .bazelrc.
	chipsSet bool
}

// rulesGPUChips matches rules_gpu's chips flag with a value.
var rulesGPUChips = regexp.MustCompile(`^--@@?rules_gpu[+~]?//gpu:chips=`)

// defaultChips are the chips .bazelrc gets when rules_cuda left the archs to nvcc's default: the
// lowest chip CUDA 13 compiles, whose PTX (in every fatbin, the lowest chip's) newer GPUs JIT-compile,
// as they do nvcc's default arch's.
const defaultChips = "sm_75"

// addDefaultChips appends --@rules_gpu//gpu:chips=defaultChips to the root .bazelrc (as migrated:
// rc, or created), for a repository whose .bazelrc names no archs and whose targets name no chips
// (rules_cuda's have none), and notes why.
func addDefaultChips(r *repository, rc *Change) (Change, Item, error) {
	const rel = ".bazelrc"
	var old []byte
	if rc != nil {
		old = rc.Old
	} else if data, err := r.read(rel); err == nil {
		old = data
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Change{}, Item{}, err
	}
	text := string(old)
	if rc != nil {
		text = string(rc.New)
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	line := strings.Count(text, "\n") + 2
	text += "\n# The chips of every target that names none (gpubuild migrate: rules_cuda left them to nvcc).\nbuild --@rules_gpu//gpu:chips=" + defaultChips + "\n"
	if old == nil {
		text = strings.TrimPrefix(text, "\n")
		line = 1
	}
	item := Item{File: rel, Line: line, What: "build --@rules_gpu//gpu:chips=" + defaultChips,
		Why: "added: .bazelrc set no --@rules_cuda//cuda:archs, so rules_cuda left the GPU code to nvcc's default arch (its cubin and PTX, JIT-compiled on newer GPUs), and rules_gpu has no default chips; " + defaultChips + " is the lowest chip CUDA 13 compiles, and its PTX, in every fatbin, is JIT-compiled on every newer GPU: name your GPUs' chips instead to load without JIT (docs/troubleshooting.md#chips-is-empty)"}
	return Change{Path: rel, Old: old, New: []byte(text)}, item, nil
}

// rulesCudaFlag matches a flag of rules_cuda: --@rules_cuda//cuda:archs=VALUE, also spelt with @@,
// the canonical repository name (rules_cuda+, rules_cuda~) or, for booleans, --no@rules_cuda//....
var rulesCudaFlag = regexp.MustCompile(`^--(no)?@@?rules_cuda[+~]?//([^=]*)(=(.*))?$`)

// renamedFlags are the rules_cuda flags that rules_gpu has under another name (archs' values are
// translated into chips; enable's are the same).
var renamedFlags = map[string]string{
	"cuda:archs":  "@rules_gpu//gpu:chips",
	"cuda:enable": "@rules_gpu//gpu:enable",
}

// flagAlias matches --flag_alias=NAME=VALUE.
var flagAlias = regexp.MustCompile(`^--flag_alias=([A-Za-z0-9_]+)=(.*)$`)

// cudaFlag is a token of .bazelrc that sets a rules_cuda flag, directly or by an alias, or that
// defines an alias of one.
type cudaFlag struct {
	name     string // the flag in rules_cuda's package: cuda:archs
	alias    string // the alias the token uses or defines; empty for --@rules_cuda//...
	define   bool   // the token is --flag_alias=ALIAS=@rules_cuda//NAME
	negated  bool   // --no...
	hasValue bool
	value    string // unquoted
	rest     string // "=VALUE" as written, or empty
}

// flagAliases are the .bazelrc's aliases of rules_cuda flags, by name: --flag_alias=cuda_archs=@rules_cuda//cuda:archs.
func flagAliases(lines []string) map[string]string {
	aliases := map[string]string{}
	for _, line := range lines {
		body := strings.TrimRight(line, "\r\n")
		for _, sp := range tokenSpans(body) {
			if m := flagAlias.FindStringSubmatch(body[sp[0]:sp[1]]); m != nil {
				if f := rulesCudaFlag.FindStringSubmatch("--" + unquote(m[2])); f != nil && f[1] == "" && f[3] == "" {
					aliases[m[1]] = f[2]
				}
			}
		}
	}
	return aliases
}

// aliasUses are the aliases of rules_cuda flags (aliases) that a token of the .bazelrc uses
// (--cuda_copts=..., --noenable_cuda), beside defining them.
func aliasUses(lines []string, aliases map[string]string) map[string]bool {
	used := map[string]bool{}
	for _, line := range lines {
		body := strings.TrimRight(line, "\r\n")
		for _, sp := range tokenSpans(body) {
			if f, ok := parseCudaFlag(body[sp[0]:sp[1]], aliases); ok && !f.define && f.alias != "" {
				used[f.alias] = true
			}
		}
	}
	return used
}

// parseCudaFlag reads tok as a rules_cuda flag, an alias of one (aliases), or an alias's definition.
func parseCudaFlag(tok string, aliases map[string]string) (cudaFlag, bool) {
	if m := flagAlias.FindStringSubmatch(tok); m != nil {
		name, ok := aliases[m[1]]
		return cudaFlag{name: name, alias: m[1], define: true}, ok && rulesCudaFlag.MatchString("--"+unquote(m[2]))
	}
	if m := rulesCudaFlag.FindStringSubmatch(tok); m != nil {
		return cudaFlag{name: m[2], negated: m[1] != "", hasValue: m[3] != "", value: unquote(m[4]), rest: m[3]}, true
	}
	flag, rest, hasValue := strings.Cut(strings.TrimPrefix(tok, "--"), "=")
	if !strings.HasPrefix(tok, "--") {
		return cudaFlag{}, false
	}
	negated := false
	name, ok := aliases[flag]
	if !ok && !hasValue && strings.HasPrefix(flag, "no") {
		name, ok = aliases[flag[2:]]
		flag, negated = flag[2:], true
	}
	if !ok {
		return cudaFlag{}, false
	}
	f := cudaFlag{name: name, alias: flag, negated: negated, hasValue: hasValue, value: unquote(rest)}
	if hasValue {
		f.rest = "=" + rest
	}
	return f, true
}

// flagFixes says what to do instead of the rules_cuda flags that have no rules_gpu equivalent.
var flagFixes = map[string]string{
	"cuda:compiler":   `remove it: rules_gpu compiles CUDA C++ with clang unless a target sets compiler = "nvcc" or the CUDA toolchain names nvcc (docs/toolchains.md)`,
	"cuda:copts":      "remove it and put the options in the targets' copts (clang's device compile), or in a macro's",
	"cuda:host_copts": "remove it and put the options in the targets' host_copts, or in a macro's",
	"cuda:runtime":    "remove it: --@rules_gpu//gpu:cudart=static (the default) or shared chooses the CUDA runtime",
}

// migrateBazelrc translates the root .bazelrc's --@rules_cuda//cuda:archs flags into
// --@rules_gpu//gpu:chips and lists its other rules_cuda flags. Lines that hold nothing to translate
// are kept byte for byte.
func migrateBazelrc(r *repository) (bazelrcResult, error) {
	const rel = ".bazelrc"
	var res bazelrcResult
	data, err := r.read(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return res, err
	}
	lines := strings.SplitAfter(string(data), "\n")
	var plain struct {
		attrs   Attrs
		item    Item
		found   bool
		command string
	}
	aliases := flagAliases(lines)
	used := aliasUses(lines, aliases)
	command, continued := "", false
	for i, line := range lines {
		body := strings.TrimRight(line, "\r\n")
		spans := tokenSpans(body)
		wasContinued := continued
		continued = strings.HasSuffix(body, `\`)
		if len(spans) == 0 {
			continue
		}
		first := 0
		if !wasContinued {
			command = body[spans[0][0]:spans[0][1]]
			first = 1
			if strings.HasPrefix(command, "#") || command == "import" || command == "try-import" {
				continued = false
				continue
			}
		}
		// Replace tokens from the last, so that the spans before stay valid; the line's items are
		// listed from the first.
		var lineItems, lineNotes []Item
		removed := false
		for j := len(spans) - 1; j >= first; j-- {
			tok := body[spans[j][0]:spans[j][1]]
			plainLine := !strings.Contains(command, ":") && (command == "build" || command == "common")
			if rulesGPUChips.MatchString(tok) && plainLine {
				res.chipsSet = true
			}
			f, ok := parseCudaFlag(tok, aliases)
			if !ok {
				continue
			}
			if f.name == "cuda:archs" && plainLine && !f.define {
				res.chipsSet = true
			}
			at := Item{File: rel, Line: i + 1, What: "flag " + tok}
			if f.alias != "" {
				at.What += " (an alias of @rules_cuda//" + f.name + ")"
			}
			replace := func(s string) { body = body[:spans[j][0]] + s + body[spans[j][1]:] }
			switch {
			case f.define:
				// --flag_alias=NAME=@rules_cuda//cuda:FLAG: the alias names rules_gpu's flag of the
				// same meaning, so that its uses (and a command line's) keep working.
				if to, ok := renamedFlags[f.name]; ok {
					replace("--flag_alias=" + f.alias + "=" + to)
					continue
				}
				at.What = "flag " + tok
				if !used[f.alias] {
					// An alias nothing in .bazelrc uses (rules_cuda's examples define five):
					// removed, so that no line refers to rules_cuda.
					replace("")
					removed = true
					at.Why = "removed: it aliases a rules_cuda flag that has no rules_gpu equivalent, and no line uses it; where a command line used --" + f.alias + ": " + flagFixes[f.name]
					lineNotes = append(lineNotes, at)
					continue
				}
				at.Why = "aliases a rules_cuda flag that has no rules_gpu equivalent"
				at.Fix = flagFixes[f.name] + "; remove the alias and its uses"
				lineItems = append(lineItems, at)
				continue
			case f.name == "cuda:enable":
				// A bool flag: rules_gpu's has the same values.
				if f.alias == "" {
					neg := ""
					if f.negated {
						neg = "no"
					}
					replace("--" + neg + renamedFlags[f.name] + f.rest)
				}
				continue
			case f.negated || f.name != "cuda:archs" || !f.hasValue:
				at.Why = "has no rules_gpu equivalent"
				at.Fix = flagFixes[f.name]
				if f.name == "cuda:archs" {
					at.Why = "has no value"
					at.Fix = "write it --@rules_cuda//cuda:archs=ARCHS, or --@rules_gpu//gpu:chips=CHIPS"
				} else if at.Fix == "" {
					at.Fix = "remove it (docs/rules.md says what rules_gpu offers)"
				}
				lineItems = append(lineItems, at)
				continue
			}
			archs, err := ParseArchs(f.value)
			var attrs Attrs
			if err == nil {
				attrs, err = archs.Attrs()
			}
			if err != nil {
				at.Why = "does not translate: " + err.Error()
				lineItems = append(lineItems, at)
				continue
			}
			cmd, config, _ := strings.Cut(command, ":")
			if !attrs.Default() {
				if config != "" || (cmd != "build" && cmd != "common") {
					at.Why = fmt.Sprintf("needs %s on the targets, which no flag can say, and as a flag of %q lines it cannot be an attribute of every target", attrs, command)
					at.Fix = fmt.Sprintf("write --@rules_gpu//gpu:chips=%s and set %s by hand on the targets built with it", strings.Join(attrs.Chips, ","), attrs)
					lineItems = append(lineItems, at)
					continue
				}
			}
			if config == "" && (cmd == "build" || cmd == "common") && (cmd == "build" || plain.command != "build") {
				// A build line overrides a common one, and a later line an earlier one.
				plain.attrs, plain.item, plain.found, plain.command = attrs, at, true, cmd
			}
			flag := renamedFlags[f.name]
			if f.alias != "" {
				flag = f.alias
			}
			replace("--" + flag + "=" + strings.Join(attrs.Chips, ","))
		}
		slices.Reverse(lineItems)
		slices.Reverse(lineNotes)
		res.untranslated = append(res.untranslated, lineItems...)
		res.notes = append(res.notes, lineNotes...)
		if removed && !wasContinued && !continued && len(tokenSpans(body)) == 1 {
			lines[i] = "" // only the command is left: the line goes
			continue
		}
		lines[i] = body + line[len(strings.TrimRight(line, "\r\n")):]
	}
	if plain.found && !plain.attrs.Default() {
		attrs := plain.attrs
		res.attrs = &attrs
		item := plain.item
		item.Why = fmt.Sprintf("asks for %s, which the chips flag cannot say", attrs)
		res.attrsItem = &item
	}
	if out := strings.Join(lines, ""); out != string(data) {
		res.change = &Change{Path: rel, Old: data, New: []byte(out)}
	}
	return res, nil
}

var tokenRE = regexp.MustCompile(`\S+`)

// tokenSpans are the [start, end) offsets of the whitespace-separated tokens of line, up to a token
// that starts a comment.
func tokenSpans(line string) [][2]int {
	var spans [][2]int
	for _, s := range tokenRE.FindAllStringIndex(line, -1) {
		if strings.HasPrefix(line[s[0]:], "#") {
			break
		}
		spans = append(spans, [2]int{s[0], s[1]})
	}
	return spans
}

// unquote drops the quotes around a flag's value: --flag="a;b".
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
