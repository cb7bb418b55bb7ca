package versionfirst

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
	"github.com/rulesgpu/rules_gpu/tools/internal/version"
)

// gpurun --version prints its version and exits 0 on any machine, one without a GPU driver
// included (where gorgonia.org/cu's initialization would end it first): the build machines run
// this test. GPURUN is the program (a runfiles path under Bazel); go test finds gpurun on PATH or
// skips.
func TestVersionWithoutDriver(t *testing.T) {
	gpurun := testtool.Find(t, "GPURUN", "gpurun")
	for _, flag := range []string{"--version", "-version"} {
		out, err := exec.Command(gpurun, flag).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != version.Line("gpurun") {
			t.Errorf("gpurun %s: %v, %q; want %q and exit 0", flag, err, out, version.Line("gpurun"))
		}
	}
}
