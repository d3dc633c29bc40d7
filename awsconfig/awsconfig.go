// Package awsconfig reads the AWS shared configuration as the AWS CLI and
// SDKs keep it: the config file (~/.aws/config: [default], [profile NAME],
// [sso-session NAME], [services NAME]) and the credentials file
// (~/.aws/credentials: [NAME]), with their environment variables
// (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE, AWS_PROFILE,
// AWS_DEFAULT_PROFILE). A missing file is no error; a malformed one is, with
// its path and line. Values are never shown in messages: they may be
// secrets.
package awsconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Env is where configuration comes from. The zero Env reads the process's
// environment and home folder.
type Env struct {
	// Lookup returns an environment variable; nil: os.LookupEnv.
	Lookup func(name string) (string, bool)
	// Home is the home folder; "": Lookup's HOME, else os.UserHomeDir.
	Home string
}

// Get returns a variable's value ("" when unset).
func (e Env) Get(name string) string {
	v, _ := e.Var(name)
	return v
}

// Var returns a variable's value and whether it is set: a variable set to
// "" is not an unset one (botocore's `name in os.environ`).
func (e Env) Var(name string) (string, bool) {
	if e.Lookup != nil {
		return e.Lookup(name)
	}
	return os.LookupEnv(name)
}

// HomeDir returns the home folder, or "" when there is none.
func (e Env) HomeDir() string {
	if e.Home != "" {
		return e.Home
	}
	if e.Lookup != nil {
		if h, _ := e.Lookup("HOME"); h != "" {
			return h
		}
	}
	h, _ := os.UserHomeDir()
	return h
}

// Path expands a leading ~/ to the home folder.
func (e Env) Path(p string) string {
	if len(p) >= 2 && p[0] == '~' && (p[1] == '/' || p[1] == filepath.Separator) {
		if h := e.HomeDir(); h != "" {
			return filepath.Join(h, p[2:])
		}
	}
	return p
}

// Config is the shared configuration read once.
type Config struct {
	Env             Env
	ConfigFile      string // the path read (or looked for)
	CredentialsFile string
	profiles        map[string]*Profile // by profile name, both files merged
	ssoSessions     map[string]*Profile
	services        map[string]*Profile
}

// Profile is one section: a profile, an sso-session or a services section.
type Profile struct {
	Name   string
	values map[string]value
	// sub holds nested values ("s3 =\n  addressing_style = path"), by
	// key then sub-key.
	sub map[string]map[string]value
}

type value struct {
	v     string
	where string // file:line
}

// Get returns a key's value.
func (p *Profile) Get(key string) (string, bool) {
	if p == nil {
		return "", false
	}
	v, ok := p.values[key]
	return v.v, ok
}

// Where returns where a key is set ("file:line"), "" when it is not.
func (p *Profile) Where(key string) string {
	if p == nil {
		return ""
	}
	return p.values[key].where
}

// Sub returns a nested value: key's sub-key ("s3", "addressing_style").
func (p *Profile) Sub(key, sub string) (string, bool) {
	if p == nil {
		return "", false
	}
	v, ok := p.sub[key][sub]
	return v.v, ok
}

// SubKeys returns a nested section's keys, sorted.
func (p *Profile) SubKeys(key string) []string {
	if p == nil {
		return nil
	}
	var keys []string
	for k := range p.sub[key] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Keys returns the profile's keys, sorted.
func (p *Profile) Keys() []string {
	if p == nil {
		return nil
	}
	keys := make([]string, 0, len(p.values))
	for k := range p.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Load reads the config and credentials files that env names (by default
// ~/.aws/config and ~/.aws/credentials).
func Load(env Env) (*Config, error) {
	c := &Config{Env: env, profiles: map[string]*Profile{}, ssoSessions: map[string]*Profile{}, services: map[string]*Profile{}}
	c.ConfigFile = env.Get("AWS_CONFIG_FILE")
	if c.ConfigFile == "" {
		c.ConfigFile = "~/.aws/config"
	}
	c.ConfigFile = env.Path(c.ConfigFile)
	c.CredentialsFile = env.Get("AWS_SHARED_CREDENTIALS_FILE")
	if c.CredentialsFile == "" {
		c.CredentialsFile = "~/.aws/credentials"
	}
	c.CredentialsFile = env.Path(c.CredentialsFile)
	// The config file first: the credentials file's values win.
	if err := c.read(c.ConfigFile, true); err != nil {
		return nil, err
	}
	if err := c.read(c.CredentialsFile, false); err != nil {
		return nil, err
	}
	return c, nil
}

// ProfileName is the profile in use: AWS_DEFAULT_PROFILE, then
// AWS_PROFILE, then "default". botocore's order; the AWS CLI v2 and
// aws-sdk-go-v2 read AWS_PROFILE first.
func (c *Config) ProfileName() string {
	if p := c.Env.Get("AWS_DEFAULT_PROFILE"); p != "" {
		return p
	}
	if p := c.Env.Get("AWS_PROFILE"); p != "" {
		return p
	}
	return "default"
}

// Profile returns a profile, both files merged; nil when neither has it.
func (c *Config) Profile(name string) *Profile { return c.profiles[name] }

// HasProfile reports whether either file has the profile.
func (c *Config) HasProfile(name string) bool { _, ok := c.profiles[name]; return ok }

// SSOSession returns an [sso-session NAME] section, nil when there is none.
func (c *Config) SSOSession(name string) *Profile { return c.ssoSessions[name] }

// Services returns a [services NAME] section, nil when there is none.
func (c *Config) Services(name string) *Profile { return c.services[name] }

// errorf is a configuration error at a place, without values.
func errorf(where, format string, args ...any) error {
	return fmt.Errorf("%s: "+format, append([]any{where}, args...)...)
}
