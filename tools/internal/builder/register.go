package builder

import (
	"bytes"
	"context"
	"os"

	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/host"
)

const registerUsage = `usage: gpubuild register --fatbin FATBIN -o OUT.c OBJECT...
  Writes the C source that registers FATBIN with the CUDA runtime for the host objects of CUDA C++
  sources compiled as relocatable device code (gpubuild host --rdc). FATBIN is the device code of
  all those sources, linked for each chip (gpubuild compile --rdc of each source, gpubuild compile
  of their bitcode together, gpubuild link). Compile OUT.c (as C or C++) and link it into the
  program with the objects and the CUDA runtime (libcudart). OUT "-" is standard output.`

// runRegister writes the CUDA runtime registration of a device-linked fatbin.
func runRegister(_ context.Context, env cmdline.Env, args []string) error {
	var o cmdline.Common
	c := env.Command("register", registerUsage)
	o.Register(c, "the C source `OUT` to write; - for standard output")
	fatbin := c.String("fatbin", "", "the device-linked fatbin (`FATBIN`) to register")
	objects, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	switch {
	case len(objects) == 0:
		return c.UsageError("no host objects: give the objects of gpubuild host --rdc")
	case *fatbin == "":
		return c.UsageError("no fatbin: give --fatbin FATBIN")
	case o.Out == "":
		return c.UsageError("no output: give -o OUT.c (- for standard output)")
	}
	label := o.Target
	if label == "" {
		label = *fatbin
	}
	if err := o.CheckOut(append(objects, *fatbin)...); err != nil {
		return err
	}
	data, err := os.ReadFile(*fatbin)
	if err != nil {
		return o.Wrap(err)
	}
	var b bytes.Buffer
	if err := host.Register(&b, label, data, objects); err != nil {
		return o.Errorf("%s: %w", *fatbin, err)
	}
	return o.Write(env.Stdout, b.Bytes())
}
