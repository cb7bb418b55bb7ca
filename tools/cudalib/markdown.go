package cudalib

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

const docsText = `<!-- Generated from tools/cudalib by ` + "`go test ./tools/cudalib -run TestDocs -update`" + `. Do not edit. -->

# The CUDA toolkit's libraries

Host code that calls cuBLAS, cuFFT, NVRTC, ... depends on the library's target, as on any
` + "`cc_library`" + `; the target comes from the CUDA toolchain, so the same label serves a toolkit found
on the machine (` + "`cuda.local`" + `) and a hermetic one (` + "`cuda.archive`" + `):

` + "```starlark" + `
cc_binary(
    name = "gemm",
    srcs = ["gemm.cc"],
    deps = ["@rules_gpu//cuda:cublas"],
)
` + "```" + `

Each target links the library's static archives, the libraries they need, and the system libraries
NVIDIA documents for them (` + "`-lpthread -ldl -lrt`" + `), so that a program needs only the driver
where it runs. ` + "`--@rules_gpu//gpu:toolkit_libraries=shared`" + ` links the shared libraries instead:
every runner must then have them, of the same major version (a program linked against CUDA 12's
` + "`libcublas.so.12`" + ` does not start on a machine whose CUDA 13 has only ` + "`libcublas.so.13`" + `). A
` + "`gpu_cc_test`" + ` whose program needs one is refused when it is built (its ` + "`NAME_runner_abi`" + `), unless
` + "`--@rules_gpu//gpu:runners_have`" + ` lists it: ` + "`--@rules_gpu//gpu:runners_have=GLIBC_2.39,GLIBCXX_3.4.33,libcublas.so.12`" + `. The
headers are those of the toolkit; the CUDA runtime (` + "`@rules_gpu//cuda:runtime`" + `) comes with every
library that links one.

A library the toolkit lacks fails the build at analysis, naming the files, the Debian or Ubuntu
package and NVIDIA's archive that hold them, e.g.

    @@rules_gpu~//cuda:cufft: the CUDA toolkit (/usr/local/cuda/bin) has no cuFFT static library
    (libcufft_static.a); install Debian's or Ubuntu's nvidia-cuda-dev, or add NVIDIA's libcufft
    archive to cuda.archive(archives = ...), or link the shared library:
    --@rules_gpu//gpu:toolkit_libraries=shared

With ` + "`cuda.archive`" + `, add each library's archive (its URL and sha256, from NVIDIA's
` + "`redistrib_VERSION.json`" + `) next to ` + "`cuda_nvcc`" + ` and ` + "`cuda_cudart`" + `.

`

// WriteMarkdown renders docs/cuda-libraries.md: how host code links the toolkit's libraries, and
// the table: each target, what it links, what it needs, and where a toolkit gets it.
func WriteMarkdown(w io.Writer) error {
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	b.WriteString(docsText)
	code := func(ss []string) string {
		if len(ss) == 0 {
			return "—"
		}
		cs := make([]string, len(ss))
		for i, s := range ss {
			cs[i] = "`" + s + "`"
		}
		return strings.Join(cs, ", ")
	}
	p("| target | library | static | shared | needs | header | NVIDIA archive | Debian/Ubuntu |\n")
	p("|---|---|---|---|---|---|---|---|\n")
	for _, l := range table {
		shared := []string{}
		if l.Shared != "" {
			shared = []string{l.Shared}
		}
		needs := code(l.Deps)
		if len(l.StaticDeps) > 0 {
			needs += " (static: " + code(l.StaticDeps) + ")"
		}
		p("| `@rules_gpu//cuda:%s` | %s | %s | %s | %s | `%s` | `%s` | %s |\n",
			l.Name, l.Title, code(l.Static), code(shared), needs, l.Header, l.Redist, l.Debian)
	}
	return b.Flush()
}
