// Command reapi2 lets Bazel 7 talk to a Remote Execution API server that no longer advertises
// version 2.0: a gRPC proxy that forwards every call to the server unchanged, except that in the
// server's capabilities (Capabilities.GetCapabilities) the lowest API version it supports becomes
// 2.0.
//
// Bazel 7.7.1 speaks REAPI 2.0 and refuses a server whose capabilities say 2.1 or newer ("The
// client supported API versions, 2.0 to 2.0, is not supported by the server, 2.1 to 2.12"), as
// buildbox-casd's do. Versions 2.1 to 2.12 add fields and keep 2.0's (a 2.0 Command's
// output_files and output_directories are still honoured), so nothing else needs translating; the
// tests' remote executions are the check that this holds for the actions rules_gpu declares.
//
//	reapi2 -listen 127.0.0.1:PORT -upstream 127.0.0.1:PORT2
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protowire"
)

// getCapabilities is the one method whose answer is changed.
const getCapabilities = "/build.bazel.remote.execution.v2.Capabilities/GetCapabilities"

// ServerCapabilities' fields that say which API versions the server supports.
const (
	fieldDeprecatedAPIVersion = 3
	fieldLowAPIVersion        = 4
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "the address to serve on")
	upstream := flag.String("upstream", "", "the REAPI server's address (host:port)")
	flag.Parse()
	if *upstream == "" {
		fmt.Fprintln(os.Stderr, "usage: reapi2 -listen HOST:PORT -upstream HOST:PORT")
		os.Exit(2)
	}
	if err := serve(*listen, *upstream); err != nil {
		fmt.Fprintln(os.Stderr, "reapi2:", err)
		os.Exit(1)
	}
}

func serve(listen, upstream string) error {
	conn, err := grpc.Dial(upstream, grpc.WithInsecure(), grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{}),
		grpc.MaxCallRecvMsgSize(1<<30), grpc.MaxCallSendMsgSize(1<<30)))
	if err != nil {
		return fmt.Errorf("dialing %s: %w", upstream, err)
	}
	defer conn.Close()
	l, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	log.Printf("reapi2: serving on %s, forwarding to %s", l.Addr(), upstream)
	s := grpc.NewServer(grpc.CustomCodec(rawCodec{}), grpc.UnknownServiceHandler(forward(conn)),
		grpc.MaxRecvMsgSize(1<<30), grpc.MaxSendMsgSize(1<<30))
	return s.Serve(l)
}

// forward proxies one call, of any kind (unary or streaming), to conn.
func forward(conn *grpc.ClientConn) grpc.StreamHandler {
	return func(_ interface{}, in grpc.ServerStream) error {
		method, ok := grpc.MethodFromServerStream(in)
		if !ok {
			return errors.New("no method name")
		}
		md, _ := metadata.FromIncomingContext(in.Context())
		ctx, cancel := context.WithCancel(metadata.NewOutgoingContext(in.Context(), md.Copy()))
		defer cancel()
		out, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, method)
		if err != nil {
			return err
		}
		// Requests: client to server, until the client closes its side.
		go func() {
			for {
				f := new(frame)
				if err := in.RecvMsg(f); err != nil {
					out.CloseSend()
					return
				}
				if err := out.SendMsg(f); err != nil {
					return
				}
			}
		}()
		// Responses: server to client; the server's status ends the call.
		for first := true; ; first = false {
			f := new(frame)
			err := out.RecvMsg(f)
			if first {
				if h, herr := out.Header(); herr == nil {
					in.SendHeader(h)
				}
			}
			if err == io.EOF {
				in.SetTrailer(out.Trailer())
				return nil
			}
			if err != nil {
				in.SetTrailer(out.Trailer())
				return err // a status error: its code and message reach the client as they are
			}
			if method == getCapabilities {
				if f.b, err = lowestVersion20(f.b); err != nil {
					return err
				}
			}
			if err := in.SendMsg(f); err != nil {
				return err
			}
		}
	}
}

// lowestVersion20 rewrites a ServerCapabilities message: its low_api_version becomes 2.0 and its
// deprecated_api_version goes; every other field stays as it is.
func lowestVersion20(b []byte) ([]byte, error) {
	var out []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, fmt.Errorf("capabilities: %w", protowire.ParseError(n))
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, fmt.Errorf("capabilities: %w", protowire.ParseError(m))
		}
		if num != fieldDeprecatedAPIVersion && num != fieldLowAPIVersion {
			out = append(out, b[:n+m]...)
		}
		b = b[n+m:]
	}
	semver := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 2) // major 2, minor 0
	out = protowire.AppendTag(out, fieldLowAPIVersion, protowire.BytesType)
	return protowire.AppendBytes(out, semver), nil
}

// frame is one message, as bytes: the proxy never decodes what it forwards.
type frame struct{ b []byte }

// rawCodec passes frames through as they are.
type rawCodec struct{}

func (rawCodec) Marshal(v interface{}) ([]byte, error) { return v.(*frame).b, nil }
func (rawCodec) Unmarshal(data []byte, v interface{}) error {
	v.(*frame).b = append([]byte(nil), data...)
	return nil
}
func (rawCodec) Name() string   { return "proto" }
func (rawCodec) String() string { return "proto" }
