package buildfile

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bazelbuild/buildtools/build"

	"github.com/rulesgpu/rules_gpu/tools/chip"
)

// Edit is what Set, Add or Remove did to one target's chips, or why it left the target alone.
type Edit struct {
	Target string `json:"target"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	// Before and After are the chips before and after the edit (Before is nil when chips was not
	// set); both are nil when the target was left alone.
	Before []string `json:"before"`
	After  []string `json:"after"`
	// Skip says why the target was left alone ("" when it was edited): its chips are not set (it
	// builds for --@rules_gpu//gpu:chips) or not a list of strings.
	Skip string `json:"skip,omitempty"`
}

func (e Edit) String() string {
	if e.Skip != "" {
		return fmt.Sprintf("%s:%d: %s: left alone: %s", e.File, e.Line, e.Target, e.Skip)
	}
	return fmt.Sprintf("%s:%d: %s: chips %s -> %s", e.File, e.Line, e.Target, joinChips(e.Before), joinChips(e.After))
}

func joinChips(chips []string) string {
	if len(chips) == 0 {
		return "(unset)"
	}
	return strings.Join(chips, ", ")
}

// Set makes the chips of every target the patterns select exactly chips (sorted and deduplicated).
// Targets whose chips is not a list of strings (select(...), a variable) are left alone. It returns
// an Edit for each target changed or left alone, in Find's order; a target that has these chips
// already has none.
func (r *Repo) Set(patterns, chips []string) ([]Edit, error) {
	want, err := checkChips(chips)
	if err != nil {
		return nil, err
	}
	if len(want) == 0 {
		return nil, errors.New("set: name at least one chip; a gpu_module needs one")
	}
	return r.edit(patterns, true, func(fc fileCall, have []string) ([]string, error) {
		return want, nil
	})
}

// Add adds chips to the chips of every target the patterns select and reports them as Set does.
// Targets whose chips is not set are left alone: they build for the --@rules_gpu//gpu:chips default,
// which adding a chip would replace; name their chips with Set.
func (r *Repo) Add(patterns, chips []string) ([]Edit, error) {
	add, err := checkChips(chips)
	if err != nil {
		return nil, err
	}
	return r.edit(patterns, false, func(fc fileCall, have []string) ([]string, error) {
		return append(slices.Clone(have), add...), nil
	})
}

// Remove removes chips from the chips of every target the patterns select that lists them. Removing
// a target's last chip is an error that names the target; targets whose chips is not set are left
// alone. A chip that is not in the chip table may be removed only from targets that list it (to clean
// up a misspelt chip); otherwise it is refused like in Set and Add.
func (r *Repo) Remove(patterns, chips []string) ([]Edit, error) {
	sel, err := r.selectCalls(patterns)
	if err != nil {
		return nil, err
	}
	listed := map[string]bool{}
	for _, fc := range sel.calls {
		have, _ := stringList(fc.call.rule.Attr("chips"))
		for _, c := range have {
			listed[c] = true
		}
	}
	drop := map[string]bool{}
	for _, c := range chips {
		if err := checkChip(c); err != nil && !listed[c] {
			return nil, err
		}
		drop[c] = true
	}
	return r.edit(patterns, false, func(fc fileCall, have []string) ([]string, error) {
		var out []string
		for _, c := range have {
			if !drop[c] {
				out = append(out, c)
			}
		}
		if len(out) == 0 {
			t := fc.file.target(fc.call)
			return nil, fmt.Errorf("%s (%s): removing %s would leave it no chips; a gpu_module needs at least one (set others first, or delete the target)",
				t.Label, t.Where(), strings.Join(have, ", "))
		}
		return out, nil
	})
}

// edit applies change to the chips of every selected target: it computes every target's new chips
// first and changes the files only when none is refused. unsetOK says whether change applies to
// targets whose chips is not set (have is then nil).
func (r *Repo) edit(patterns []string, unsetOK bool, change func(fc fileCall, have []string) ([]string, error)) ([]Edit, error) {
	sel, err := r.selectCalls(patterns)
	if err != nil {
		return nil, err
	}
	type todo struct {
		fc   fileCall
		want []string
	}
	var todos []todo
	var edits []Edit
	for _, fc := range sel.calls {
		t := fc.file.target(fc.call)
		e := Edit{Target: t.Label, File: t.File, Line: t.Line}
		switch {
		case t.ChipsExpr != "":
			e.Skip = fmt.Sprintf("chips is computed (%s); edit it by hand", t.ChipsExpr)
		case len(t.Chips) == 0 && !unsetOK: // chips = [] builds for the default too
			e.Skip = "chips is not set (the target builds for --@rules_gpu//gpu:chips); name its chips with --set"
		}
		if e.Skip != "" {
			edits = append(edits, e)
			continue
		}
		want, err := change(fc, t.Chips)
		if err != nil {
			return nil, err
		}
		want = sortChips(want)
		if t.Chips != nil && slices.Equal(want, t.Chips) {
			continue
		}
		e.Before, e.After = t.Chips, want
		edits = append(edits, e)
		todos = append(todos, todo{fc, want})
	}
	for _, td := range todos {
		setChips(td.fc, td.want, nil)
	}
	return edits, nil
}

// Change is one chip that Retarget replaced in one target.
type Change struct {
	Target string `json:"target"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	From   string `json:"from"`
	To     string `json:"to"`
	// Why is the chip model's reason, as Toolkit.Check gives it.
	Why string `json:"why"`
	// Note warns of what the replacement breaks: runs_on lists the old chip, on which code for the
	// new one does not run. "" if nothing.
	Note string `json:"note,omitempty"`
}

func (c Change) String() string {
	s := fmt.Sprintf("%s:%d: %s: %s -> %s: %s", c.File, c.Line, c.Target, c.From, c.To, c.Why)
	if c.Note != "" {
		s += "; note: " + c.Note
	}
	return s
}

// Retarget replaces, in every target the patterns select (no patterns: all), each chip that toolkit
// cannot compile (toolkit.Check fails) with chip.Replacement's choice: sm_50, sm_60 or sm_70 become
// sm_75 under CUDA 13.0, sm_101 becomes sm_110. It returns one Change per replaced chip. A chip with
// no replacement (one newer than the toolkit, or not in the chip table) is an error that names the
// target, its file and line and the chip; so is a toolkit the chip table does not cover. Targets
// whose chips is not set or not a list of strings have nothing to rewrite and are passed over.
func (r *Repo) Retarget(patterns []string, toolkit chip.Toolkit) ([]Change, error) {
	if _, err := toolkit.NewestPTX(); err != nil { // a toolkit the table does not cover
		return nil, err
	}
	sel, err := r.selectCalls(patterns)
	if err != nil {
		return nil, err
	}
	type todo struct {
		fc      fileCall
		want    []string
		renamed map[string]string
	}
	var todos []todo
	var changes []Change
	for _, fc := range sel.calls {
		t := fc.file.target(fc.call)
		if t.Chips == nil {
			continue
		}
		renamed := map[string]string{}
		want := make([]string, 0, len(t.Chips))
		for _, name := range t.Chips {
			c, err := chip.Parse(name)
			if err != nil {
				return nil, fmt.Errorf("%s (%s): chips: %w", t.Label, t.Where(), err)
			}
			why := toolkit.Check(c)
			if why == nil {
				want = append(want, name)
				continue
			}
			to, err := chip.Replacement(c, toolkit)
			if err != nil {
				return nil, fmt.Errorf("%s (%s): chip %s: %w", t.Label, t.Where(), name, err)
			}
			ch := Change{Target: t.Label, File: t.File, Line: t.Line, From: name, To: to.String(), Why: why.Error()}
			if a, _ := chip.Lookup(c); a.RenamedTo.IsZero() && slices.Contains(t.RunsOn, name) {
				ch.Note = fmt.Sprintf("runs_on lists %s, on which %s code does not run: the build's runs_on check will fail until %s leaves runs_on",
					name, to, name)
			}
			changes = append(changes, ch)
			renamed[name] = ch.To
			want = append(want, ch.To)
		}
		if len(renamed) > 0 {
			todos = append(todos, todo{fc, sortChips(want), renamed})
		}
	}
	for _, td := range todos {
		setChips(td.fc, td.want, td.renamed)
	}
	return changes, nil
}

// setChips makes the call's chips attribute the list want. It keeps the string nodes of the chips
// that stay, with their comments; a chip renamed (renamed[old] = new) keeps its old node; of chips
// that become duplicates, the first keeps its node and takes the others' comments.
func setChips(fc fileCall, want []string, renamed map[string]string) {
	fc.file.edited = true
	rule := fc.call.rule
	old, _ := rule.Attr("chips").(*build.ListExpr)
	nodes := map[string]*build.StringExpr{}
	if old != nil {
		for _, e := range old.List {
			s := e.(*build.StringExpr) // the caller checked that chips is a list of strings
			v := s.Value
			if to, ok := renamed[v]; ok {
				v = to
			}
			if keep, ok := nodes[v]; ok {
				keep.Comments.Before = append(keep.Comments.Before, s.Comments.Before...)
				keep.Comments.Suffix = append(keep.Comments.Suffix, s.Comments.Suffix...)
				continue
			}
			nodes[v] = s
		}
	}
	list := make([]build.Expr, len(want))
	for i, v := range want {
		s := nodes[v]
		if s == nil {
			s = &build.StringExpr{}
		}
		if s.Value != v {
			s.Value, s.Token = v, ""
		}
		list[i] = s
	}
	if old != nil {
		old.List = list
		return
	}
	rule.SetAttr("chips", &build.ListExpr{List: list})
}

// checkChips checks chip names for Set and Add and returns them sorted and deduplicated.
func checkChips(chips []string) ([]string, error) {
	for _, c := range chips {
		if err := checkChip(c); err != nil {
			return nil, err
		}
	}
	return sortChips(chips), nil
}

// checkChip refuses a name that is not a real chip of the chip table (chip.ParseReal says why).
func checkChip(name string) error {
	_, err := chip.ParseReal(name)
	return err
}

// sortChips orders chips as the chip model does, by number and then suffix ("", "a", "f"), and drops
// duplicates. Names that do not parse go last, in their order.
func sortChips(chips []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range chips {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, compareChips)
	return out
}

func compareChips(a, b string) int {
	ca, errA := chip.Parse(a)
	cb, errB := chip.Parse(b)
	switch {
	case errA != nil || errB != nil:
		return boolInt(errA != nil) - boolInt(errB != nil)
	case ca.Number() != cb.Number():
		return ca.Number() - cb.Number()
	case ca.Suffix != cb.Suffix:
		return strings.Compare(ca.Suffix, cb.Suffix) // "" < "a" < "f"
	}
	return boolInt(ca.Virtual) - boolInt(cb.Virtual)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
