package mlir

// Outline is what a file holds as a build sees it, without reading its ops' bodies: its
// gpu.modules and whether it has host code that runs kernels. A generator of BUILD files
// (rules_gpu's gazelle language) reads it to choose between gpu_module, gpu_binary and gpu_test.
type Outline struct {
	// Modules are the file's gpu.modules, as Modules lists them (TopLevel says which of them
	// MLIR's passes, and so gpu_module's module attribute, see).
	Modules []Module
	// Main is whether a func.func @main is defined outside every gpu.module: a host entry point.
	Main bool
	// Launch is whether a gpu.launch or gpu.launch_func op is outside every gpu.module: host code
	// that runs kernels (a gpu.launch region, or a kernel of the file's gpu.modules).
	Launch bool
	// Regions is whether a gpu.launch op (a kernel written in place, which gpu-kernel-outlining
	// makes a gpu.module of) is outside every gpu.module.
	Regions bool
}

// ReadOutline reads the outline of an MLIR source text. Like Modules, it reads the text as MLIR's
// lexer does (a "func.func @main" in a string or a comment is not an op, nor is %gpu.launch, a
// value's name) and fails with a *SyntaxError on text it cannot read.
func ReadOutline(src []byte) (*Outline, error) {
	f, err := parse(src)
	if err != nil {
		return nil, err
	}
	o := &Outline{}
	for _, m := range f.modules {
		o.Modules = append(o.Modules, m.Module)
	}
	// The ops outside the gpu.modules: the tokens between the modules' spans (which are in text
	// order; a nested module lies in the span of the one around it).
	next := 0 // the first module whose span has not been passed
	end := -1 // the end of the span the current token is in, or -1 in none
	for i, t := range f.toks {
		if t.start < end {
			continue
		}
		end = -1
		for next < len(f.modules) && f.modules[next].Start <= t.start {
			end = max(end, f.modules[next].End)
			next++
		}
		if t.start < end || t.kind != kBare || f.isKey(i) {
			continue
		}
		switch f.text(t) {
		case "func.func":
			// func.func (private|public|nested)? @name
			for j := i + 1; j < len(f.toks) && j <= i+2; j++ {
				if n := f.toks[j]; n.kind == kAt && f.symbol(n) == "main" {
					o.Main = true
				}
			}
		case "gpu.launch":
			o.Launch, o.Regions = true, true
		case "gpu.launch_func":
			o.Launch = true
		}
	}
	return o, nil
}

// isKey says whether the bare identifier toks[i] is a dictionary key or a name in a list rather
// than an op name: {gpu.module = ...}, {gpu.launch}, [func.func, ...].
func (f *file) isKey(i int) bool {
	if i+1 >= len(f.toks) {
		return false
	}
	next := f.toks[i+1]
	return isPunct(f.src, next, "=") || isPunct(f.src, next, ",") || isPunct(f.src, next, ":") || next.br == '}' || next.br == ']'
}

// symbol is the name of a symbol reference token (kAt), unescaped: @"k 1" is k 1.
func (f *file) symbol(t token) string {
	if t.end > t.start+1 && f.src[t.start+1] == '"' {
		return unquote(f.src[t.start+1 : t.end])
	}
	return string(f.src[t.start+1 : t.end])
}
