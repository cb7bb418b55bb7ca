// Package launch loads GPU artifacts (fatbins, cubins, PTX) with the CUDA driver through
// gorgonia.org/cu and launches their kernels.
//
// The package needs cgo, cuda.h and libcuda, and builds only with the "cuda" build tag
// (go build -tags cuda); package kernarg, which packs kernel arguments, builds everywhere. Importing
// gorgonia.org/cu initialises the driver at program start and exits the program when that fails, so
// programs built with the tag run only on machines with an NVIDIA driver.
package launch
