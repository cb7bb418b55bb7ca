package compile

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
)

// The ELF file types of cubins: ptxas -c (nvcc's relocatable device code) writes relocatable ones,
// which only nvlink takes; ptxas and nvlink write executable ones, which the driver loads.
const (
	elfRelocatable = 1
	elfExecutable  = 2
)

// DeviceLink links the relocatable cubins of a module's sources for job.Chip into one cubin at
// job.Out with nvlink: nvcc's relocatable device code (each source compiled with CUDA.RDC and
// CompilerNVCC: `ptxas -c`'s cubin), whose __device__ functions and variables one source defines
// and another uses. Each input must be a relocatable cubin for job.Chip, checked before nvlink
// runs; a __device__ function or variable that no input defines is named with the fix. job.Origin
// names the sources in messages (default: the cubins).
func (t Tools) DeviceLink(ctx context.Context, job Job, cubins []string) error {
	job.missing = t.Missing
	job.Format = FormatBin
	if job.Origin == "" {
		job.Origin = strings.Join(cubins, ", ")
	}
	if len(cubins) == 0 {
		return job.fail(nil, "", errors.New("no relocatable cubin to link"))
	}
	if job.Chip.Virtual {
		return job.fail(nil, "", fmt.Errorf("%s is a virtual architecture: a device link makes a cubin, for a real chip (sm_...)", job.Chip))
	}
	for _, c := range cubins {
		if err := relocatableFor(c, job); err != nil {
			return job.fail(nil, "", err)
		}
	}
	if !Found(t.NVLink) {
		return job.fail(nil, "", errors.New(job.missingTool("nvlink", t.NVLink)))
	}
	tmp, err := job.workDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	out := work(tmp).file("linked.cubin")
	args := append([]string{t.NVLink, "-arch=" + job.Chip.String(), "-o", out}, cubins...)
	output, err := job.run(ctx, "nvlink", args...)
	var e *Error
	if err != nil && errors.As(err, &e) {
		output = e.Stderr
	}
	if m := undefinedReference.FindStringSubmatch(output); m != nil {
		fix := "define it in one of the sources (an extern declaration is not a definition), or add the source that defines it to them"
		msg := fmt.Errorf("nvlink: the device code uses the __device__ function or variable %q, which no source of this module defines; fix: %s", m[1], fix)
		if e != nil {
			e.Err = msg
			return e
		}
		return job.fail(args, output, msg)
	}
	if err != nil {
		return err
	}
	return finish(job, out)
}

// undefinedReference is nvlink's message for a symbol that no input defines:
// "nvlink error   : Undefined reference to '_Z5twicef' in 'a.cubin'".
var undefinedReference = regexp.MustCompile(`Undefined reference to '([^']+)'`)

// relocatableFor says why the file at path is not a relocatable cubin for job.Chip.
func relocatableFor(path string, job Job) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	img, err := artifact.CubinImage(data)
	if err != nil {
		return fmt.Errorf("%s: %w; a device link takes the relocatable cubins of nvcc's relocatable device code (gpubuild compile --compiler nvcc --rdc)", path, err)
	}
	if typ := binary.LittleEndian.Uint16(data[0x10:]); typ != elfRelocatable {
		return fmt.Errorf("%s is a cubin linked already (ELF type %d, not relocatable): give the relocatable cubins of the sources (gpubuild compile --compiler nvcc --rdc), or load this one as it is", path, typ)
	}
	if int(img.Arch) != job.Chip.Number() {
		return fmt.Errorf("%s is for sm_%d, not %s: link the cubins of one chip together", path, img.Arch, job.Chip)
	}
	return nil
}
