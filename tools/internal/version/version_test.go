package version

import (
	"os"
	"regexp"
	"testing"
)

// MODULE.bazel's module(version = ...) is Version.
func TestModuleVersion(t *testing.T) {
	data, err := os.ReadFile("../../../MODULE.bazel")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)module\(\s*name = "rules_gpu",\s*version = "([^"]+)"`).FindSubmatch(data)
	if m == nil {
		t.Fatal("MODULE.bazel declares no module(name = \"rules_gpu\", version = ...)")
	}
	if string(m[1]) != Version {
		t.Errorf("MODULE.bazel's version is %s, Version %s: change both", m[1], Version)
	}
}
