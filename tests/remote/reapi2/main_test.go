package main

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// semver encodes build.bazel.semver.SemVer{major, minor}.
func semver(major, minor uint64) []byte {
	b := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), major)
	return protowire.AppendVarint(protowire.AppendTag(b, 2, protowire.VarintType), minor)
}

func field(b []byte, num protowire.Number, v []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
}

// fields decodes a message's length-delimited fields by number.
func fields(t *testing.T, b []byte) map[protowire.Number][]byte {
	t.Helper()
	m := map[protowire.Number][]byte{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || typ != protowire.BytesType {
			t.Fatalf("bad tag at %x", b)
		}
		v, k := protowire.ConsumeBytes(b[n:])
		if k < 0 {
			t.Fatalf("bad value at %x", b)
		}
		m[num] = v
		b = b[n+k:]
	}
	return m
}

// buildbox-casd's capabilities (2.1 to 2.12, deprecated 2.0) become 2.0 to 2.12; the cache and
// execution capabilities pass unchanged; a message that does not parse is an error.
func TestLowestVersion20(t *testing.T) {
	cache, exec := []byte{0x08, 0x01}, []byte{0x10, 0x01}
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"casd", field(field(field(field(field(nil, 1, cache), 2, exec), 3, semver(2, 0)), 4, semver(2, 1)), 5, semver(2, 12))},
		{"no low version", field(field(field(nil, 1, cache), 2, exec), 5, semver(2, 12))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := lowestVersion20(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			got := fields(t, out)
			want := map[protowire.Number][]byte{1: cache, 2: exec, 4: protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 2), 5: semver(2, 12)}
			if len(got) != len(want) {
				t.Errorf("fields %v, want %v", got, want)
			}
			for num, v := range want {
				if !bytes.Equal(got[num], v) {
					t.Errorf("field %d: %x, want %x", num, got[num], v)
				}
			}
		})
	}
	if _, err := lowestVersion20([]byte{0x0a, 0x05, 0x01}); err == nil {
		t.Error("a truncated message was accepted")
	}
}
