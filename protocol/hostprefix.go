package protocol

import (
	"fmt"
	"net"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

// hostSegment is a literal of an endpoint trait's hostPrefix or one of its
// host labels (an input member).
type hostSegment struct {
	literal string
	label   *memberCodec
}

// parseHostPrefix splits an endpoint trait's hostPrefix into literals and
// host labels (members of the input in).
func parseHostPrefix(op *model.Operation, in *shapeCodec, tpl string) ([]hostSegment, error) {
	var out []hostSegment
	for tpl != "" {
		i := strings.IndexByte(tpl, '{')
		j := strings.IndexByte(tpl, '}')
		if i < 0 || j < i {
			out = append(out, hostSegment{literal: tpl})
			break
		}
		if i > 0 {
			out = append(out, hostSegment{literal: tpl[:i]})
		}
		mc := in.byName[tpl[i+1:j]]
		if mc == nil {
			return nil, fmt.Errorf("operation %s: host label {%s} has no input member", op.Shape.ID, tpl[i+1:j])
		}
		out = append(out, hostSegment{label: mc})
		tpl = tpl[j+1:]
	}
	return out, nil
}

// hostPrefix resolves an endpoint trait's host prefix with the input's
// host labels. The prefix is checked where it joins the endpoint's host
// (JoinHost): "sync-" is a valid prefix of "sync-states.example.com".
func hostPrefix(segs []hostSegment, val func(*memberCodec) []byte) (string, error) {
	if len(segs) == 0 {
		return "", nil
	}
	var hb strings.Builder
	for _, hs := range segs {
		if hs.label == nil {
			hb.WriteString(hs.literal)
			continue
		}
		raw := val(hs.label)
		if raw == nil {
			return "", fmt.Errorf("host label member %s is required", hs.label.name)
		}
		text, err := scalarText(raw, hs.label, formatDateTime)
		if err != nil {
			return "", err
		}
		if text == "" {
			return "", fmt.Errorf("host label member %s must not be empty", hs.label.name)
		}
		hb.WriteString(text)
	}
	return hb.String(), nil
}

// JoinHost puts a request's host prefix (wire.Request.HostPrefix) before
// the endpoint's host ("host" or "host:port") and checks the host name that
// results: every label the prefix makes or extends must be 1 to 63 letters,
// digits and '-', neither starting nor ending with '-', so that no input
// value can move the request to another host ("evil.com/x."). A prefix
// cannot apply to an IP address.
func JoinHost(prefix, hostport string) (string, error) {
	if prefix == "" {
		return hostport, nil
	}
	host, port := hostport, ""
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		host, port = host[:i], host[i:]
	}
	if strings.HasPrefix(host, "[") || net.ParseIP(host) != nil {
		return "", fmt.Errorf("host prefix %q cannot apply to the IP address endpoint %s: use a host name or turn host prefixes off", prefix, hostport)
	}
	joined := prefix + host
	// The labels the prefix makes, and the endpoint's first label when the
	// prefix does not end with a dot.
	n := strings.Count(prefix, ".")
	if !strings.HasSuffix(prefix, ".") {
		n++
	}
	labels := strings.SplitN(joined, ".", n+1)
	for _, label := range labels[:min(n, len(labels))] {
		if !validHostLabel(label) {
			return "", fmt.Errorf("host prefix %q makes the host %q: %q is not a valid host name label (letters, digits and '-', 1 to 63)", prefix, joined, label)
		}
	}
	return joined + port, nil
}

func validHostLabel(s string) bool {
	if len(s) == 0 || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
