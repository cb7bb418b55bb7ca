package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// workerFlag is the argument with which Bazel starts a persistent worker.
const workerFlag = "--persistent_worker"

// workRequest and workResponse are Bazel's persistent worker messages in their JSON form
// (requires-worker-protocol: json): the fields gpubuild reads and writes.
type workRequest struct {
	Arguments []string `json:"arguments"`
	RequestID int      `json:"requestId"`
}

type workResponse struct {
	ExitCode  int    `json:"exitCode"`
	Output    string `json:"output"`
	RequestID int    `json:"requestId"`
}

// isWorker says whether gpubuild was started as a persistent worker.
func isWorker(args []string) bool { return slices.Contains(args, workerFlag) }

// serve is gpubuild as a Bazel persistent worker: startup is its command line (the action's
// arguments but its parameter file, and --persistent_worker), each request's arguments (the
// parameter file) follow them, and each request runs as one gpubuild command would, in this
// process, one after another, with the messages it would print as the response's output. It
// returns when Bazel closes the requests (0), or on a request it cannot read (1).
func serve(ctx context.Context, startup []string, requests io.Reader, responses, stderr io.Writer) int {
	base := slices.DeleteFunc(slices.Clone(startup), func(a string) bool { return a == workerFlag })
	dec := json.NewDecoder(requests)
	enc := json.NewEncoder(responses)
	for {
		var req workRequest
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return 0
			}
			fmt.Fprintf(stderr, "gpubuild: persistent worker: reading a work request: %v\n", err)
			return 1
		}
		var out bytes.Buffer
		code := run(ctx, append(slices.Clone(base), req.Arguments...), &out, &out)
		if err := enc.Encode(workResponse{ExitCode: code, Output: out.String(), RequestID: req.RequestID}); err != nil {
			fmt.Fprintf(stderr, "gpubuild: persistent worker: writing a work response: %v\n", err)
			return 1
		}
	}
}
