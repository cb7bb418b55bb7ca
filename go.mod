module github.com/rulesgpu/rules_gpu

go 1.26

require (
	github.com/klauspost/compress v1.20.4
	github.com/pierrec/lz4/v4 v4.1.33
	gorgonia.org/cu v0.9.6
)

require (
	github.com/google/uuid v1.1.1 // indirect
	github.com/pkg/errors v0.9.1 // indirect
)
