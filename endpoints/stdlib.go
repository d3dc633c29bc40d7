package endpoints

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/smithycurl/smithycurl/wire"
)

// function describes one library function: its parameter types (variadic
// repeats the last) and how it compiles.
type function struct {
	params   []typ
	variadic bool
	result   typ
	// build returns the evaluator given the compiled arguments.
	build func(args []expr, at string) (evalFunc, error)
}

// library is the standard library and the AWS functions. It is read only.
var library map[string]function

func init() {
	library = map[string]function{
		"booleanEquals":                 {params: []typ{tBool, tBool}, result: tBool, build: fixed2(booleanEquals)},
		"stringEquals":                  {params: []typ{tString, tString}, result: tBool, build: fixed2(stringEquals)},
		"isSet":                         {params: []typ{tAny}, result: tBool, build: fixed1(func(v Value) Value { return Bool(v.kind != NullKind) })},
		"not":                           {params: []typ{tBool}, result: tBool, build: fixed1(not)},
		"getAttr":                       {params: []typ{tAny, tString}, result: tAny, build: buildGetAttr},
		"isValidHostLabel":              {params: []typ{tString, tBool}, result: tBool, build: fixed2(isValidHostLabelFn)},
		"parseURL":                      {params: []typ{tString}, result: tRecord, build: fixed1(parseURL)},
		"substring":                     {params: []typ{tString, tInt, tInt, tBool}, result: tString, build: buildSubstring},
		"uriEncode":                     {params: []typ{tString}, result: tString, build: fixed1(uriEncode)},
		"coalesce":                      {params: []typ{tAny, tAny}, variadic: true, result: tAny, build: buildCoalesce},
		"ite":                           {params: []typ{tBool, tAny, tAny}, result: tAny, build: buildIte},
		"split":                         {params: []typ{tString, tString, tInt}, result: tArray, build: buildSplit},
		"aws.partition":                 {params: []typ{tString}, result: tRecord, build: fixed1(awsPartition)},
		"aws.parseArn":                  {params: []typ{tString}, result: tRecord, build: fixed1(parseArn)},
		"aws.isVirtualHostableS3Bucket": {params: []typ{tString, tBool}, result: tBool, build: fixed2(isVirtualHostableS3BucketFn)},
	}
}

func (c *compiler) call(name string, args []expr, at string) (expr, error) {
	fn, ok := library[name]
	if !ok {
		return expr{}, fmt.Errorf("endpoint rule set: %s: unknown function %q", at, name)
	}
	if len(args) < len(fn.params) || (!fn.variadic && len(args) != len(fn.params)) {
		want := fmt.Sprint(len(fn.params))
		if fn.variadic {
			want = "at least " + want
		}
		return expr{}, fmt.Errorf("endpoint rule set: %s: %s takes %s arguments, got %d", at, name, want, len(args))
	}
	for i, a := range args {
		want := fn.params[min(i, len(fn.params)-1)]
		if !want.accepts(a.t) {
			return expr{}, fmt.Errorf("endpoint rule set: %s: %s argument %d is a %s, not a %s", at, name, i+1, a.t, want)
		}
	}
	e, err := fn.build(args, at)
	if err != nil {
		return expr{}, err
	}
	t := fn.result
	test := predicate(name, args)
	if test != nil {
		e = func(f *frame) Value { return Bool(test(f)) }
	}
	switch name {
	case "coalesce":
		t = args[0].t
		for _, a := range args[1:] {
			if a.t != t {
				t = tAny
			}
		}
	case "ite":
		if t = args[1].t; args[2].t != t {
			t = tAny
		}
	}
	return expr{e: e, t: t, test: test}, nil
}

// predicate returns a boolean evaluator for the functions conditions use
// most, specialised for a reference compared with a literal; nil for others.
func predicate(name string, args []expr) func(*frame) bool {
	switch name {
	case "isSet":
		if s := args[0].slot - 1; s >= 0 {
			return func(f *frame) bool { return f.slots[s].kind != NullKind }
		}
		a := args[0].e
		return func(f *frame) bool { return a(f).kind != NullKind }
	case "not":
		if inner := args[0].test; inner != nil {
			return func(f *frame) bool { return !inner(f) }
		}
	case "booleanEquals", "stringEquals":
		kind := BoolKind
		if name == "stringEquals" {
			kind = StringKind
		}
		ref, lit := args[0], args[1]
		if lit.slot > 0 {
			ref, lit = lit, ref
		}
		if s := ref.slot - 1; s >= 0 && lit.konst != nil {
			k := *lit.konst
			if kind == BoolKind {
				return func(f *frame) bool { v := &f.slots[s]; return v.kind == BoolKind && v.b == k.b }
			}
			return func(f *frame) bool { v := &f.slots[s]; return v.kind == StringKind && v.s == k.s }
		}
		a, b := args[0].e, args[1].e
		return func(f *frame) bool {
			x, y := a(f), b(f)
			return x.kind == kind && y.kind == kind && x.b == y.b && x.s == y.s
		}
	}
	return nil
}

func fixed1(f func(Value) Value) func([]expr, string) (evalFunc, error) {
	return func(args []expr, _ string) (evalFunc, error) {
		a := args[0].e
		return func(fr *frame) Value { return f(a(fr)) }, nil
	}
}

func fixed2(f func(Value, Value) Value) func([]expr, string) (evalFunc, error) {
	return func(args []expr, _ string) (evalFunc, error) {
		a, b := args[0].e, args[1].e
		return func(fr *frame) Value { return f(a(fr), b(fr)) }, nil
	}
}

func booleanEquals(a, b Value) Value {
	return Bool(a.kind == BoolKind && b.kind == BoolKind && a.b == b.b)
}

func stringEquals(a, b Value) Value {
	return Bool(a.kind == StringKind && b.kind == StringKind && a.s == b.s)
}

func not(v Value) Value {
	if v.kind != BoolKind {
		return Null
	}
	return Bool(!v.b)
}

func buildGetAttr(args []expr, at string) (evalFunc, error) {
	if args[1].konst == nil {
		return nil, fmt.Errorf("endpoint rule set: %s: getAttr's path must be a literal string", at)
	}
	x, err := getAttr(args[0], args[1].konst.s, at)
	return x.e, err
}

func buildSubstring(args []expr, at string) (evalFunc, error) {
	s, start, stop, rev := args[0].e, args[1].e, args[2].e, args[3].e
	return func(f *frame) Value {
		return substring(s(f), start(f), stop(f), rev(f))
	}, nil
}

func substring(s, start, stop, rev Value) Value {
	if s.kind != StringKind || start.kind != IntKind || stop.kind != IntKind {
		return Null
	}
	in := s.s
	for i := 0; i < len(in); i++ {
		if in[i] >= 0x80 {
			return Null
		}
	}
	a, b := int(start.n), int(stop.n)
	if a < 0 || a >= b || b > len(in) {
		return Null
	}
	if rev.b {
		a, b = len(in)-b, len(in)-a
	}
	return String(in[a:b])
}

func buildCoalesce(args []expr, at string) (evalFunc, error) {
	fs := make([]evalFunc, len(args))
	for i, a := range args {
		fs[i] = a.e
	}
	return func(f *frame) Value {
		var v Value
		for _, g := range fs {
			if v = g(f); v.kind != NullKind {
				return v
			}
		}
		return v
	}, nil
}

func buildIte(args []expr, at string) (evalFunc, error) {
	c, a, b := args[0].e, args[1].e, args[2].e
	return func(f *frame) Value {
		if v := c(f); v.kind == BoolKind && v.b {
			return a(f)
		}
		return b(f)
	}, nil
}

func buildSplit(args []expr, at string) (evalFunc, error) {
	s, d, l := args[0].e, args[1].e, args[2].e
	return func(f *frame) Value {
		sv, dv, lv := s(f), d(f), l(f)
		if sv.kind != StringKind || dv.kind != StringKind || dv.s == "" || lv.kind != IntKind {
			return Null
		}
		n := int(lv.n)
		if n <= 0 {
			n = -1
		}
		parts := strings.SplitN(sv.s, dv.s, n)
		return StringArray(parts)
	}, nil
}

func isValidHostLabelFn(v, sub Value) Value {
	return Bool(v.kind == StringKind && isValidHostLabel(v.s, sub.kind == BoolKind && sub.b))
}

// isValidHostLabel reports whether s is an RFC 1123 host label (letters,
// digits and hyphens, 1 to 63 of them, not starting with a hyphen), or with
// allowSubDomains labels joined by dots.
func isValidHostLabel(s string, allowSubDomains bool) bool {
	if !allowSubDomains {
		return hostLabel(s)
	}
	for {
		label, rest, more := strings.Cut(s, ".")
		if !hostLabel(label) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

func hostLabel(s string) bool {
	if len(s) == 0 || len(s) > 63 || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// parseURL splits a URL without a query into scheme, authority, path,
// normalizedPath and isIp; anything else is null.
func parseURL(v Value) Value {
	if v.kind != StringKind {
		return Null
	}
	s := v.s
	if strings.ContainsAny(s, "?#") {
		return Null
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" || u.User != nil {
		return Null
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return Null
	}
	// The authority as written (url.Parse lowercases nothing in the host,
	// but take it from the text to keep it exact).
	rest := s[len(u.Scheme)+3:]
	authority, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	host := u.Hostname()
	isIP := net.ParseIP(host) != nil && (strings.HasPrefix(authority, "[") || strings.Count(host, ".") == 3)
	norm := path
	if !strings.HasPrefix(norm, "/") {
		norm = "/" + norm
	}
	if !strings.HasSuffix(norm, "/") {
		norm += "/"
	}
	return Record(map[string]Value{
		"scheme":         String(u.Scheme),
		"authority":      String(authority),
		"path":           String(path),
		"normalizedPath": String(norm),
		"isIp":           Bool(isIP),
	})
}

// uriEncode percent-encodes everything but RFC 3986's unreserved characters.
func uriEncode(v Value) Value {
	if v.kind != StringKind {
		return Null
	}
	s := v.s
	n := 0
	for i := 0; i < len(s); i++ {
		if !wire.Unreserved(s[i]) {
			n++
		}
	}
	if n == 0 {
		return v
	}
	b := wire.AppendEscaped(make([]byte, 0, len(s)+2*n), s, false)
	return String(string(b))
}
