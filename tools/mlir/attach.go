package mlir

import (
	"sort"
)

// Outcome is what Attach did with one gpu.module.
type Outcome int

const (
	// Attached: the target was appended to the module's targets.
	Attached Outcome = iota + 1
	// Present: the module's last target already is this target, so nothing was appended (MLIR
	// appends and then drops an element equal to the one before it).
	Present
	// NotMatched: the module's name does not match Target.Module.
	NotMatched
	// Nested: the module is not a direct child of the top-level module; MLIR's pass does not look
	// at it.
	Nested
)

func (o Outcome) String() string {
	switch o {
	case Attached:
		return "attached"
	case Present:
		return "already present"
	case NotMatched:
		return "name not matched"
	case Nested:
		return "nested, not a direct child of the top-level module"
	}
	return "unknown"
}

// Result is one gpu.module and what Attach did with it.
type Result struct {
	Module
	Outcome Outcome
	// Changed is whether the module's text changed: the target was appended, or a target equal to
	// the one before it was dropped, as MLIR drops it.
	Changed bool
}

// Report lists every gpu.module of the text, in text order, and what Attach did with each.
type Report struct {
	Modules []Result
}

// Matched lists the modules that Target.Module selected (Attached or Present).
func (r Report) Matched() []Result {
	var out []Result
	for _, m := range r.Modules {
		if m.Outcome == Attached || m.Outcome == Present {
			out = append(out, m)
		}
	}
	return out
}

// Changed is whether Attach changed the text.
func (r Report) Changed() bool {
	for _, m := range r.Modules {
		if m.Changed {
			return true
		}
	}
	return false
}

// Attach does to MLIR source text what mlir-opt 21's --nvvm-attach-target does to the module it
// parses, editing only the targets of the gpu.modules it selects and keeping every other byte:
// each gpu.module that is a direct child of the top-level module and whose name matches
// t.Module gets t.Attribute() appended to its targets ("gpu.module @k [#nvvm.target<...>] {"
// when it had none), and then, as MLIR does, an element equal to the one before it is dropped.
// Attaching the same target again therefore changes nothing.
//
// Elements are compared as attributes: #nvvm.target parameters at their defaults or in another
// order, whitespace, and aliases (#t = #nvvm.target<...>) do not make two elements differ.
//
// It fails when t is invalid (Target.Validate) and, with a *SyntaxError, when the text cannot be
// read (see Modules). A text where no module matches is not an error: the Report says so.
func Attach(src []byte, t Target) ([]byte, Report, error) {
	if err := t.Validate(); err != nil {
		return nil, Report{}, err
	}
	sel, err := NewModuleMatcher(t.Module)
	if err != nil {
		return nil, Report{}, err // Validate compiled it
	}
	f, err := parse(src)
	if err != nil {
		return nil, Report{}, err
	}
	attr := t.Attribute()
	var edits []edit
	var rep Report
	for _, m := range f.modules {
		r := Result{Module: m.Module}
		switch {
		case !m.TopLevel:
			r.Outcome = Nested
		case !sel.Match(m.Name):
			r.Outcome = NotMatched
		default:
			es, appended := m.attach(attr)
			r.Outcome = Present
			if appended {
				r.Outcome = Attached
			}
			r.Changed = len(es) > 0
			edits = append(edits, es...)
		}
		rep.Modules = append(rep.Modules, r)
	}
	// Edits come module by module; a module inside another's header (invalid MLIR) would put them
	// out of order.
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	for i := 1; i < len(edits); i++ {
		if edits[i].start < edits[i-1].end {
			return nil, Report{}, syntaxError(src, edits[i].start, "overlapping gpu.module headers")
		}
	}
	return apply(src, edits), rep, nil
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// attach returns the edits that append attr to m's targets and drop each element equal to the one
// before it, in text order; appended says whether attr was appended.
func (m *module) attach(attr string) (edits []edit, appended bool) {
	l := m.list
	if l == nil {
		return []edit{{m.insertAt, m.insertAt, " [" + attr + "]"}}, true
	}
	for k := 1; k < len(l.keys); k++ {
		if l.keys[k] == l.keys[k-1] {
			edits = append(edits, edit{l.items[k-1][1], l.items[k][1], ""})
		}
	}
	n := len(l.keys)
	switch {
	case n > 0 && l.keys[n-1] == attr:
		return edits, false
	case n == 0:
		return append(edits, edit{l.open + 1, l.open + 1, attr}), true
	default:
		end := l.items[n-1][1]
		return append(edits, edit{end, end, ", " + attr}), true
	}
}

// apply makes the edits, which are in text order and do not overlap.
func apply(src []byte, edits []edit) []byte {
	extra := 0
	for _, e := range edits {
		extra += len(e.text)
	}
	out := make([]byte, 0, len(src)+extra)
	pos := 0
	for _, e := range edits {
		out = append(out, src[pos:e.start]...)
		out = append(out, e.text...)
		pos = e.end
	}
	return append(out, src[pos:]...)
}
