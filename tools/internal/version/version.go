// Package version is rules_gpu's version: the module's, as MODULE.bazel's module() declares it (a
// test keeps the two the same), for what the tools write of rules_gpu (gpubuild migrate's
// bazel_dep) and what every program's --version prints (tools/internal/cmdline). MODULE.bazel is
// the one place a release changes it: tools/release/release.sh refuses a VERSION that is not
// MODULE.bazel's, and this package's test refuses a Version that is not.
package version

// Version is rules_gpu's module version.
const Version = "0.1.0"

// Line is what NAME --version prints, without the line break: "NAME VERSION".
func Line(name string) string { return name + " " + Version }
