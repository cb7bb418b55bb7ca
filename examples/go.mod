// Host programs of the examples. They import Go packages that Bazel generates (gpu_go_library), so
// they build with `bazel test //examples/...`, not with the go command; this file keeps them out of
// the root module's `go test ./...`.
module github.com/rulesgpu/rules_gpu/examples

go 1.26
