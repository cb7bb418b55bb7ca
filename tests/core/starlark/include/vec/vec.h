// A header of the analysis tests' fake library; never compiled.
