// Package jmes compiles and evaluates JMESPath expressions (the paths of
// Smithy waiters) with github.com/jmespath-community/go-jmespath. It adds
// what the library does not promise: a panic inside the library becomes an
// error, errors say which expression failed, and raw string literals keep
// the meaning the JMESPath specification gives them (see rawStrings).
package jmes

import (
	"fmt"

	jmespath "github.com/jmespath-community/go-jmespath"
)

// Expr is a compiled JMESPath expression; it is safe for concurrent use.
type Expr struct {
	src string
	jp  jmespath.JMESPath
}

// Compile parses expr. A syntax error is returned as a *SyntaxError.
func Compile(expr string) (e *Expr, err error) {
	defer func() {
		if p := recover(); p != nil {
			e, err = nil, &SyntaxError{Expr: expr, Msg: fmt.Sprint(p)}
		}
	}()
	jp, err := jmespath.Compile(rawStrings(expr))
	if err != nil {
		return nil, &SyntaxError{Expr: expr, Msg: err.Error()}
	}
	return &Expr{src: expr, jp: jp}, nil
}

// String returns the expression's source text.
func (e *Expr) String() string { return e.src }

// Search evaluates the expression on data, a value of the JSON data model as
// encoding/json decodes it into an any (nil, bool, float64, string, []any,
// map[string]any). A type or arity error at run time is returned as an error
// naming the expression.
func (e *Expr) Search(data any) (out any, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("jmespath %q: %v", e.src, p)
		}
	}()
	out, err = e.jp.Search(data)
	if err != nil {
		return nil, fmt.Errorf("jmespath %q: %w", e.src, err)
	}
	return out, nil
}

// SyntaxError is an expression that does not parse.
type SyntaxError struct {
	Expr string
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("jmespath %q: syntax error: %s", e.Expr, e.Msg)
}

// rawStrings rewrites the raw string literals ('...') of expr for the
// library. In the JMESPath specification (and its compliance tests) the only
// escape of a raw string is \' for a quote: '\\' is two backslashes. The
// library follows the community's later change where \\ is one backslash,
// so each backslash pair inside a raw string is doubled. Quoted identifiers
// ("...") and JSON literals (`...`) are copied as they are.
func rawStrings(expr string) string {
	var b []byte
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch c {
		case '"', '`':
			j := skipQuoted(expr, i, c)
			b = append(b, expr[i:j]...)
			i = j - 1
		case '\'':
			b = append(b, c)
			for i++; i < len(expr); i++ {
				c := expr[i]
				if c == '\\' && i+1 < len(expr) {
					if expr[i+1] == '\\' {
						b = append(b, `\\\\`...)
					} else {
						b = append(b, c, expr[i+1])
					}
					i++
					continue
				}
				b = append(b, c)
				if c == '\'' {
					break
				}
			}
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// skipQuoted returns the index just past the literal opened by q at start
// (a backslash escapes the next byte), or len(s) when it is not closed.
func skipQuoted(s string, start int, q byte) int {
	for i := start + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i + 1
		}
	}
	return len(s)
}
