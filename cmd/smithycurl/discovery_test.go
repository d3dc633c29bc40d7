package main

import (
	"os"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/servers/timestreamserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestCallEndpointDiscoveryFlag: Timestream Write's ListDatabases through
// the cell the fake's DescribeEndpoints names (the configured endpoint,
// AWS_ENDPOINT_URL, is its regional one); --endpoint-discovery false
// refuses it, a mode it does not know is refused.
func TestCallEndpointDiscoveryFlag(t *testing.T) {
	bin := smithycurl(t)
	srv, err := timestreamserver.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	t.Setenv("AWS_ENDPOINT_URL", srv.URL)
	t.Setenv("AWS_CONFIG_FILE", os.DevNull)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", os.DevNull)
	t.Setenv("AWS_PROFILE", "")
	base := []string{"call", "--model", shareddata.Path(t, "aws-models", "timestream-write.json"), "--region", "us-east-1",
		"--aws-access-key-id", "AKIDDISCOVERY", "--aws-secret-access-key", "secret"}
	out, errOut, code := runCmd(t, bin, append(base, "--endpoint-discovery", "true", "ListDatabases")...)
	if code != 0 || !strings.Contains(out, "cell-db") {
		t.Errorf("--endpoint-discovery true: exit %d, %s %s", code, out, errOut)
	}
	if st := srv.Stats(); st.Describes != 1 || st.Cell != 1 {
		t.Errorf("stats %+v, want one DescribeEndpoints and one call of the cell", st)
	}
	if _, errOut, code := runCmd(t, bin, append(base, "--endpoint-discovery", "false", "ListDatabases")...); code == 0 || !strings.Contains(errOut, "requires endpoint discovery, which is turned off") {
		t.Errorf("--endpoint-discovery false: exit %d, %s", code, errOut)
	}
	if _, errOut, code := runCmd(t, bin, append(base, "--endpoint-discovery", "sometimes", "ListDatabases")...); code == 0 || !strings.Contains(errOut, `--endpoint-discovery "sometimes": want auto, true or false`) {
		t.Errorf("--endpoint-discovery sometimes: exit %d, %s", code, errOut)
	}
}
