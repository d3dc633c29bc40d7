package awsconfig

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxFileSize bounds a configuration file: a larger one is an error, not a
// read of gigabytes.
const maxFileSize = 4 << 20

// read parses one file into c, as botocore's parser (Python's configparser,
// RawConfigParser) reads it: "[section]" headers; "key = value" or
// "key: value" with keys lower-cased and both sides trimmed; whole-line
// comments starting with # or ;; a line indented deeper than its key
// continues the value, and a value whose first line is empty holds nested
// "sub = value" lines. In the config file sections are "default",
// "profile NAME", "sso-session NAME" and "services NAME" (others are
// ignored); in the credentials file each section is a profile.
func (c *Config) read(path string, config bool) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err // names the path
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return err
	}
	if len(b) > maxFileSize {
		return errorf(path, "larger than %d bytes", maxFileSize)
	}
	if !utf8.Valid(b) {
		return errorf(path, "not UTF-8 text")
	}
	sections, err := parseINI(path, string(b))
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, s := range sections {
		kind, name := "profile", s.name
		if config && name != "default" {
			var ok bool
			if kind, name, ok = splitSection(name); !ok {
				continue // as botocore: not a section it reads
			}
		}
		into := map[string]map[string]*Profile{"profile": c.profiles, "sso-session": c.ssoSessions, "services": c.services}[kind]
		if into == nil {
			continue
		}
		if seen[s.name] {
			return errorf(s.where, "section [%s] appears twice", s.name)
		}
		seen[s.name] = true
		p := into[name]
		if p == nil {
			p = &Profile{Name: name, values: map[string]value{}, sub: map[string]map[string]value{}}
			into[name] = p
		}
		for k, v := range s.values {
			p.values[k] = v
		}
		for k, sub := range s.sub {
			p.sub[k] = sub
		}
	}
	return nil
}

// splitSection splits "profile NAME" (NAME may be quoted) into its kind and
// name.
func splitSection(s string) (kind, name string, ok bool) {
	kind, rest, found := strings.Cut(s, " ")
	if !found {
		return "", "", false
	}
	rest = strings.TrimSpace(rest)
	if len(rest) >= 2 && (rest[0] == '"' && rest[len(rest)-1] == '"' || rest[0] == '\'' && rest[len(rest)-1] == '\'') {
		rest = rest[1 : len(rest)-1]
	} else if strings.ContainsAny(rest, " \t\"'") {
		return "", "", false // shlex would give more than two words
	}
	if rest == "" {
		return "", "", false
	}
	return kind, rest, true
}

type section struct {
	name   string
	where  string
	values map[string]value
	sub    map[string]map[string]value
}

// parseINI splits text into sections; path names the file in errors.
func parseINI(path, text string) ([]section, error) {
	var (
		out     []section
		cur     *section
		lastKey string // the key a deeper-indented line continues
		keyIndt int
	)
	lines := strings.Split(text, "\n")
	for i, raw := range lines {
		line := strings.TrimSuffix(raw, "\r")
		where := path + ":" + strconv.Itoa(i+1)
		for _, r := range line {
			if r < ' ' && r != '\t' || r == 0x7f {
				return nil, errorf(where, "a control character in the line")
			}
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';' {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		if cur != nil && lastKey != "" && indent > keyIndt {
			// A continuation line: nested "sub = value" when the key's
			// own value is empty, else more of the value.
			v := cur.values[lastKey]
			if v.v == "" || cur.sub[lastKey] != nil {
				k, sv, ok := splitOption(trimmed)
				if !ok {
					return nil, errorf(where, "a nested line of %q is not \"key = value\"", lastKey)
				}
				if cur.sub[lastKey] == nil {
					cur.sub[lastKey] = map[string]value{}
				}
				cur.sub[lastKey][k] = value{sv, where}
				continue
			}
			v.v += "\n" + trimmed
			cur.values[lastKey] = v
			continue
		}
		if trimmed[0] == '[' {
			// configparser's header: from the first [ to the last ], the
			// rest of the line ignored ("[default] ; main").
			j := strings.LastIndexByte(trimmed, ']')
			if j < 2 {
				return nil, errorf(where, "a section header is \"[name]\"")
			}
			out = append(out, section{name: trimmed[1:j], where: where,
				values: map[string]value{}, sub: map[string]map[string]value{}})
			cur, lastKey = &out[len(out)-1], ""
			continue
		}
		if cur == nil {
			return nil, errorf(where, "a value before the first [section]")
		}
		k, v, ok := splitOption(trimmed)
		if !ok {
			return nil, errorf(where, "not \"key = value\", a [section] or a comment")
		}
		if _, dup := cur.values[k]; dup {
			return nil, errorf(where, "%q is set twice in [%s]", k, cur.name)
		}
		cur.values[k] = value{v, where}
		lastKey, keyIndt = k, indent
	}
	return out, nil
}

// splitOption splits "key = value" or "key: value" at the first = or :.
func splitOption(s string) (key, val string, ok bool) {
	i := strings.IndexAny(s, "=:")
	if i <= 0 {
		return "", "", false
	}
	key = strings.ToLower(strings.TrimSpace(s[:i]))
	if key == "" {
		return "", "", false
	}
	return key, strings.TrimSpace(s[i+1:]), true
}
