package proptest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// checkInvalid is the invalid-input property for one broken input: the
// codec refuses it with an input or validation error that names the
// broken member, and builds no request.
func checkInvalid(tg target, codec protocol.Codec, in map[string]any, mu Mutation) error {
	req, err := codec.EncodeRequest(context.Background(), tg.op, Encode(in))
	if err == nil {
		return fmt.Errorf("accepted (%s): request %s", mu, dumpRequest(req))
	}
	if req != nil {
		return fmt.Errorf("a request came with the error %v", err)
	}
	var ie *protocol.InputError
	var ve *protocol.ValidationError
	if !errors.As(err, &ie) && !errors.As(err, &ve) {
		return fmt.Errorf("error %T %v is neither an input nor a validation error", err, err)
	}
	if mu.Name != "" && !strings.Contains(err.Error(), mu.Name) {
		return fmt.Errorf("error %q does not name the member %q (%s)", err, mu.Name, mu)
	}
	return nil
}

// TestInvalidInput: an input broken in one place (a wrong JSON type, an
// out-of-range number, bad base64, invalid UTF-8, an unknown member, a
// missing required member, an unknown enum value, ...) is refused with an
// error naming the member, before any request is built.
func TestInvalidInput(t *testing.T) {
	propertyTests(t)
	tgs := targets(t)
	ran := 0
	known := map[string]int{}
	codecs := map[*model.Service]protocol.Codec{}
	for _, tg := range tgs {
		codec := codecs[tg.svc]
		if codec == nil {
			codec = tg.p.NewCodec(tg.m, tg.svc, protocol.WithValidation(), protocol.WithIdempotencyTokens(func() string { return fixedToken }))
			codecs[tg.svc] = codec
		}
		for i := 0; i < *nFlag; i++ {
			g := newGen(tg, caseSeed(*seedFlag, tg, "invalid", i))
			g.Constrained = true
			in := g.Input(tg.op)
			if g.Unsat {
				continue
			}
			valid := Clone(in).(map[string]any)
			mu, ok := Invalidate(g, tg.op, in)
			if !ok {
				continue
			}
			ran++
			err := checkInvalid(tg, codec, in, mu)
			if err == nil {
				continue
			}
			if _, isKnown := knownDefects[mu.Kind]; isKnown {
				known[mu.Kind]++
				continue
			}
			// Shrink the valid part around the broken value: drop other
			// members while the same mutation still fails.
			min := Shrink(valid, func(c map[string]any) bool {
				if !pathPresent(c, mu.Path) {
					return false
				}
				gc := *g
				gc.R = newGen(tg, caseSeed(*seedFlag, tg, "invalid", i)).R
				broken := Clone(c).(map[string]any)
				mu2, ok := reapply(&gc, tg.op, broken, mu)
				return ok && checkInvalid(tg, codec, broken, mu2) != nil
			}, 40)
			report(t, tg, "invalid input "+mu.String(), *seedFlag, min, "%v", err)
		}
	}
	kinds := make([]string, 0, len(known))
	for k := range known {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		t.Logf("known defect, not counted as a failure: %d inputs of kind %s accepted (%s)", known[k], k, knownDefects[k])
	}
	t.Logf("%d operations, %d invalid inputs", len(tgs), ran)
}

// pathPresent reports whether the member path of a mutation still leads
// to a value in in (its last step may be the member that was removed).
func pathPresent(in map[string]any, path []string) bool {
	var cur any = in
	for i, p := range path {
		if i == len(path)-1 {
			return true
		}
		switch x := cur.(type) {
		case map[string]any:
			k := strings.TrimSuffix(strings.TrimPrefix(p, "["), "]")
			v, ok := x[p]
			if !ok {
				v, ok = x[k]
			}
			if !ok {
				return false
			}
			cur = v
		case []any:
			idx := 0
			fmt.Sscanf(p, "[%d]", &idx)
			if idx >= len(x) {
				return false
			}
			cur = x[idx]
		default:
			return false
		}
	}
	return true
}

// reapply breaks a (shrunk) input the same way mu broke the original: it
// draws mutations until one of the same kind at the same path comes.
func reapply(g *Gen, op *model.Operation, in map[string]any, mu Mutation) (Mutation, bool) {
	for try := 0; try < 30; try++ {
		c := Clone(in).(map[string]any)
		m2, ok := Invalidate(g, op, c)
		if !ok {
			return Mutation{}, false
		}
		if m2.Kind == mu.Kind && strings.Join(m2.Path, ".") == strings.Join(mu.Path, ".") {
			for k := range in {
				delete(in, k)
			}
			for k, v := range c {
				in[k] = v
			}
			return m2, true
		}
	}
	return Mutation{}, false
}
