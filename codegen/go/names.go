package gogen

import (
	"strconv"
	"strings"
	"unicode"
)

// initialisms are written in upper case in Go names (Go's naming
// conventions plus the usual AWS ones).
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ARN": true, "ASCII": true, "AWS": true, "CPU": true, "CSS": true,
	"DNS": true, "EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IP": true, "JSON": true, "QPS": true, "RAM": true, "RPC": true,
	"SLA": true, "SMTP": true, "SQL": true, "SSH": true, "SSL": true, "TCP": true, "TLS": true,
	"TTL": true, "UDP": true, "UI": true, "UID": true, "URI": true, "URL": true, "UTF8": true,
	"UUID": true, "VM": true, "XML": true, "XSRF": true, "XSS": true,
}

// words splits a Smithy identifier (or an enum value) into words: at
// underscores and other non-alphanumeric characters, where a lower-case
// letter or digit meets an upper-case one, and before the last capital of
// a run followed by a lower-case letter ("HTTPServer": HTTP, Server).
func words(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, string(rs[start:end]))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) || r > unicode.MaxASCII {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			flush(i)
			start = i
		case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}

// exportedName turns a Smithy name into an exported Go name with Go's
// initialisms: "queueUrl" -> "QueueURL", "type" -> "Type", "arn" -> "ARN".
func exportedName(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]))
		b.WriteString(w[1:])
	}
	name := b.String()
	if name == "" {
		return "X"
	}
	if name[0] >= '0' && name[0] <= '9' {
		return "V" + name
	}
	return name
}

// unexported lowers the first letter of an exported name (for helpers).
func unexported(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// namespace hands out collision-free names: the first to ask gets the
// name, later ones a numeric suffix.
type namespace map[string]bool

func (ns namespace) take(name string) string {
	if !ns[name] {
		ns[name] = true
		return name
	}
	for i := 2; ; i++ {
		n := name + strconv.Itoa(i)
		if !ns[n] {
			ns[n] = true
			return n
		}
	}
}

// enumConstName is the suffix of an enum constant: words in title case
// ("IN_PROGRESS" -> "InProgress"), initialisms upper case.
func enumConstName(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		if strings.ToUpper(w) == w {
			w = strings.ToLower(w)
		}
		b.WriteString(strings.ToUpper(w[:1]))
		b.WriteString(w[1:])
	}
	name := b.String()
	if name == "" {
		return "Value"
	}
	if name[0] >= '0' && name[0] <= '9' {
		return "V" + name
	}
	return name
}
