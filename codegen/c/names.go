package cgen

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

// Snake turns a Smithy identifier into snake_case: "TodoItem" -> "todo_item",
// "HTTPHeaders" -> "http_headers", "ec2InstanceId" -> "ec2_instance_id".
// Runs of characters that are not letters or digits become one underscore;
// leading and trailing underscores are dropped.
func Snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	isUpper := func(r rune) bool { return r >= 'A' && r <= 'Z' }
	isLower := func(r rune) bool { return r >= 'a' && r <= 'z' }
	isDigit := func(r rune) bool { return r >= '0' && r <= '9' }
	for i, r := range rs {
		switch {
		case isUpper(r):
			if i > 0 {
				prev := rs[i-1]
				nextLower := i+1 < len(rs) && isLower(rs[i+1])
				if isLower(prev) || isDigit(prev) || (isUpper(prev) && nextLower) {
					b.WriteByte('_')
				}
			}
			b.WriteRune(r - 'A' + 'a')
		case isLower(r) || isDigit(r):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	for strings.Contains(out, "__") {
		out = strings.ReplaceAll(out, "__", "_")
	}
	out = strings.Trim(out, "_")
	if out == "" {
		out = "x"
	}
	if out[0] >= '0' && out[0] <= '9' {
		out = "n" + out
	}
	return out
}

// reserved are the words a generated identifier must not be: the keywords
// of C (C89 to C23) and C++ (the header is usable from C++), and names the
// C library or the compiler define as macros.
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed sizeof static struct switch
		typedef union unsigned void volatile while _Bool _Complex _Imaginary alignas alignof bool constexpr
		false nullptr static_assert thread_local true typeof typeof_unqual
		asm class new delete template this operator private public protected virtual friend namespace using
		try catch throw explicit mutable typename export and or not xor bitand bitor compl and_eq or_eq
		not_eq xor_eq wchar_t char8_t char16_t char32_t concept requires co_await co_yield co_return
		decltype noexcept dynamic_cast static_cast reinterpret_cast const_cast typeid final override
		errno stdin stdout stderr assert offsetof unix linux i386 NULL EOF complex imaginary noreturn`) {
		reserved[w] = true
	}
}

// safeField makes a snake_case name usable as a struct member: keywords
// get a trailing underscore ("default" -> "default_").
func safeField(s string) string {
	if reserved[s] {
		return s + "_"
	}
	return s
}

var prefixRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// checkPrefix validates a --prefix.
func checkPrefix(p string) error {
	if !prefixRE.MatchString(p) || strings.Contains(p, "__") || strings.HasSuffix(p, "_") {
		return fmt.Errorf("prefix %q: want lower-case letters, digits and single underscores, starting with a letter", p)
	}
	if reserved[p] || p == "smithycurl" || strings.HasPrefix(p, "smithycurl_") {
		return fmt.Errorf("prefix %q is reserved", p)
	}
	return nil
}

// scope hands out identifiers that are unique within it. A name taken
// already gets the first free suffix _2, _3, ... in the order names are
// asked for, so the result is deterministic for a given model.
type scope struct{ used map[string]bool }

func newScope() *scope { return &scope{used: map[string]bool{}} }

// claim reserves base (or base_N) together with base+suffix for every
// suffix, and returns the base it chose.
func (s *scope) claim(base string, suffixes ...string) string {
	for n := 1; ; n++ {
		cand := base
		if n > 1 {
			cand = fmt.Sprintf("%s_%d", base, n)
		}
		free := !s.used[cand]
		for _, suf := range suffixes {
			if s.used[cand+suf] {
				free = false
			}
		}
		if !free {
			continue
		}
		s.used[cand] = true
		for _, suf := range suffixes {
			s.used[cand+suf] = true
		}
		return cand
	}
}

// OperationNames are the C names of one operation of a generated client.
type OperationNames struct {
	Operation string // the operation's shape name
	Func      string // its function
	Input     string // its input type; "" when the function takes none
	Output    string // its output type; "" when it has none
}

// ErrorNames are the C names of one modeled error of a generated client.
type ErrorNames struct {
	Shape  model.ShapeID
	Type   string // its structure type
	AsFunc string // PREFIX_error_as_NAME
}

// Names returns the C names that Generate gives svc's operations and
// modeled errors with opts, in the order the header declares them.
func Names(m *model.Model, svc *model.Service, opts Options) ([]OperationNames, []ErrorNames, error) {
	prefix := opts.Prefix
	if prefix == "" {
		prefix = Snake(svc.Shape.ID.Name())
	}
	if err := checkPrefix(prefix); err != nil {
		return nil, nil, err
	}
	p, err := newPlan(m, svc, prefix)
	if err != nil {
		return nil, nil, fmt.Errorf("gen c: %w", err)
	}
	var ops []OperationNames
	for _, op := range p.ops {
		n := OperationNames{Operation: op.op.Name, Func: op.fn}
		if op.in != nil {
			n.Input = op.in.name
		}
		if op.out != nil {
			n.Output = op.out.name
		}
		ops = append(ops, n)
	}
	var errs []ErrorNames
	for _, e := range p.errors {
		errs = append(errs, ErrorNames{Shape: e.t.shape.ID, Type: e.t.name, AsFunc: e.asFn})
	}
	return ops, errs, nil
}
