// The scenarios are users' repositories, built by tests/scenarios.sh with Bazel; their Go files
// import packages that Bazel generates. This file keeps them out of the root module's go commands.
module scenarios

go 1.26
