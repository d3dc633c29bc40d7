package endpoints

import "strings"

// parseArn splits arn:partition:service:region:account:resource; the
// resource is split on ':' and '/' into resourceId. Anything else is null.
func parseArn(v Value) Value {
	if v.kind != StringKind || !strings.HasPrefix(v.s, "arn:") {
		return Null
	}
	parts := strings.SplitN(v.s, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[1] == "" || parts[2] == "" || parts[5] == "" {
		return Null
	}
	ids := splitAny(parts[5], ":/")
	return Record(map[string]Value{
		"partition":  String(parts[1]),
		"service":    String(parts[2]),
		"region":     String(parts[3]),
		"accountId":  String(parts[4]),
		"resourceId": StringArray(ids),
	})
}

func splitAny(s, seps string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(seps, s[i]) >= 0 {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func isVirtualHostableS3BucketFn(v, sub Value) Value {
	return Bool(v.kind == StringKind && isVirtualHostableS3Bucket(v.s, sub.kind == BoolKind && sub.b))
}

// isVirtualHostableS3Bucket reports whether a bucket name can be a host
// label: 3 to 63 lowercase letters, digits and hyphens, starting and ending
// with a letter or digit; with allowSubDomains also dots, but no empty or
// hyphen-edged label and no IPv4 address look-alike.
func isVirtualHostableS3Bucket(s string, allowSubDomains bool) bool {
	if len(s) < 3 || len(s) > 63 || !lowerAlnum(s[0]) || !lowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		switch {
		case lowerAlnum(c), c == '-':
		case c == '.' && allowSubDomains:
			if p, n := s[i-1], s[i+1]; p == '.' || p == '-' || n == '.' || n == '-' {
				return false
			}
		default:
			return false
		}
	}
	if allowSubDomains && looksLikeIPv4(s) {
		return false
	}
	return true
}

func lowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func looksLikeIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" {
			return false
		}
		for i := 0; i < len(p); i++ {
			if p[i] < '0' || p[i] > '9' {
				return false
			}
		}
	}
	return true
}
