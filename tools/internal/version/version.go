// Package version is rules_gpu's version: the module's, as MODULE.bazel's module() declares it (a
// test keeps the two the same), for what the tools write of rules_gpu (gpubuild migrate's
// bazel_dep).
package version

// Version is rules_gpu's module version.
const Version = "0.1.0"
