package credentials

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/smithycurl/smithycurl/awsconfig"
)

// BenchmarkStaticProfile: what a client's creation pays for credentials
// from a profile with static keys: reading both files and the chain's
// first resolution (goal: at most 1 ms).
func BenchmarkStaticProfile(b *testing.B) {
	home := b.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".aws"), 0o755); err != nil {
		b.Fatal(err)
	}
	cfg := "[default]\nregion = us-east-1\n\n[profile dev]\nregion = eu-west-1\n"
	creds := "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = s\n\n[dev]\naws_access_key_id = AKIDDEV\naws_secret_access_key = s\n"
	for name, text := range map[string]string{"config": cfg, "credentials": creds} {
		if err := os.WriteFile(filepath.Join(home, ".aws", name), []byte(text), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	env := awsconfig.Env{Home: home, Lookup: func(k string) (string, bool) {
		if k == "AWS_PROFILE" {
			return "dev", true
		}
		return "", false
	}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c, err := awsconfig.Load(env)
		if err != nil {
			b.Fatal(err)
		}
		a, err := DefaultChain(Options{Config: c}).Retrieve(ctx)
		if err != nil || a.AccessKeyID != "AKIDDEV" {
			b.Fatalf("%v %q", err, a.AccessKeyID)
		}
	}
}
