module github.com/rulesgpu/rules_gpu

go 1.26

require (
	github.com/bazelbuild/bazel-gazelle v0.47.0
	github.com/bazelbuild/buildtools v0.0.0-20260904073137-eaa4d125b423
	github.com/klauspost/compress v1.20.4
	github.com/pierrec/lz4/v4 v4.1.33
	gorgonia.org/cu v0.9.6
)

require (
	github.com/golang/protobuf v1.5.4 // indirect
	github.com/google/safeopen v0.0.0-20260327150837-43626d6f4685 // indirect
	github.com/google/uuid v1.1.1 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	golang.org/x/mod v0.20.0 // indirect
	golang.org/x/sys v0.28.0 // indirect
	golang.org/x/tools/go/vcs v0.1.0-deprecated // indirect
	google.golang.org/protobuf v1.36.3 // indirect
)

tool github.com/bazelbuild/buildtools/buildifier
