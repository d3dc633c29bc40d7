package model

import "strings"

// ShapeID is an absolute shape id: "namespace#Name" or "namespace#Name$member".
// It is a string so that ids compare with == and cost nothing to copy.
type ShapeID string

// Namespace returns the part before '#'.
func (id ShapeID) Namespace() string {
	s := string(id)
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return ""
}

// Name returns the shape name, without namespace or member.
func (id ShapeID) Name() string {
	s := string(id)
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '$'); i >= 0 {
		s = s[:i]
	}
	return s
}

// Member returns the member name, or "" when id is not a member id.
func (id ShapeID) Member() string {
	s := string(id)
	if i := strings.IndexByte(s, '$'); i >= 0 {
		return s[i+1:]
	}
	return ""
}

// Root returns the id without its member part.
func (id ShapeID) Root() ShapeID {
	s := string(id)
	if i := strings.IndexByte(s, '$'); i >= 0 {
		return ShapeID(s[:i])
	}
	return id
}

// WithMember returns the member id root$name.
func (id ShapeID) WithMember(name string) ShapeID {
	return ShapeID(string(id.Root()) + "$" + name)
}

func (id ShapeID) String() string { return string(id) }

// PreludeID returns the id of a shape of the smithy.api namespace.
func PreludeID(name string) ShapeID { return ShapeID(PreludeNamespace + "#" + name) }

// PreludeNamespace is the namespace of the Smithy prelude.
const PreludeNamespace = "smithy.api"

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || (c >= '0' && c <= '9')
}

// validIdentifier reports whether s matches the Smithy identifier grammar:
// (ALPHA / "_" ) *(ALPHA / DIGIT / "_") with at least one non-underscore after leading underscores.
func validIdentifier(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	onlyUnderscore := s[0] == '_'
	for i := 1; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
		if s[i] != '_' {
			onlyUnderscore = false
		}
	}
	return !onlyUnderscore
}

func validNamespace(s string) bool {
	for {
		part, rest, more := strings.Cut(s, ".")
		if !validIdentifier(part) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// ParseShapeID parses an absolute shape id, with an optional member.
func ParseShapeID(s string) (ShapeID, bool) {
	hash := strings.IndexByte(s, '#')
	if hash < 0 || !validNamespace(s[:hash]) || !validShapeName(s[hash+1:]) {
		return "", false
	}
	return ShapeID(s), true
}

// validShapeName reports whether s is the part of a shape id after its
// namespace: a name, and optionally `$` and a member name.
func validShapeName(s string) bool {
	name, member, hasMember := strings.Cut(s, "$")
	return validIdentifier(name) && (!hasMember || validIdentifier(member))
}

// validRelativeID reports whether s is a syntactically valid absolute or relative shape id
// (member part allowed).
func validRelativeID(s string) bool {
	if strings.IndexByte(s, '#') >= 0 {
		_, ok := ParseShapeID(s)
		return ok
	}
	name, member, hasMember := strings.Cut(s, "$")
	return validIdentifier(name) && (!hasMember || validIdentifier(member))
}
