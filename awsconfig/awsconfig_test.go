package awsconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// env returns an Env over vars with a home folder holding the given files
// (paths relative to it).
func env(t *testing.T, vars map[string]string, files map[string]string) Env {
	t.Helper()
	home := t.TempDir()
	for name, text := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return Env{Home: home, Lookup: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }}
}

func TestLoad(t *testing.T) {
	e := env(t, map[string]string{"AWS_PROFILE": "dev"}, map[string]string{
		".aws/config": `# the CLI's layout
[default]
region = us-east-1

[profile dev]
region=eu-west-1
role_arn = arn:aws:iam::123456789012:role/dev
source_profile: base
s3 =
  addressing_style = path
  max_concurrent_requests = 20

[profile "with space"]
region = ap-south-1

[sso-session corp]
sso_start_url = https://corp.awsapps.com/start
sso_region = us-east-2

[services local]
dynamodb =
  endpoint_url = http://127.0.0.1:8000

[unrelated]
x = 1

[profile trailing] ; a comment after the header
region = eu-north-1
`,
		".aws/credentials": "[base]\r\naws_access_key_id = AKIDBASE\r\naws_secret_access_key = s3cr3t\r\n\n[dev]\nregion = us-west-2\n",
	})
	c, err := Load(e)
	if err != nil {
		t.Fatal(err)
	}
	if c.ProfileName() != "dev" {
		t.Errorf("profile %q", c.ProfileName())
	}
	dev := c.Profile("dev")
	if r, _ := dev.Get("region"); r != "us-west-2" {
		t.Errorf("dev region %q: the credentials file wins", r)
	}
	if v, _ := dev.Get("source_profile"); v != "base" || !strings.HasSuffix(dev.Where("source_profile"), "config:8") {
		t.Errorf("source_profile %q at %q", v, dev.Where("source_profile"))
	}
	if v, _ := dev.Sub("s3", "addressing_style"); v != "path" {
		t.Errorf("s3.addressing_style %q", v)
	}
	if k, _ := c.Profile("base").Get("aws_access_key_id"); k != "AKIDBASE" {
		t.Errorf("base key %q (CRLF file)", k)
	}
	if r, _ := c.Profile("with space").Get("region"); r != "ap-south-1" {
		t.Errorf("quoted profile name: %q", r)
	}
	if u, _ := c.SSOSession("corp").Get("sso_start_url"); u != "https://corp.awsapps.com/start" {
		t.Errorf("sso-session %q", u)
	}
	if u, _ := c.Services("local").Sub("dynamodb", "endpoint_url"); u != "http://127.0.0.1:8000" {
		t.Errorf("services %q", u)
	}
	if r, _ := c.Profile("trailing").Get("region"); r != "eu-north-1" {
		t.Errorf("a header with text after it: %q", r)
	}
	if c.HasProfile("unrelated") {
		t.Error("[unrelated] in the config file is no profile")
	}
}

func TestMissingFilesAndNames(t *testing.T) {
	c, err := Load(env(t, nil, nil))
	if err != nil || c.ProfileName() != "default" || c.HasProfile("default") {
		t.Fatalf("%v %q", err, c.ProfileName())
	}
	e := env(t, map[string]string{"AWS_CONFIG_FILE": "~/elsewhere/cfg", "AWS_DEFAULT_PROFILE": "x"}, map[string]string{"elsewhere/cfg": "[profile x]\nregion = r\n"})
	c, err = Load(e)
	if err != nil || c.ProfileName() != "x" || !c.HasProfile("x") {
		t.Fatalf("%v %q", err, c.ProfileName())
	}
}

// Malformed files: an error naming the file and line, never a value.
func TestMalformed(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"aws_secret_access_key = SECRETVALUE\n", "config:1: a value before the first [section]"},
		{"[default]\njust words SECRETVALUE\n", "config:2: not \"key = value\""},
		{"[default\nx=1\n", "config:1: a section header"},
		{"[default]\nx = 1\nx = SECRETVALUE\n", "config:3: \"x\" is set twice"},
		{"[default]\nx = 1\n[default]\n", "config:3: section [default] appears twice"},
		{"[default]\nx = a\x01SECRETVALUE\n", "config:2: a control character"},
		{"[default]\ns3 =\n  no-equals SECRETVALUE\n", "config:3: a nested line"},
		{"\xff\xfe", "not UTF-8"},
	} {
		_, err := Load(env(t, nil, map[string]string{".aws/config": tc.text}))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "SECRETVALUE") {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}

func FuzzLoad(f *testing.F) {
	f.Add("[default]\nregion = us-east-1\ns3 =\n  a = b\n[profile x]\nk: v\n")
	f.Fuzz(func(t *testing.T, text string) {
		dir := t.TempDir()
		p := filepath.Join(dir, "config")
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		e := Env{Home: dir, Lookup: func(k string) (string, bool) {
			if k == "AWS_CONFIG_FILE" {
				return p, true
			}
			return "", false
		}}
		c, err := Load(e)
		if err == nil {
			for _, name := range []string{"default", "x"} {
				c.Profile(name).Keys()
			}
		}
	})
}
