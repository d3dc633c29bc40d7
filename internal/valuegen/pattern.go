package valuegen

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// fromPattern writes a random string that the regular expression pattern
// matches, preferring letters and digits; ok is false when Go cannot parse
// the pattern (Smithy's are ECMA-262: lookarounds and backreferences are
// not Go's).
func (g *Gen) fromPattern(pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	g.writeMatch(&b, re.Simplify(), 0)
	return b.String(), true
}

// writeMatch writes a string re matches, with repetitions kept short.
func (g *Gen) writeMatch(b *strings.Builder, re *syntax.Regexp, depth int) {
	if depth > 50 || b.Len() > 1000 {
		return
	}
	repeat := func(lo, hi int) {
		if hi < 0 || hi > lo+3 {
			hi = lo + 3
		}
		for n := lo + g.R.Intn(hi-lo+1); n > 0; n-- {
			g.writeMatch(b, re.Sub[0], depth+1)
		}
	}
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		b.WriteRune(g.classRune(re.Rune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte(byte('a' + g.R.Intn(26)))
	case syntax.OpCapture:
		g.writeMatch(b, re.Sub[0], depth+1)
	case syntax.OpStar:
		repeat(0, 2)
	case syntax.OpPlus:
		repeat(1, 3)
	case syntax.OpQuest:
		repeat(0, 1)
	case syntax.OpRepeat:
		repeat(re.Min, re.Max)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			g.writeMatch(b, sub, depth+1)
		}
	case syntax.OpAlternate:
		g.writeMatch(b, re.Sub[g.R.Intn(len(re.Sub))], depth+1)
	}
	// The empty matches (^, $, \b, ...) write nothing.
}

// classRune picks a rune of a character class (pairs of inclusive
// ranges): a letter or digit when the class has one.
func (g *Gen) classRune(ranges []rune) rune {
	var plain []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r <= 'z'; r++ {
			if r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				plain = append(plain, r)
			}
		}
	}
	if len(plain) > 0 {
		return plain[g.R.Intn(len(plain))]
	}
	if len(ranges) < 2 {
		return 'a'
	}
	i := 2 * g.R.Intn(len(ranges)/2)
	lo, hi := ranges[i], ranges[i+1]
	if hi-lo > 0xff { // stay near the start of a huge range
		hi = lo + 0xff
	}
	return lo + rune(g.R.Intn(int(hi-lo+1)))
}

// Patterns is a cache of compiled @pattern regexps, safe for concurrent
// use; the zero value is empty.
type Patterns struct{ m sync.Map } // pattern → *regexp.Regexp (nil when Go cannot compile it)

func (p *Patterns) compile(pattern string) *regexp.Regexp {
	if p == nil {
		re, _ := regexp.Compile(pattern)
		return re
	}
	if re, ok := p.m.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := regexp.Compile(pattern)
	p.m.Store(pattern, re)
	return re
}
