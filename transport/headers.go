package transport

/*
#include "shim.h"
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"net/textproto"
	"strings"
	"unsafe"

	"github.com/smithycurl/smithycurl/wire"
)

// sentHeader is the header set as sent (request plus defaults), for Trace.
func (t *Curl) sentHeader(req *Request) wire.Header {
	out := req.Header.Clone()
	if out == nil {
		out = wire.Header{}
	}
	for _, h := range req.SecretHeaders {
		if out.Get(h) != "" {
			out.Set(h, "REDACTED")
		}
	}
	for k, vs := range t.cfg.DefaultHeader {
		ck := textproto.CanonicalMIMEHeaderKey(k)
		if !hasHeader(out, ck) {
			out[ck] = append([]string(nil), vs...)
		}
	}
	if out.Get("User-Agent") == "" {
		out.Set("User-Agent", t.cfg.UserAgent)
	}
	return out
}

// hasHeader reports whether h has name (canonical), in any letter case.
func hasHeader(h wire.Header, name string) bool {
	if h == nil {
		return false
	}
	if _, ok := h[name]; ok {
		return true
	}
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// appendHeader appends "k: v\0", or "k;\0" for an empty value (libcurl's
// way to send a header without a value).
func appendHeader(b []byte, k, v string) []byte {
	b = append(b, k...)
	if v == "" {
		return append(b, ';', 0)
	}
	b = append(b, ':', ' ')
	b = append(b, v...)
	return append(b, 0)
}

func validMethod(m string) error {
	if m != "" && !wire.IsToken(m) { // "": the default method
		return fmt.Errorf("invalid method %q", m)
	}
	return nil
}

func validName(k string) error {
	if k == "" {
		return errors.New("empty header name")
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c <= ' ' || c >= 0x7f || c == ':' {
			return fmt.Errorf("invalid header name %q", k)
		}
	}
	return nil
}

// validText refuses CR, LF and NUL in a header value. The error never shows
// the value: it may be a credential.
func validText(v string) error {
	if i := strings.IndexAny(v, "\r\n\x00"); i >= 0 {
		return fmt.Errorf("invalid header value: control character at byte %d", i)
	}
	return nil
}

// parseHeader parses the last header block libcurl delivered.
func parseHeader(p *C.char, n C.size_t) (wire.Header, []string) {
	if n == 0 {
		return make(wire.Header), nil
	}
	return parseHeaderBlock(C.GoStringN(p, C.int(n)))
}

// reparseHeader is parseHeader into hdr, an earlier response's header
// (nil: none), in place: when the block has the same names, each with as
// many values, all spelled canonically, without folding or bare CRs (the
// steady state of like calls), hdr's values are refreshed (a value that
// did not change is kept; the others share one new string of the block)
// and reparseHeader reports true. Otherwise hdr is untouched and the
// caller parses afresh.
func reparseHeader(hdr wire.Header, p *C.char, n C.size_t) bool {
	if hdr == nil || n == 0 {
		return false
	}
	return reparseHeaderBlock(hdr, unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n)))
}

// maxReparsed bounds the lines reparseHeaderBlock takes (more: parsed
// afresh).
const maxReparsed = 32

func reparseHeaderBlock(hdr wire.Header, b []byte) bool {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return false
	}
	var lines [maxReparsed]struct {
		k0, k1, v0, v1, nth int
		vs                  []string // hdr's values of the line's name
	}
	nl := 0
	names, lasts := 0, 0 // lines with a name's first value, with its last one
	for at := i + 1; at < len(b); {
		end := bytes.IndexByte(b[at:], '\n')
		next := len(b)
		if end >= 0 {
			end += at
			next = end + 1
		} else {
			end = len(b)
		}
		line := b[at:end]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if len(line) == 0 {
			break
		}
		colon := bytes.IndexByte(line, ':')
		if nl == maxReparsed || colon <= 0 || bytes.IndexByte(line, '\r') >= 0 || !canonicalName(line[:colon]) {
			return false // folding, a bare CR, junk, another spelling: afresh
		}
		v0, v1 := colon+1, len(line)
		for v0 < v1 && (line[v0] == ' ' || line[v0] == '\t') {
			v0++
		}
		for v1 > v0 && (line[v1-1] == ' ' || line[v1-1] == '\t') {
			v1--
		}
		l := &lines[nl]
		l.k0, l.k1, l.v0, l.v1 = at, at+colon, at+v0, at+v1
		for _, e := range lines[:nl] {
			if e.k1-e.k0 == colon && bytes.Equal(b[e.k0:e.k1], line[:colon]) {
				l.nth++
			}
		}
		vs, ok := hdr[string(line[:colon])]
		if !ok || l.nth >= len(vs) {
			return false // a name hdr lacks, or more values of it
		}
		l.vs = vs
		if l.nth == 0 {
			names++
		}
		if l.nth == len(vs)-1 {
			lasts++
		}
		nl++
		at = next
	}
	// The same names with as many values each: the block's names are
	// hdr's (each line's is in it, and as many distinct ones), and each
	// name's values run up to its last (nth counts them in order).
	if names != len(hdr) || lasts != len(hdr) {
		return false
	}
	var block string // made once, when a value changed
	for _, l := range lines[:nl] {
		if l.vs[l.nth] != string(b[l.v0:l.v1]) {
			if block == "" {
				block = string(b)
			}
			l.vs[l.nth] = block[l.v0:l.v1]
		}
	}
	return true
}

// canonicalName reports whether name is a header name in its canonical
// form (textproto.CanonicalMIMEHeaderKey's): letters, digits and '-',
// each letter upper case at the start and after a '-', else lower case.
func canonicalName(name []byte) bool {
	upper := true
	for _, c := range name {
		switch {
		case c >= 'A' && c <= 'Z':
			if !upper {
				return false
			}
		case c >= 'a' && c <= 'z':
			if upper {
				return false
			}
		case c >= '0' && c <= '9' || c == '-':
		default:
			return false
		}
		upper = c == '-'
	}
	return len(name) > 0
}

// parseHeaderBlock parses a response header block: the status line, then
// one header per line up to the first empty line. names are the names as
// they were spelled on the wire where that is not their canonical form
// (wire.Response.Names).
func parseHeaderBlock(s string) (hdr wire.Header, names []string) {
	// Skip the status line.
	i := strings.IndexByte(s, '\n')
	if i < 0 {
		return make(wire.Header), nil
	}
	s = s[i+1:]
	// One map sized for every line and one backing array for the values:
	// each name's first value is a one-element slice of it (capacity one,
	// so a second value of the same name moves that name to its own array).
	n := strings.Count(s, "\n") + 1
	hdr = make(wire.Header, n)
	vals := make([]string, 0, n)
	var last string
	for len(s) > 0 {
		var line string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			line, s = s, ""
		}
		line = strings.TrimSuffix(line, "\r")
		if strings.IndexByte(line, '\r') >= 0 {
			// A bare CR inside a line is replaced by a space (RFC 9112
			// 2.2): a value never carries a line break to the caller.
			line = strings.ReplaceAll(line, "\r", " ")
		}
		if line == "" {
			break
		}
		if (line[0] == ' ' || line[0] == '\t') && last != "" { // obsolete folding
			vs := hdr[last]
			vs[len(vs)-1] += " " + strings.TrimSpace(line)
			continue
		}
		i := strings.IndexByte(line, ':')
		if i <= 0 {
			continue
		}
		raw := strings.TrimRight(line[:i], " \t")
		k := textproto.CanonicalMIMEHeaderKey(raw)
		if k != raw {
			if names == nil {
				names = make([]string, 0, n)
			}
			names = append(names, raw)
		}
		v := strings.Trim(line[i+1:], " \t")
		if vs, ok := hdr[k]; ok {
			hdr[k] = append(vs, v)
		} else {
			vals = append(vals, v)
			hdr[k] = vals[len(vals)-1 : len(vals) : len(vals)]
		}
		last = k
	}
	return hdr, names
}
