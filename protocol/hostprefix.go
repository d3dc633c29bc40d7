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
// host labels, unless host prefixes are off. The prefix must read as the
// start of a host name: whole labels up to its last dot, then the start of
// the endpoint's first label ("sync-" in "sync-states.example.com");
// JoinHost checks the host that results.
func (cfg *config) hostPrefix(segs []hostSegment, val func(*memberCodec) []byte) (string, error) {
	if len(segs) == 0 || cfg.noHostPrefix {
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
		text, err := memberText(raw, hs.label, formatDateTime)
		if err != nil {
			return "", err
		}
		if text == "" {
			return "", fmt.Errorf("host label member %s must not be empty", hs.label.name)
		}
		hb.WriteString(text)
	}
	prefix := hb.String()
	if err := checkHostPrefix(prefix); err != nil {
		return "", err
	}
	return prefix, nil
}

// checkHostPrefix checks that prefix can start a host name: every label
// before its last dot valid, and what follows it letters, digits and '-',
// not starting with '-'.
func checkHostPrefix(prefix string) error {
	labels := strings.Split(prefix, ".")
	for i, label := range labels {
		if i == len(labels)-1 {
			if label != "" && !validHostLabel(label+"x") {
				return fmt.Errorf("host prefix %q: %q cannot start a host name label (letters, digits and '-')", prefix, label)
			}
			continue
		}
		if !validHostLabel(label) {
			return fmt.Errorf("host prefix %q: %q is not a valid host name label (letters, digits and '-', 1 to 63)", prefix, label)
		}
	}
	return nil
}

// JoinHost puts a request's host prefix (wire.Request.HostPrefix) before
// the endpoint's host ("host" or "host:port") and checks the host name that
// results, so that no input value can move the request to another host
// ("evil.com/x."): the prefix's labels, and the endpoint's first label it
// extends, must be 1 to 63 letters, digits and '-', neither starting nor
// ending with '-'. A prefix cannot apply to an IP address.
func JoinHost(prefix, hostport string) (string, error) {
	if prefix == "" {
		return hostport, nil
	}
	if err := checkHostPrefix(prefix); err != nil {
		return "", err
	}
	host, port := hostport, ""
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		host, port = host[:i], host[i:]
	}
	if strings.HasPrefix(host, "[") || net.ParseIP(host) != nil {
		return "", fmt.Errorf("host prefix %q cannot apply to the IP address endpoint %s: use a host name or turn host prefixes off", prefix, hostport)
	}
	joined := prefix + host
	if !strings.HasSuffix(prefix, ".") {
		// The prefix ends inside the endpoint's first label.
		first := joined[strings.LastIndexByte(prefix, '.')+1:]
		first, _, _ = strings.Cut(first, ".")
		if !validHostLabel(first) {
			return "", fmt.Errorf("host prefix %q makes the host %q: %q is not a valid host name label (letters, digits and '-', 1 to 63)", prefix, joined, first)
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
