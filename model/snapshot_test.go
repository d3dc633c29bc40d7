package model

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// snapshotModels are models of every kind: IDL with mixins, resources and
// apply, and real AWS JSON ASTs (endpoint rules, waiters, bundled traits).
func snapshotModels(t testing.TB) []string {
	aws := shareddata.Path(t, "models", "aws")
	return []string{"../examples/todo", "../examples/httpbin", "../testing/servers/kvserver/kv.smithy",
		filepath.Join(aws, "dynamodb.json"), filepath.Join(aws, "sqs.json"), filepath.Join(aws, "lambda.json"),
		shareddata.Path(t, "models", "aws-large", "s3.json")}
}

// loadUncached loads paths without the model cache: a model the test may
// change.
func loadUncached(paths ...string) (*Model, error) {
	l := NewLoader()
	l.SetCache(CacheOff)
	for _, p := range paths {
		if err := l.AddPath(p); err != nil {
			return nil, err
		}
	}
	m, _, err := l.Load(context.Background())
	return m, err
}

// withoutPos is n without the source offsets, which snapshots leave out;
// a copy, as n may be shared (the prelude's, another test's).
func withoutPos(n Node) Node {
	n.pos = 0
	if n.list != nil {
		list := make([]Node, len(n.list))
		for i := range n.list {
			list[i] = withoutPos(n.list[i])
		}
		n.list = list
	}
	return n
}

// clearShapePos gives s, a shallow copy, its own traits, members and own
// definition without source offsets.
func clearShapePos(s *Shape) {
	traits := func(ts Traits) Traits {
		out := append(Traits(nil), ts...)
		for i := range out {
			out[i].Value = withoutPos(out[i].Value)
		}
		return out
	}
	s.Traits = traits(s.Traits)
	if s.Members != nil {
		members := make([]*Member, len(s.Members))
		for i, m := range s.Members {
			c := *m
			c.Traits = traits(m.Traits)
			members[i] = &c
		}
		s.Members = members
	}
	if s.local != nil {
		local := *s.local
		clearShapePos(&local)
		s.local = &local
	}
}

// TestSnapshotRoundTrip: a model read back from its snapshot is the model
// (every shape field, the own definitions the JSON AST writer uses, the
// metadata), writes the same JSON AST and the same snapshot again.
func TestSnapshotRoundTrip(t *testing.T) {
	for _, path := range snapshotModels(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			m, err := loadUncached(path)
			if err != nil {
				t.Fatal(err)
			}
			data := m.MarshalSnapshot()
			got, err := UnmarshalSnapshot("x.scmodel", data)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.MarshalAST(), m.MarshalAST()) {
				t.Fatal("the JSON AST of the snapshot differs")
			}
			if !bytes.Equal(got.MarshalSnapshot(), data) {
				t.Fatal("the snapshot of the snapshot differs")
			}
			checkSameModel(t, got, m)
		})
	}
}

// checkSameModel fails unless got, read from a snapshot, is want (every
// shape field, the own definitions the JSON AST writer uses, the metadata,
// the services); want's nodes may have source offsets.
func checkSameModel(t *testing.T, got, want *Model) {
	t.Helper()
	if !reflect.DeepEqual(got.metadata, withoutPos(want.metadata)) || got.version != want.version || len(got.shapes) != len(want.shapes) {
		t.Fatal("metadata, version or shape count differ")
	}
	for id, s := range want.shapes {
		c := *s
		c.local = nil
		clearShapePos(&c)
		g := *got.shapes[id]
		if (g.local == nil) != (s.local == nil) {
			t.Fatalf("%s: own definition kept %v, want %v", id, g.local != nil, s.local != nil)
		}
		g.local = nil
		if !reflect.DeepEqual(&g, &c) {
			t.Fatalf("%s differs:\n got %+v\nwant %+v", id, g, c)
		}
	}
	for _, sid := range want.Services() {
		ws, _ := want.Service(sid)
		svc, err := got.Service(sid)
		if err != nil || len(svc.Operations) != len(ws.Operations) {
			t.Fatalf("service %s: %v", sid, err)
		}
	}
}

// TestSnapshotLoadPath: a snapshot file named to the loader loads alone, in
// a directory walk it is not a model file, and with other files it is an error.
func TestSnapshotLoadPath(t *testing.T) {
	ctx := context.Background()
	m, err := LoadPaths(ctx, "../examples/todo")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "todo.scmodel")
	if err := os.WriteFile(path, m.MarshalSnapshot(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadPaths(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := got.Service("smithycurl.examples.todo#Todos"); err != nil {
		t.Fatal(err)
	}
	l := NewLoader()
	data, _ := os.ReadFile(path)
	l.AddSource("mem.scmodel", data)
	if _, _, err := l.Load(ctx); err != nil {
		t.Fatalf("AddSource: %v", err)
	}
	_, err = LoadPaths(ctx, path, "../examples/httpbin")
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "cannot be loaded with other model files") {
		t.Fatalf("snapshot with other files: %v", err)
	}
}

// TestSnapshotDamaged: every truncation, a changed byte anywhere, another
// format version and a payload that passes its checksum but is not one this
// version wrote are errors naming the file, never a crash.
// TestSnapshotChecksum: the header's checksum is the IEEE CRC-32 of the
// payload (CRC-32C cost every process reading a snapshot 0.4 ms of tables).
func TestSnapshotChecksum(t *testing.T) {
	m, err := LoadPaths(context.Background(), "../examples/todo")
	if err != nil {
		t.Fatal(err)
	}
	data := m.MarshalSnapshot()
	sum := binary.LittleEndian.Uint32(data[len(snapshotMagic)+4:])
	if want := crc32.ChecksumIEEE(data[snapshotHeaderSize:]); sum != want {
		t.Fatalf("checksum %#x, want the CRC-32 %#x", sum, want)
	}
	if got := checksum(data[snapshotHeaderSize:]); got != sum {
		t.Fatalf("checksum() %#x, header %#x", got, sum)
	}
}

func TestSnapshotDamaged(t *testing.T) {
	ctx := context.Background()
	m, err := LoadPaths(ctx, "../examples/todo")
	if err != nil {
		t.Fatal(err)
	}
	good := m.MarshalSnapshot()
	dir := t.TempDir()
	path := filepath.Join(dir, "todo.scmodel")
	check := func(what string, data []byte, want string) {
		t.Helper()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadPaths(ctx, path)
		var le *LoadError
		if !errors.As(err, &le) || le.Events[0].Loc.File != path || !strings.Contains(err.Error(), want) ||
			!strings.Contains(err.Error(), "smithycurl compile") {
			t.Fatalf("%s: got %v, want an error at %s with %q", what, err, path, want)
		}
	}
	for _, n := range []int{len(snapshotMagic), snapshotHeaderSize - 1, snapshotHeaderSize, len(good) / 2, len(good) - 1} {
		check("truncated", good[:n], "")
	}
	for i := snapshotHeaderSize; i < len(good); i += 97 {
		bad := bytes.Clone(good)
		bad[i] ^= 0x40
		check("byte changed", bad, "checksum mismatch")
	}
	bad := bytes.Clone(good)
	binary.LittleEndian.PutUint32(bad[len(snapshotMagic):], SnapshotVersion+1)
	check("other version", bad, fmt.Sprintf("format version %d", SnapshotVersion+1))
	// Version 1 (a CRC-32C checksum) is another version.
	binary.LittleEndian.PutUint32(bad[len(snapshotMagic):], 1)
	binary.LittleEndian.PutUint32(bad[len(snapshotMagic)+4:], crc32.Checksum(good[snapshotHeaderSize:], crc32.MakeTable(crc32.Castagnoli)))
	check("version 1", bad, "format version 1")
	// A payload with a valid checksum that this version did not write: a
	// byte cut out leaves the decoder with short or shifted data. (Cut out
	// of a string, it may still read as a model.)
	payload := good[snapshotHeaderSize:]
	failed := 0
	for i := 0; i < len(payload); i += 53 {
		p := append(bytes.Clone(payload[:i]), payload[i+1:]...)
		if _, err := UnmarshalSnapshot(path, withPayload(p)); err != nil {
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "compile the model again") {
				t.Fatalf("byte %d removed: %v", i, err)
			}
			failed++
		}
	}
	if failed == 0 {
		t.Fatal("no payload with a byte removed was refused")
	}
}

// smallSnapshot writes the shapes of m outside the prelude, the shapes they
// refer to and smithy.api#Unit.
func smallSnapshot(m *Model) []byte {
	keep := map[ShapeID]*Shape{UnitID: m.shapes[UnitID]}
	var add func(id ShapeID)
	add = func(id ShapeID) {
		s, ok := m.shapes[id]
		if !ok || keep[id] != nil {
			return
		}
		keep[id] = s
		for _, mem := range s.Members {
			add(mem.Target)
		}
		for _, ids := range [][]ShapeID{{s.Input, s.Output}, s.Errors, s.Operations, s.Resources, s.Mixins} {
			for _, r := range ids {
				add(r)
			}
		}
	}
	for id := range m.shapes {
		if id.Namespace() != PreludeNamespace && !m.shapes[id].bundled {
			add(id)
		}
	}
	return (&Model{shapes: keep, version: m.version, metadata: m.metadata}).MarshalSnapshot()
}

// withPayload returns a snapshot of payload p with a valid header.
func withPayload(p []byte) []byte {
	out := []byte(snapshotMagic)
	out = binary.LittleEndian.AppendUint32(out, SnapshotVersion)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(p))
	out = binary.LittleEndian.AppendUint64(out, uint64(len(p)))
	return append(out, p...)
}

// FuzzSnapshot feeds payloads with valid headers and checksums to the
// snapshot reader: it returns a model or an error, never panics, and a model
// it returns can be indexed and written.
func FuzzSnapshot(f *testing.F) {
	// Small seeds (the engine minimizes every new input: large ones crawl):
	// the shapes of small models and the shapes they refer to, not the
	// whole prelude.
	for _, src := range []string{
		"$version: \"2\"\nnamespace a.b\nuse aws.protocols#restJson1\n@restJson1\nservice S { operations: [Op] }\n@http(method: \"POST\", uri: \"/x/{id}\")\noperation Op { input := { @required @httpLabel id: String, n: Integer, l: L } output := { m: M } }\nlist L { member: Timestamp }\nmap M { key: String, value: Blob }\n",
		"$version: \"2\"\nnamespace a.b\n@mixin structure Base { x: String }\nstructure S with [Base] { y: U }\nunion U { a: Boolean, b: E }\nenum E {\n    A\n    B = \"b\"\n}\nintEnum I {\n    ONE = 1\n}\n",
	} {
		l := NewLoader()
		l.AddSource("seed.smithy", []byte(src))
		m, _, err := l.Load(context.Background())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(smallSnapshot(m)[snapshotHeaderSize:])
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		m, err := UnmarshalSnapshot("fuzz.scmodel", withPayload(payload))
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.scmodel") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		m.MarshalAST()
		for _, id := range m.Services() {
			if svc, err := m.Service(id); err == nil {
				for _, op := range svc.Operations {
					for _, mem := range op.Input.Members {
						m.Target(mem)
					}
				}
			}
		}
	})
}

// TestSnapshotMutations: payloads of a real snapshot with random bytes
// changed, inserted or cut, behind a valid header and checksum, read back as
// a model or an error naming the file, never a panic (FuzzSnapshot explores
// further).
func TestSnapshotMutations(t *testing.T) {
	m, err := LoadPaths(context.Background(), "../examples/httpbin")
	if err != nil {
		t.Fatal(err)
	}
	good := m.MarshalSnapshot()[snapshotHeaderSize:]
	rng := rand.New(rand.NewSource(7))
	for i := range 1000 {
		p := bytes.Clone(good)
		for range 1 + rng.Intn(4) {
			at := rng.Intn(len(p))
			switch rng.Intn(3) {
			case 0:
				p[at] = byte(rng.Intn(256))
			case 1:
				p = append(p[:at:at], append([]byte{byte(rng.Intn(256))}, p[at:]...)...)
			default:
				p = append(p[:at:at], p[at+1:]...)
			}
		}
		got, err := UnmarshalSnapshot("m.scmodel", withPayload(p))
		if err != nil {
			if !strings.Contains(err.Error(), "model snapshot m.scmodel: ") {
				t.Fatalf("mutation %d: %v", i, err)
			}
			continue
		}
		got.MarshalAST()
		for _, id := range got.Services() {
			got.Service(id)
		}
	}
}
