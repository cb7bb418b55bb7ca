package cmdline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// WorkerFlag is the argument with which Bazel starts a persistent worker.
const WorkerFlag = "--persistent_worker"

// WorkRequest and WorkResponse are Bazel's persistent worker messages in their JSON form
// (requires-worker-protocol: json): the fields a program reads and writes.
type WorkRequest struct {
	Arguments []string `json:"arguments"`
	RequestID int      `json:"requestId"`
}

// WorkResponse answers one WorkRequest.
type WorkResponse struct {
	ExitCode  int    `json:"exitCode"`
	Output    string `json:"output"`
	RequestID int    `json:"requestId"`
}

// IsWorker says whether a program was started as a persistent worker.
func IsWorker(args []string) bool { return slices.Contains(args, WorkerFlag) }

// Serve is the program as a Bazel persistent worker: startup is its command line (the action's
// arguments but its parameter file, and --persistent_worker), each request's arguments (the
// parameter file) follow them, and each request runs as one command of the program would, in this
// process, one after another, with the messages it would print as the response's output. It
// returns when Bazel closes the requests (0), or on a request it cannot read (1).
func (p Program) Serve(ctx context.Context, startup []string, requests io.Reader, responses, stderr io.Writer) int {
	base := slices.DeleteFunc(slices.Clone(startup), func(a string) bool { return a == WorkerFlag })
	dec := json.NewDecoder(requests)
	enc := json.NewEncoder(responses)
	for {
		var req WorkRequest
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return 0
			}
			fmt.Fprintf(stderr, "%s: persistent worker: reading a work request: %v\n", p.Name, err)
			return 1
		}
		var out bytes.Buffer
		code := p.Run(ctx, append(slices.Clone(base), req.Arguments...), &out, &out)
		if err := enc.Encode(WorkResponse{ExitCode: code, Output: out.String(), RequestID: req.RequestID}); err != nil {
			fmt.Fprintf(stderr, "%s: persistent worker: writing a work response: %v\n", p.Name, err)
			return 1
		}
	}
}
