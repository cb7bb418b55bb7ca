// tests/integration holds users' repositories, built by the nested-Bazel tests; their Go files
// import packages that Bazel generates. This file keeps them out of the root module's go commands.
module scenarios

go 1.26
