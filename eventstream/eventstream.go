// Package eventstream reads and writes the application/vnd.amazon.eventstream
// framing that Smithy event streams use over HTTP: each message is a
// prelude (total length, headers length, CRC32 of those 8 bytes), typed
// headers, a payload and a CRC32 of everything before it, all big-endian.
//
// The Decoder reads one message at a time from an io.Reader and holds at
// most one message in memory; every length is checked against its bound
// before anything is allocated, so a declared 2 GB message is refused after
// reading its 12-byte prelude.
package eventstream

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"time"
	"unicode/utf8"
)

// Framing sizes and bounds.
const (
	preludeLen = 12 // total length, headers length, prelude CRC
	// MinMessageLen is the size of a message without headers or payload.
	MinMessageLen = preludeLen + 4
	// DefaultMaxMessageLen bounds a whole message (16 MiB, as AWS does).
	DefaultMaxMessageLen = 16 << 20
	// DefaultMaxHeadersLen bounds the headers of a message (128 KiB, as AWS does).
	DefaultMaxHeadersLen = 128 << 10
	// DefaultMaxHeaders bounds the number of headers of a message.
	DefaultMaxHeaders = 1000
	maxNameLen        = 255
	maxValueLen       = 1<<15 - 1 // byte array and string values
)

// Type is a header value's type, as the framing numbers it.
type Type uint8

// Header value types.
const (
	BoolTrue  Type = 0
	BoolFalse Type = 1
	Byte      Type = 2
	Short     Type = 3
	Int       Type = 4
	Long      Type = 5
	Bytes     Type = 6
	String    Type = 7
	Timestamp Type = 8
	UUID      Type = 9
)

var typeNames = [...]string{"boolean", "boolean", "byte", "short", "integer", "long", "bytes", "string", "timestamp", "uuid"}

func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("type %d", uint8(t))
}

// Value is a typed header value. Bool is set for BoolTrue and BoolFalse;
// Int for Byte, Short, Int, Long and Timestamp (milliseconds since the
// epoch); Bytes for Bytes, String and UUID (16 bytes).
type Value struct {
	Type  Type
	Int   int64
	Bytes []byte
}

// BoolValue returns a boolean header value.
func BoolValue(b bool) Value {
	if b {
		return Value{Type: BoolTrue}
	}
	return Value{Type: BoolFalse}
}

// StringValue returns a string header value.
func StringValue(s string) Value { return Value{Type: String, Bytes: []byte(s)} }

// TimeValue returns a timestamp header value (millisecond precision).
func TimeValue(t time.Time) Value { return Value{Type: Timestamp, Int: t.UnixMilli()} }

// Bool reports the value of a boolean header.
func (v Value) Bool() bool { return v.Type == BoolTrue }

// Str returns a string header's text ("" for other types).
func (v Value) Str() string {
	if v.Type != String {
		return ""
	}
	return string(v.Bytes)
}

// Time returns a timestamp header's time in UTC.
func (v Value) Time() time.Time { return time.UnixMilli(v.Int).UTC() }

// Header is one message header.
type Header struct {
	Name  string
	Value Value
}

// Message is one event-stream message.
type Message struct {
	Headers []Header
	Payload []byte
}

// Get returns the value of the first header called name.
func (m *Message) Get(name string) (Value, bool) {
	for _, h := range m.Headers {
		if h.Name == name {
			return h.Value, true
		}
	}
	return Value{}, false
}

// Error is a framing error: the stream is not a valid event stream at
// Offset (the byte offset of the message in the stream).
type Error struct {
	Offset int64
	Reason string
	Err    error // io.ErrUnexpectedEOF for a truncated message, else nil
}

func (e *Error) Error() string {
	return fmt.Sprintf("event stream: message at byte %d: %s", e.Offset, e.Reason)
}

func (e *Error) Unwrap() error { return e.Err }

// Limits bound what a Decoder accepts; zero fields take the defaults.
type Limits struct {
	MaxMessageLen int // whole message, prelude and CRCs included
	MaxHeadersLen int
	MaxHeaders    int
}

func (l Limits) withDefaults() Limits {
	if l.MaxMessageLen <= 0 {
		l.MaxMessageLen = DefaultMaxMessageLen
	}
	if l.MaxHeadersLen <= 0 {
		l.MaxHeadersLen = DefaultMaxHeadersLen
	}
	if l.MaxHeaders <= 0 {
		l.MaxHeaders = DefaultMaxHeaders
	}
	return l
}

// Decoder reads messages from a stream. It is not safe for concurrent use.
type Decoder struct {
	r      io.Reader
	lim    Limits
	offset int64
	buf    []byte
	err    error
}

// NewDecoder returns a Decoder reading r with the given limits.
func NewDecoder(r io.Reader, lim Limits) *Decoder {
	return &Decoder{r: r, lim: lim.withDefaults()}
}

// Next reads the next message. It returns io.EOF when the stream ends
// cleanly between messages, and an *Error for a malformed or truncated
// message; after an error every call returns the same error. The message
// owns its memory (nothing is reused by later calls).
func (d *Decoder) Next() (Message, error) {
	if d.err != nil {
		return Message{}, d.err
	}
	msg, n, err := d.next()
	d.offset += n
	if err != nil {
		d.err = err
	}
	return msg, err
}

func (d *Decoder) fail(reason string, args ...any) *Error {
	return &Error{Offset: d.offset, Reason: fmt.Sprintf(reason, args...)}
}

func (d *Decoder) next() (Message, int64, error) {
	var pre [preludeLen]byte
	n, err := io.ReadFull(d.r, pre[:])
	if err == io.EOF {
		return Message{}, 0, io.EOF
	}
	if err == io.ErrUnexpectedEOF {
		return Message{}, int64(n), &Error{Offset: d.offset, Reason: fmt.Sprintf("truncated: the stream ended %d bytes into the %d-byte prelude", n, preludeLen), Err: io.ErrUnexpectedEOF}
	}
	if err != nil {
		return Message{}, int64(n), fmt.Errorf("event stream: reading the message at byte %d: %w", d.offset, err)
	}
	total := binary.BigEndian.Uint32(pre[0:4])
	hlen := binary.BigEndian.Uint32(pre[4:8])
	if got, want := crc32.ChecksumIEEE(pre[:8]), binary.BigEndian.Uint32(pre[8:12]); got != want {
		return Message{}, preludeLen, d.fail("prelude CRC is %08x, the bytes give %08x", want, got)
	}
	if total < MinMessageLen {
		return Message{}, preludeLen, d.fail("declared length %d is below the minimum %d", total, MinMessageLen)
	}
	if uint64(total) > uint64(d.lim.MaxMessageLen) {
		return Message{}, preludeLen, d.fail("declared length %d is over the limit of %d bytes", total, d.lim.MaxMessageLen)
	}
	if uint64(hlen) > uint64(total)-MinMessageLen {
		return Message{}, preludeLen, d.fail("headers length %d does not fit in the message length %d", hlen, total)
	}
	if uint64(hlen) > uint64(d.lim.MaxHeadersLen) {
		return Message{}, preludeLen, d.fail("headers length %d is over the limit of %d bytes", hlen, d.lim.MaxHeadersLen)
	}
	if cap(d.buf) < int(total) {
		d.buf = make([]byte, total)
	}
	buf := d.buf[:total]
	copy(buf, pre[:])
	n, err = io.ReadFull(d.r, buf[preludeLen:])
	read := int64(preludeLen + n)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return Message{}, read, &Error{Offset: d.offset, Reason: fmt.Sprintf("truncated: the stream ended after %d of the message's %d bytes", read, total), Err: io.ErrUnexpectedEOF}
	}
	if err != nil {
		return Message{}, read, fmt.Errorf("event stream: reading the message at byte %d: %w", d.offset, err)
	}
	body := buf[:total-4]
	if got, want := crc32.ChecksumIEEE(body), binary.BigEndian.Uint32(buf[total-4:]); got != want {
		return Message{}, read, d.fail("message CRC is %08x, the bytes give %08x", want, got)
	}
	msg, err := d.parse(buf[preludeLen:preludeLen+hlen], buf[preludeLen+hlen:total-4])
	return msg, read, err
}

// parse reads headers and copies the payload out of the reused buffer.
func (d *Decoder) parse(hdr, payload []byte) (Message, error) {
	// A header takes at least 3 bytes; most messages have a few.
	msg := Message{Headers: make([]Header, 0, min(8, len(hdr)/3))}
	// One allocation holds every header's name and value bytes.
	store := make([]byte, 0, len(hdr)+len(payload))
	for p := 0; p < len(hdr); {
		if len(msg.Headers) >= d.lim.MaxHeaders {
			return Message{}, d.fail("more than %d headers", d.lim.MaxHeaders)
		}
		nl := int(hdr[p])
		p++
		if nl == 0 {
			return Message{}, d.fail("header %d has an empty name", len(msg.Headers))
		}
		if p+nl+1 > len(hdr) {
			return Message{}, d.fail("header %d runs past the headers' end", len(msg.Headers))
		}
		name := hdr[p : p+nl]
		if !utf8.Valid(name) {
			return Message{}, d.fail("header %d: the name is not UTF-8", len(msg.Headers))
		}
		p += nl
		t := Type(hdr[p])
		p++
		v := Value{Type: t}
		fixed := 0
		switch t {
		case BoolTrue, BoolFalse:
		case Byte:
			fixed = 1
		case Short:
			fixed = 2
		case Int:
			fixed = 4
		case Long, Timestamp:
			fixed = 8
		case UUID:
			fixed = 16
		case Bytes, String:
			if p+2 > len(hdr) {
				return Message{}, d.fail("header %q runs past the headers' end", name)
			}
			l := int(binary.BigEndian.Uint16(hdr[p:]))
			p += 2
			if l > maxValueLen {
				return Message{}, d.fail("header %q: value length %d is over %d", name, l, maxValueLen)
			}
			fixed = l
		default:
			return Message{}, d.fail("header %q has an unknown value type %d", name, uint8(t))
		}
		if p+fixed > len(hdr) {
			return Message{}, d.fail("header %q runs past the headers' end", name)
		}
		raw := hdr[p : p+fixed]
		p += fixed
		switch t {
		case Byte:
			v.Int = int64(int8(raw[0]))
		case Short:
			v.Int = int64(int16(binary.BigEndian.Uint16(raw)))
		case Int:
			v.Int = int64(int32(binary.BigEndian.Uint32(raw)))
		case Long, Timestamp:
			v.Int = int64(binary.BigEndian.Uint64(raw))
		case String:
			if !utf8.Valid(raw) {
				return Message{}, d.fail("header %q: the string value is not UTF-8", name)
			}
			fallthrough
		case Bytes, UUID:
			start := len(store)
			store = append(store, raw...)
			v.Bytes = store[start:len(store):len(store)]
		}
		msg.Headers = append(msg.Headers, Header{Name: string(name), Value: v})
	}
	start := len(store)
	store = append(store, payload...)
	msg.Payload = store[start:]
	return msg, nil
}

// ErrTooLarge is returned by Append for a message over the framing's limits.
var ErrTooLarge = errors.New("event stream: message too large")

// Append appends the encoding of msg to dst.
func Append(dst []byte, msg Message) ([]byte, error) {
	hlen := 0
	for _, h := range msg.Headers {
		if len(h.Name) == 0 || len(h.Name) > maxNameLen {
			return dst, fmt.Errorf("event stream: header name %q: length must be 1 to %d bytes", h.Name, maxNameLen)
		}
		n, err := valueLen(h)
		if err != nil {
			return dst, err
		}
		hlen += 1 + len(h.Name) + 1 + n
	}
	total := MinMessageLen + hlen + len(msg.Payload)
	if total > DefaultMaxMessageLen || hlen > DefaultMaxHeadersLen {
		return dst, fmt.Errorf("%w: %d bytes with %d of headers", ErrTooLarge, total, hlen)
	}
	start := len(dst)
	dst = binary.BigEndian.AppendUint32(dst, uint32(total))
	dst = binary.BigEndian.AppendUint32(dst, uint32(hlen))
	dst = binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:start+8]))
	for _, h := range msg.Headers {
		dst = append(dst, byte(len(h.Name)))
		dst = append(dst, h.Name...)
		dst = append(dst, byte(h.Value.Type))
		switch h.Value.Type {
		case Byte:
			dst = append(dst, byte(int8(h.Value.Int)))
		case Short:
			dst = binary.BigEndian.AppendUint16(dst, uint16(int16(h.Value.Int)))
		case Int:
			dst = binary.BigEndian.AppendUint32(dst, uint32(int32(h.Value.Int)))
		case Long, Timestamp:
			dst = binary.BigEndian.AppendUint64(dst, uint64(h.Value.Int))
		case Bytes, String:
			dst = binary.BigEndian.AppendUint16(dst, uint16(len(h.Value.Bytes)))
			dst = append(dst, h.Value.Bytes...)
		case UUID:
			dst = append(dst, h.Value.Bytes...)
		}
	}
	dst = append(dst, msg.Payload...)
	return binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:])), nil
}

func valueLen(h Header) (int, error) {
	switch h.Value.Type {
	case BoolTrue, BoolFalse:
		return 0, nil
	case Byte:
		return 1, nil
	case Short:
		return 2, nil
	case Int:
		return 4, nil
	case Long, Timestamp:
		return 8, nil
	case Bytes, String:
		if len(h.Value.Bytes) > maxValueLen {
			return 0, fmt.Errorf("event stream: header %q: value of %d bytes is over %d", h.Name, len(h.Value.Bytes), maxValueLen)
		}
		return 2 + len(h.Value.Bytes), nil
	case UUID:
		if len(h.Value.Bytes) != 16 {
			return 0, fmt.Errorf("event stream: header %q: a UUID is 16 bytes, not %d", h.Name, len(h.Value.Bytes))
		}
		return 16, nil
	}
	return 0, fmt.Errorf("event stream: header %q: unknown value type %d", h.Name, uint8(h.Value.Type))
}

// Encoder writes messages to a stream.
type Encoder struct {
	w   io.Writer
	buf []byte
}

// NewEncoder returns an Encoder writing to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// Encode writes one message.
func (e *Encoder) Encode(msg Message) error {
	b, err := Append(e.buf[:0], msg)
	if err != nil {
		return err
	}
	e.buf = b
	if _, err := e.w.Write(b); err != nil {
		return fmt.Errorf("event stream: writing a message: %w", err)
	}
	return nil
}
