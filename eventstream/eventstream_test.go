package eventstream

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"strings"
	"testing"
	"time"
)

// A message of the restJson1 event-stream tests (MultipleHeaderOutput).
const multipleHeaders = "AAAAbwAAAF+FlHOQDTptZXNzYWdlLXR5cGUHAAVldmVudAs6ZXZlbnQtdHlwZQcAB2hlYWRlcnMNYm9vbGVhbkhlYWRlcgAMc3RyaW5nSGVhZGVyBwADZm9vCmJsb2JIZWFkZXIGAANiYXIDXbo7"

func mustB64(t testing.TB, s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeKnownMessage(t *testing.T) {
	raw := mustB64(t, multipleHeaders)
	d := NewDecoder(bytes.NewReader(raw), Limits{})
	msg, err := d.Next()
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := msg.Get(":message-type"); v.Str() != "event" {
		t.Errorf(":message-type = %q", v.Str())
	}
	if v, _ := msg.Get("booleanHeader"); v.Type != BoolTrue || !v.Bool() {
		t.Errorf("booleanHeader = %+v", v)
	}
	if v, _ := msg.Get("blobHeader"); v.Type != Bytes || string(v.Bytes) != "bar" {
		t.Errorf("blobHeader = %+v", v)
	}
	if len(msg.Payload) != 0 {
		t.Errorf("payload %q", msg.Payload)
	}
	if _, err := d.Next(); err != io.EOF {
		t.Errorf("after the last message: %v, want io.EOF", err)
	}
	// The encoder gives the same bytes back.
	again, err := Append(nil, msg)
	if err != nil || !bytes.Equal(again, raw) {
		t.Errorf("re-encoded %x (%v), want %x", again, err, raw)
	}
}

func TestRoundTripEveryType(t *testing.T) {
	ts := time.Date(2024, 10, 31, 14, 15, 14, 0, time.UTC)
	in := Message{Headers: []Header{
		{"t", BoolValue(true)}, {"f", BoolValue(false)},
		{"b", Value{Type: Byte, Int: -2}}, {"s", Value{Type: Short, Int: -300}},
		{"i", Value{Type: Int, Int: -70000}}, {"l", Value{Type: Long, Int: -1 << 40}},
		{"y", Value{Type: Bytes, Bytes: []byte{0, 1, 2}}}, {"str", StringValue("héllo")},
		{"ts", TimeValue(ts)}, {"u", Value{Type: UUID, Bytes: bytes.Repeat([]byte{7}, 16)}},
	}, Payload: []byte(`{"a":1}`)}
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	for i := 0; i < 3; i++ {
		if err := enc.Encode(in); err != nil {
			t.Fatal(err)
		}
	}
	d := NewDecoder(&buf, Limits{})
	for i := 0; i < 3; i++ {
		out, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Headers) != len(in.Headers) || string(out.Payload) != string(in.Payload) {
			t.Fatalf("got %+v", out)
		}
		for j, h := range in.Headers {
			g := out.Headers[j]
			if g.Name != h.Name || g.Value.Type != h.Value.Type || g.Value.Int != h.Value.Int || !bytes.Equal(g.Value.Bytes, h.Value.Bytes) {
				t.Errorf("header %d: got %+v, want %+v", j, g, h)
			}
		}
		if v, _ := out.Get("ts"); !v.Time().Equal(ts) {
			t.Errorf("ts = %v", v.Time())
		}
	}
	if _, err := d.Next(); err != io.EOF {
		t.Errorf("end: %v", err)
	}
}

// prelude writes a prelude with a correct CRC.
func prelude(total, hlen uint32) []byte {
	b := binary.BigEndian.AppendUint32(nil, total)
	b = binary.BigEndian.AppendUint32(b, hlen)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

func TestBadInput(t *testing.T) {
	good := mustB64(t, multipleHeaders)
	badPrelude := append([]byte{}, good...)
	badPrelude[9] ^= 1
	badMessage := append([]byte{}, good...)
	badMessage[40] ^= 1
	// 10,000 one-byte-named boolean headers: 30,000 bytes of headers.
	var many []Header
	for i := 0; i < 10000; i++ {
		many = append(many, Header{"h", BoolValue(true)})
	}
	manyHeaders, err := Append(nil, Message{Headers: many})
	if err != nil {
		t.Fatal(err)
	}
	unknownType, _ := Append(nil, Message{Headers: []Header{{"x", Value{Type: String, Bytes: []byte("a")}}}})
	unknownType[12+2] = 42
	fixCRC := func(b []byte) []byte {
		n := len(b)
		binary.BigEndian.PutUint32(b[n-4:], crc32.ChecksumIEEE(b[:n-4]))
		return b
	}
	unknownType = fixCRC(unknownType)

	cases := []struct {
		name, want string
		in         []byte
		truncated  bool
	}{
		{"prelude CRC", "prelude CRC", badPrelude, false},
		{"message CRC", "message CRC", badMessage, false},
		{"2 GB declared", "over the limit", append(prelude(2<<30, 0), make([]byte, 64)...), false},
		{"below minimum", "below the minimum", prelude(8, 0), false},
		{"headers past end", "does not fit", prelude(20, 10), false},
		{"10,000 headers", "more than 1000 headers", manyHeaders, false},
		{"unknown type", "unknown value type 42", unknownType, false},
		{"cut in the prelude", "truncated", good[:7], true},
		{"cut in the body", "truncated", good[:60], true},
		{"cut before the CRC", "truncated", good[:len(good)-1], true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := NewDecoder(bytes.NewReader(c.in), Limits{})
			_, err := d.Next()
			var fe *Error
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want an *Error with %q", err, c.want)
			}
			if errors.Is(err, io.ErrUnexpectedEOF) != c.truncated {
				t.Errorf("errors.Is(io.ErrUnexpectedEOF) = %v", !c.truncated)
			}
			if _, again := d.Next(); again != err {
				t.Errorf("second Next: %v, want the same error", again)
			}
		})
	}
}

// The decoder reads a 2 GB declaration without allocating for it: only the
// 12-byte prelude is read from the reader.
func TestHugeLengthReadsOnlyPrelude(t *testing.T) {
	r := &countingReader{r: bytes.NewReader(append(prelude(0x7fffffff, 0), make([]byte, 1<<16)...))}
	d := NewDecoder(r, Limits{})
	if _, err := d.Next(); err == nil {
		t.Fatal("no error")
	}
	if r.n != 12 {
		t.Errorf("read %d bytes, want 12", r.n)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestEncodeRefusesOversize(t *testing.T) {
	if _, err := Append(nil, Message{Payload: make([]byte, DefaultMaxMessageLen)}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("16 MiB payload: %v", err)
	}
	if _, err := Append(nil, Message{Headers: []Header{{strings.Repeat("n", 256), BoolValue(true)}}}); err == nil {
		t.Error("256-byte name accepted")
	}
	if _, err := Append(nil, Message{Headers: []Header{{"u", Value{Type: UUID, Bytes: []byte{1}}}}}); err == nil {
		t.Error("1-byte UUID accepted")
	}
}

func BenchmarkDecode(b *testing.B) {
	one, _ := Append(nil, Message{Headers: []Header{
		{":message-type", StringValue("event")}, {":event-type", StringValue("chunk")},
		{":content-type", StringValue("application/json")},
	}, Payload: bytes.Repeat([]byte("x"), 200)})
	stream := bytes.Repeat(one, 1000)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		d := NewDecoder(bytes.NewReader(stream), Limits{})
		for {
			if _, err := d.Next(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}
